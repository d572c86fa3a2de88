"""The term discovery (TDE) benchmarks, declared: one record each, `--benchmark NAME` of
steps/score_tde.sh, `termeval score-tde` and `termeval.score_tde`.

A record says which stage scores it (loaded by name when scoring, so `--help` stays light;
the stage's `name` is the benchmark's: its logs <exp>/log/<name>.log, <name>.J.log,
<name>.merge.log and shards <exp>/jobs/<name>.J.npz), which options of TdeOptions it reads
(any other keeps its default: a value given is refused, termeval/tde/options.py), whether its
classes are prepared as steps/prepare_classes.sh prepares them, whether it takes --bootstrap,
how the API prepares raw gold for it, its quirks as named flags (what the kernels in
zrc2020/, zr2015/ and seeddoc/ switch on; never its name) and its RESULTS.md table.

A new TDE benchmark is one record here plus its kernel (a sub-folder with a Stage).
This module is the floor of termeval/tde: the sub-folders import it, it imports none of them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from termeval.core.declaration import Measure, Table, load, prf
from termeval.core.errors import InputError

# the measure groups of --measures (zr2015, zr2017: termeval/tde/zr2015/plan.py runs them)
ZR15_MEASURES = ("matching", "ned", "coverage", "grouping", "token_type", "boundary")
# the options of TdeOptions every benchmark reads (the rest: Benchmark.reads)
COMMON_OPTIONS = ("benchmark", "lenient", "nj", "bootstrap", "seed", "ci", "data_dir", "class_file", "exp_dir",
                  "report", "report_files", "textgrids")


@dataclass(frozen=True)
class Zr15Quirks:
    """Where bootphon/tde master (zr2015) and its branch zerospeech2017 (zr2017) differ
    (docs/tde.md §6): the kernels of termeval/tde/zr2015 switch on these flags."""
    isclose_no_overlap: bool      # 'no overlap' is numpy.isclose(o, 0) (|o| <= 1e-8); else o < 1e-8
    relative_adjacency: bool      # a segment continues when |prev_off - on| <= 1e-8 + 1e-5 |on|; else < 1e-5
    coverage_nan_near_zero: bool  # coverage is NaN when its numerator or denominator is ~0 (else: both < 1e-8, or 0/0)
    nlp_cluster_header: bool      # details/tde15/nlp starts each block with '#cluster:' and '#pairs:' lines
    version_file: str             # the empty file naming the tool's version in details/tde15/


@dataclass(frozen=True)
class SeedRules:
    """The seed documents' rules of one mode (docs/tde.md §13): the kernels of
    termeval/tde/seeddoc switch on these fields."""
    lmax: int                     # completion and gold n-gram lengths 3..lmax
    overlap: str                  # pairs overlap by "time" (zr2015-doc) or by a shared "phone" (lrec2014)
    weights: str                  # matching/grouping weights: "fragments" or "ordered-pairs"
    edge_inclusive: bool          # an edge phone is kept when o >= 30 ms or 2o >= d (else >)
    ned_filters_overlap: bool     # NED skips overlapping same-class pairs
    ned_per_fold: bool            # NED goes with the pair keys of every fold (else: one whole-corpus unit)
    pairs_coverage: bool          # coverage (and coverage_discoverable) from the paired fragments
    lexicon: str                  # type/token/boundary definitions: "zr" or "lrec"
    grouping_lengths: tuple[int, int] | None   # gold grouping restricted to these n-gram lengths
    f_of_means: bool              # a fold set's F = F(mean P, mean R) (else the mean of the fold Fs)
    folds: str                    # --folds syntax besides none|auto: "equal" (equal:N) or "random"
    folds_auto: str               # what --folds auto means
    definitions: Mapping[str, str] = field(default_factory=dict)   # the rules, as scores.json names them


@dataclass(frozen=True)
class Benchmark:
    """One TDE benchmark (module docstring)."""
    name: str
    stage: str                          # "module:factory": factory(name) -> its Stage
    reads: tuple[str, ...]              # the options it reads besides COMMON_OPTIONS
    table: Table
    prepares_classes: bool = True       # <exp>/classes prepared (as steps/prepare_classes.sh)
    bootstrap: bool = True              # --bootstrap available
    sil_less_gold: bool = False         # the API prepares raw gold SIL-less (pauses as gaps, sorted)
    zr15: Zr15Quirks | None = None      # the zr2015/ kernel's quirks
    seed: SeedRules | None = None       # the seeddoc/ kernel's rules


# ----------------------------------------------------------------------------- the tables

def _frac(name: str, headline: bool = False, lower: bool = False) -> Measure:
    return Measure(name, headline=headline, lower_is_better=lower, percent=True)


def _with(spread: tuple[str, ...], *base: Measure) -> tuple[Measure, ...]:
    """Each measure, then its fold summaries: `_std` shown like it (in percent when it is, never
    lower-is-better), `_min`, `_max`, `_nfolds` plain."""
    out = []
    for m in base:
        out.append(m)
        for s in spread:
            out.append(Measure(m.name + s, percent=m.percent and s == "_std"))
    return tuple(out)


def _families(prefix: str = "") -> list[str]:
    return [f"{prefix}{f}" for f in ("matching", "grouping", "type", "token", "boundary")]


TDE_HEADLINE = ("ned", "coverage", "grouping_fscore", "type_fscore", "token_fscore", "boundary_fscore")

ZRC2020_TABLE = Table("zrc2020", (
    _frac("ned", lower=True), Measure("ned_pairs"), _frac("coverage"),
    *(m for fam in ("grouping", "type", "token", "boundary") for m in prf(fam))),
    TDE_HEADLINE + ("grouping_precision", "grouping_recall", "ned_pairs"))


def _zr15_table(name: str) -> Table:
    spread = ("_std", "_min", "_max", "_nfolds")
    ms: list[Measure] = []
    for s in ("cross_", "within_"):
        ms += _with(spread, _frac(s + "ned", lower=True), Measure(s + "ned_pairs"), _frac(s + "coverage"))
        for fam in _families(s):
            ms += _with(spread, *prf(fam))
    return Table(name, tuple(ms), (
        "cross_ned", "cross_coverage", "cross_matching_fscore", "cross_grouping_fscore", "cross_type_fscore",
        "cross_token_fscore", "cross_boundary_fscore", "within_ned", "within_matching_fscore",
        "within_grouping_fscore"))


def _seed_table(name: str) -> Table:
    spread = ("_std",)
    # coverage_discoverable: plain, as --percent has always shown it (a name not ending in coverage)
    ms = list(_with(spread, _frac("ned", lower=True), _frac("coverage"), Measure("coverage_discoverable"),
                    _frac("within_ned", lower=True)))
    for fam in _families() + ["type_3to20"] + _families("within_")[:2]:
        ms += _with(spread, *prf(fam))
    return Table(name, tuple(ms), TDE_HEADLINE + ("matching_fscore", "grouping_precision", "grouping_recall",
                                                  "ned_std"))


# ----------------------------------------------------------------------------- the records

_ZR15_READS = ("folds", "measures", "bootstrap_unit")
_SEED_READS = ("folds", "end_tolerance", "pairs_clustering")

BENCHMARKS: dict[str, Benchmark] = {b.name: b for b in (
    Benchmark("zrc2020", "termeval.tde.zrc2020.stage:Zrc2020Stage",
              ("workers", "end_tolerance", "pairs_clustering", "bootstrap_unit"), ZRC2020_TABLE),
    Benchmark("zr2015", "termeval.tde.zr2015.stage:Zr2015Stage", _ZR15_READS, _zr15_table("zr2015"),
              prepares_classes=False, sil_less_gold=True,
              zr15=Zr15Quirks(isclose_no_overlap=True, relative_adjacency=True, coverage_nan_near_zero=True,
                              nlp_cluster_header=False, version_file="VERSION_0.2.1")),
    Benchmark("zr2017", "termeval.tde.zr2015.stage:Zr2015Stage", _ZR15_READS, _zr15_table("zr2017"),
              prepares_classes=False, sil_less_gold=True,
              zr15=Zr15Quirks(isclose_no_overlap=False, relative_adjacency=False, coverage_nan_near_zero=False,
                              nlp_cluster_header=True, version_file="VERSION_0.2.2")),
    Benchmark("zr2015-doc", "termeval.tde.seeddoc.stage:SeedStage", _SEED_READS, _seed_table("zr2015-doc"),
              bootstrap=False,
              seed=SeedRules(lmax=20, overlap="time", weights="fragments", edge_inclusive=False,
                             ned_filters_overlap=True, ned_per_fold=True, pairs_coverage=True, lexicon="zr",
                             grouping_lengths=None, f_of_means=False, folds="equal", folds_auto="equal:10",
                             definitions={
        "transcription": "edge-phone-more-than-30ms-or-half", "silence": "pause-not-a-phone",
        "empty_transcription": "fragment-discarded", "pair_overlap": "same-file-more-than-half-of-either",
        "ned": "distinct-non-overlapping-same-class-pairs", "ned_normaliser": "max-phone-length",
        "coverage": "paired-fragments-over-pall-phones", "coverage_discoverable": "all-fragments-within-pall-phones",
        "ngrams": "3-20-phones-no-pause", "matching_completion": "all-minimal-edit-paths",
        "matching_lengths": "3:20", "completed_overlapping_pairs": "dropped", "matching_weights": "fragments",
        "grouping_weights": "fragments", "grouping_gold": "disjoint-times-any-clusters",
        "type": "phone-string-sets", "type_3to20": "phone-string-sets-3:20", "token": "phone-range-sets",
        "boundary": "nearest-phone-boundary-under-30ms", "boundary_gold": "word-edges-with-file-edges",
        "within": "same-speaker-pairs-pooled", "scope": "whole-corpus", "fscore_over_folds": "mean-of-fold-fscores",
                             })),
    Benchmark("lrec2014", "termeval.tde.seeddoc.stage:SeedStage", _SEED_READS, _seed_table("lrec2014"),
              bootstrap=False,
              seed=SeedRules(lmax=30, overlap="phone", weights="ordered-pairs", edge_inclusive=True,
                             ned_filters_overlap=False, ned_per_fold=False, pairs_coverage=False, lexicon="lrec",
                             grouping_lengths=(3, 20), f_of_means=True, folds="random",
                             folds_auto="random:50x0.04:777", definitions={
        "transcription": "edge-phone-at-least-30ms-or-half", "silence": "pause-not-a-phone",
        "empty_transcription": "fragment-discarded", "pair_overlap": "shared-phone",
        "ned": "distinct-same-class-pairs", "ned_normaliser": "max-phone-length",
        "coverage": "all-fragments-over-all-phones", "ngrams": "3-30-phones-no-pause",
        "matching_completion": "all-minimal-edit-paths", "matching_lengths": "3:30",
        "completed_overlapping_pairs": "dropped", "matching_weights": "ordered-pairs-second-element",
        "grouping_weights": "ordered-pairs-second-element", "grouping_gold": "disjoint-phones-any-clusters-3:20",
        "type": "covered-corpus-per-type-average", "token": "covered-corpus-occurrences",
        "boundary": "transcribed-edges-covered-corpus", "boundary_gold": "word-edges-with-file-edges",
        "within": "same-speaker-pairs-pooled", "scope": "covered-corpus",
        "fscore_over_folds": "from-mean-precision-and-recall",
                             })),
)}

TABLES: tuple[Table, ...] = tuple(b.table for b in BENCHMARKS.values())
ZR15_MODES = tuple(b.name for b in BENCHMARKS.values() if b.zr15 is not None)     # termeval/tde/zr2015's
SEED_MODES = tuple(b.name for b in BENCHMARKS.values() if b.seed is not None)     # termeval/tde/seeddoc's


def benchmark(name: str) -> Benchmark:
    """The record of `--benchmark NAME` (InputError naming the choices)."""
    try:
        return BENCHMARKS[name]
    except KeyError:
        raise InputError(f"--benchmark: expected one of {' '.join(BENCHMARKS)}, got '{name}'") from None


def zr15(name: str) -> Zr15Quirks:
    """The quirks of a zr2015-family benchmark."""
    q = benchmark(name).zr15
    if q is None:
        raise ValueError(f"{name} is not scored by termeval/tde/zr2015")
    return q


def seed_rules(name: str) -> SeedRules:
    """The rules of a seed-document benchmark."""
    r = benchmark(name).seed
    if r is None:
        raise ValueError(f"{name} is not scored by termeval/tde/seeddoc")
    return r


def stage_for(name: str) -> Any:
    """The Stage of a declared benchmark (its module imported now; its `name` is `name`)."""
    return load(benchmark(name).stage)(name)


def readers(option: str) -> tuple[str, ...]:
    """The benchmarks that read `option` (every one for the common options)."""
    if option in COMMON_OPTIONS:
        return tuple(BENCHMARKS)
    return tuple(b.name for b in BENCHMARKS.values() if option in b.reads)


def stage_of(opts: Any) -> Any:
    """The stage of score_tde's options: its --benchmark's (termeval/steps: Step.stage)."""
    return stage_for(opts.benchmark)


def stage_name(opts: Any) -> str:
    """The name of a score_tde run's logs and shards: its benchmark's, without loading a stage."""
    return benchmark(opts.benchmark).name
