"""Spoken term detection as a stage of the one job protocol (termeval.run.driver).

Units are terms, costed by their scored detections + references; a shard holds the aligned
pairs (global detection and reference indices) of a range of terms and the solver counts.
The merge concatenates them in term order, which is the alignment one process finds, and
score.finish computes every figure from it. --compat kaldi (compute-atwv's float32 running
means follow the whole keyword list) is one unit scored whole in the merge.
"""
from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any

import numpy as np

from termeval.core.errors import InputError
from termeval.core.options import split_number_list
from termeval.core.stage import Report, Shard, Stage, View
from termeval.std import breakdown, report
from termeval.std.compat import compat_module
from termeval.std.detections import read_detections
from termeval.std.kwsdir import load_kws_dir
from termeval.std.lexicon import read_lexicon
from termeval.std.options import StdOptions
from termeval.std.score import (Alignment, Condition, Params, align_terms, finish, prepare, score_conditions,
                                source_type_condition, term_conditions)
from termeval.std.termlist import parse_term_attr

# What a run owns in the exp dir (STD details lie at the top of details/, next to QUESST's
# details/quesst/, and both stages merge their metrics into scores/scores.json).
OUTPUTS = ("scores/std", "scores/std_operating", "scores/scores.json", "scores/.summary",
           "details/per_term.tsv", "details/ranking_per_term.tsv", "details/det_points.tsv",
           "details/alignment.csv", "details/report.txt", "details/score.txt",
           "details/det.png", "details/det.pdf", "details/twv.png", "details/twv.pdf",
           "details/breakdown_*.tsv", "units/units.std_term.npz",
           # --f4de-reports; --compat kaldi's score.sh files (termeval.std.kaldi.report)
           "details/sum.txt", "details/bsum.txt", "details/cond.sum.txt", "details/cond.bsum.txt",
           "details/sum.csv", "details/bsum.csv", "details/cond.sum.csv", "details/cond.bsum.csv",
           "details/results", "details/ntrue", "details/ntrue_raw",
           "details/per-category-score.txt", "scoring", "metrics.txt", "f4de")


class StdStage(Stage):
    name = "std"
    outputs = OUTPUTS
    updates = ("scores/scores.json",)

    def load(self, opts: StdOptions) -> SimpleNamespace:
        for path in (opts.kws_dir, opts.detections):
            if not os.path.exists(path):
                raise InputError("not found", path)
        if opts.compat == "kaldi":
            # --preset stays unset (None): compute-atwv's own costs (termeval.std.kaldi.report)
            compat_module("kaldi").check(opts)     # score.sh's options and categories checked
            return SimpleNamespace(args=opts, kaldi=True, prep=None)
        # --preset unset: sws2013 (its name is the benchmark and enters the data identity)
        a = opts.replace(preset=opts.scored_preset)
        ctx = SimpleNamespace(args=a, kaldi=False, prep=None)
        ctx.kinds = breakdown.parse_kinds(a.breakdown, a.lexicon is not None)
        ctx.bins = breakdown.parse_bins(a.freq_bins)
        ctx.lexicon = breakdown.read_lexicon(a.lexicon) if a.lexicon else None
        if "phones" in ctx.kinds:   # pronunciations needed: a Kaldi lexicon.txt, strictly read
            ctx.lexicon = read_lexicon(a.lexicon)
        # checked with the options (core.options.number_list)
        ctx.fa_per_hour = split_number_list(a.fa_per_hour)
        ctx.recalls = split_number_list(a.recall)
        ctx.p_at = tuple(split_number_list(a.p_at, integer=True))
        kws = load_kws_dir(a.kws_dir, a.ecf, a.rttm, a.termlist, a.find_threshold,
                           term_normalization=a.term_normalization)
        breakdown.check_attributes(ctx.kinds, kws.terms.attrs, kws.terms.path or None)
        dets = read_detections(a.detections, a.format, kws.frame_length, kws.utt_map, kws.segments)
        ctx.kws, ctx.conditions = kws, conditions_of(a, kws)
        ctx.prep = prepare(kws, dets, params_of(a))
        return ctx

    def identity(self, ctx: SimpleNamespace) -> dict:
        if ctx.kaldi:
            return {"compat": "kaldi"}
        prep = ctx.prep
        return {"n_terms": prep.n_terms, "n_scored_detections": int(len(prep.di)),
                "n_scored_references": int(len(prep.ri)), "align": prep.params.align,
                "tolerance": prep.params.tolerance}

    def costs(self, ctx: SimpleNamespace) -> np.ndarray:
        if ctx.kaldi:
            return np.zeros(1)
        prep = ctx.prep
        q = prep.n_terms
        return (np.bincount(prep.dterm[prep.di], minlength=q)
                + np.bincount(prep.kws.occ.term[prep.ri], minlength=q)).astype(np.float64)

    def compute(self, ctx: SimpleNamespace, lo: int, hi: int) -> Shard:
        if ctx.kaldi:     # nothing per unit: see merge
            return Shard()
        ali = align_terms(ctx.prep, lo, hi)
        return Shard({"stats": ali.stats}, {"det": ali.det, "ref": ali.ref})

    def merge(self, ctx: SimpleNamespace, shards: list[Shard]) -> Any:
        """The StdResult of all terms (the kaldi RecipeRun with --compat kaldi); the solver
        counts are summed (`*_max_size`: the maximum), as one process finds them.

        --compat kaldi is computed here, whole: compute-atwv's float32 running means follow the
        whole keyword list in the order of first events, and score.sh's KST normalisation and
        ntrue sweep need every keyword's detections at once, so there is no per-keyword share
        to compute in jobs (its one unit's shard is empty)."""
        if ctx.kaldi:
            return compat_module("kaldi").compute(ctx.args)    # compute-atwv, with score.sh's KST/nbest/sweep
        stats: dict = {}
        for s in shards:
            for k, v in s.meta["stats"].items():
                stats[k] = max(stats.get(k, 0), v) if k.endswith("_max_size") else stats.get(k, 0) + v
        ali = Alignment(np.concatenate([s.arrays["det"] for s in shards]).astype(np.int64),
                        np.concatenate([s.arrays["ref"] for s in shards]).astype(np.int64), stats)
        res = finish(ctx.prep, ali)
        if ctx.conditions:     # F4DE -q / -Y: each condition scored as its own run
            res.conditions = score_conditions(ctx.kws, ctx.prep.dets, ctx.prep.params, ctx.conditions)
        report.rankings_and_breakdowns(ctx, res)
        return res                       # its warnings: the Report's, printed once by the driver

    def report(self, ctx: SimpleNamespace, merged: Any, out: str) -> Report:
        if ctx.kaldi:
            result, text, warnings = report.write_kaldi(out, merged, ctx.args)
            return Report(result, text, tuple(warnings))
        result, text = report.write(out, ctx, merged)
        return Report(result, text, tuple(merged.warnings))

    def view(self, ctx: SimpleNamespace, merged: Any, report_: Report) -> View:
        """report.html's tables, plots and timeline (termeval/std/view.py), --textgrids' tiers."""
        from termeval.std import view    # the report's modules: only with --report/--textgrids
        a = ctx.args
        if ctx.kaldi:
            return compat_module("kaldi").view(a, merged)
        return View(f"Term detection: {a.preset}", view.TABLES, view.PLOTS,
                    lambda limit: view.recordings(ctx.kws, ctx.prep.dets, merged, limit), settings=a,
                    notes=view.NOTES)


def conditions_of(a: StdOptions, kws) -> list[Condition]:
    """F4DE's conditional sets: one per attribute value (--term-attr-mode per-value, -q) and
    the named source-type set of --source-type NAME:TYPES (-Y)."""
    conds = term_conditions(kws.terms, a.term_attr) if a.term_attr and a.term_attr_mode == "per-value" else []
    st = source_type_condition(a.source_type) if a.source_type else None
    return conds + ([st] if st else [])


def params_of(a: StdOptions) -> Params:
    """The scorer's parameters of the options (F4DE-like mode; a.preset resolved). With
    per-value conditions or a named source-type set the main run scores every term and excerpt
    (as F4DE's -o next to its -O)."""
    pooled_attr = a.term_attr if a.term_attr and a.term_attr_mode == "pooled" else None
    types = a.source_type if a.source_type and ":" not in a.source_type else None
    return Params(preset=a.preset, p_target=a.p_target, c_miss=a.c_miss, c_fa=a.c_fa,
                  trials_per_sec=a.trials_per_sec, include_notarget_terms=a.include_notarget_terms,
                  align=a.align, tolerance=a.tolerance, compat_f4de=a.compat == "f4de",
                  cmin=a.cmin, default_score=a.default_score,
                  decision_threshold=a.decision_threshold,
                  term_attr=parse_term_attr(pooled_attr) if pooled_attr else None,
                  source_types=types.split(",") if types else None,
                  alignment=a.alignment, term_normalization=a.term_normalization,
                  just_system_terms=a.just_system_terms,
                  file_channels=[r for r in a.file_channels.split(",") if r] or None)


def stage_of(opts: Any) -> Stage:
    """The stage of the step's options (termeval/steps: Step.stage)."""
    return StdStage()
