"""The protocol.Stage of `--benchmark zr2015-doc` and `--benchmark lrec2014`.

Units are folds: with `--folds none` one unit (the corpus); `equal:N` N parts; for lrec2014
`random:BxFRAC` unit 0 is the whole corpus (every key but matching/grouping) and units 1..B
the batches (matching/grouping only, §2.10). A shard holds the values and counts of its
folds, each computed from that fold's own counts; the merge puts them in unit order, so
--nj changes no value. `opts` is the step's TdeOptions (termeval/tde/options.py); the mode's
rules are its record's (termeval/tde/benchmarks.py SeedRules).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from termeval.classes.prepare import prepare_into, prepared, temp_class_dir
from termeval.core import stage as protocol
from termeval.core.datadir import Classes, Gold, load_classes, load_gold
from termeval.core.errors import InputError
from termeval.core.stage import Report, Stage, View
from termeval.tde.benchmarks import seed_rules
from termeval.tde.foldspec import FoldSpec, parse_folds
from termeval.tde.shared import class_preparation
from termeval.tde.seeddoc.common import Corpus, Strings, build_corpus
from termeval.tde.seeddoc.folds import make_folds
from termeval.tde.seeddoc.foldscore import score_fold
from termeval.tde.seeddoc.ngrams import Levels
from termeval.tde.seeddoc.report import report_scores, summary_lines


@dataclass
class SeedContext:
    mode: str
    corpus: Corpus
    spec: FoldSpec
    folds: list[np.ndarray]           # file sets
    units: list[tuple[int, bool, bool]]   # (fold index or -1 = whole corpus, pairs, others)
    data_dir: str
    class_dir: str
    prepare_counts: dict
    gold: Gold | None = None          # what report.html's timeline shows (termeval/tde/view.py)
    classes: Classes | None = None
    _strings: Strings | None = None
    _levels: Levels | None = None

    @property
    def strings(self) -> Strings:
        if self._strings is None:
            self._strings = Strings(self.corpus.ph_lab)
        return self._strings

    @property
    def levels(self) -> Levels:
        if self._levels is None:
            self._levels = Levels(self.corpus.ph_lab, seed_rules(self.mode).lmax)
        return self._levels


class SeedStage(Stage):
    """Stage of one seed mode ("zr2015-doc" or "lrec2014")."""
    outputs = ("scores",)
    prepares = ("classes",)     # the class preparation, replaced whole: no input may lie in it

    def __init__(self, mode: str) -> None:
        seed_rules(mode)               # a seed-document benchmark (ValueError otherwise)
        self.mode = mode
        self.name = mode               # its logs and shards (termeval/tde/benchmarks.py)

    def prepare(self, opts: Any) -> None:
        """Prepare <exp>/classes if needed (what a step runs once before launching jobs)."""
        prepare_into(class_preparation(opts), os.path.join(opts.exp_dir, "classes"))

    def load(self, opts: Any) -> SeedContext:
        spec = parse_folds(opts.folds, self.mode)
        if opts.bootstrap:
            raise InputError(f"--bootstrap: not available with --benchmark {self.mode}")
        gold = load_gold(opts.data_dir)
        if opts.exp_dir is None:                     # the Python API without an exp dir
            class_dir = None
            with temp_class_dir() as tmp:
                prepare_into(class_preparation(opts), tmp, log=False)
                classes = load_classes(tmp, gold)
                prep = _read_counts(tmp)
        else:
            class_dir = os.path.join(opts.exp_dir, "classes")
            if protocol.is_share():
                # jobs of one run never prepare (they would race): the step did it
                if not prepared(class_dir, class_preparation(opts).stamp()):
                    raise InputError("not prepared from this class file and these options "
                                     "(run the step with --prepare-only first)", class_dir)
            else:
                self.prepare(opts)
            classes = load_classes(class_dir, gold)
            prep = _read_counts(class_dir)
        corpus = build_corpus(gold, classes, self.mode)
        nph = np.bincount(corpus.ph_file, minlength=corpus.nfiles)
        dur = np.bincount(corpus.ph_file, weights=corpus.ph_off - corpus.ph_on, minlength=corpus.nfiles)
        folds = make_folds(spec, nph, np.rint(dur).astype(np.int64))
        if spec.kind == "random":
            units = [(-1, False, True)] + [(i, True, False) for i in range(len(folds))]
        else:
            units = [(i, True, True) for i in range(len(folds))]
        return SeedContext(self.mode, corpus, spec, folds, units, opts.data_dir, class_dir or "", prep, gold, classes)

    def identity(self, ctx: SeedContext) -> dict:
        c = ctx.corpus
        return {"mode": self.mode, "folds": str(ctx.spec), "files": c.nfiles, "phones": len(c.ph_on),
                "fragments": len(c.f_on), "memberships": len(c.m_frag)}

    def costs(self, ctx: SeedContext) -> np.ndarray:
        c = ctx.corpus
        per_file = np.bincount(c.f_file, minlength=c.nfiles) + np.bincount(c.ph_file, minlength=c.nfiles)
        return np.asarray([float(per_file.sum() if f < 0 else per_file[ctx.folds[f]].sum())
                           for f, _, _ in ctx.units], np.float64)

    def compute(self, ctx: SeedContext, lo: int, hi: int) -> protocol.Shard:
        res = []
        for u in range(lo, hi):
            f, pairs, others = ctx.units[u]
            c = ctx.corpus
            if f >= 0 and ctx.spec.kind != "none":
                mask = np.zeros(c.nfiles, bool)
                mask[ctx.folds[f]] = True
                c = c.restrict(mask)
            values, counts = score_fold(c, ctx.strings, ctx.levels, self.mode, pairs, others)
            res.append({"unit": u, "values": values, "counts": counts})
        return protocol.Shard({"units": res})

    def merge(self, ctx: SeedContext, shards: list[protocol.Shard]) -> list[dict]:
        units = [u for s in shards for u in s.meta["units"]]
        if [u["unit"] for u in units] != list(range(len(ctx.units))):
            raise InputError("job outputs do not cover every fold once; re-run the step")
        return units

    def report(self, ctx: SeedContext, merged: list[dict], out: str) -> Report:
        result, warnings = report_scores(ctx, merged, out)
        return Report(result, summary_lines(result), tuple(warnings))

    def view(self, ctx: SeedContext, merged: list[dict], report: Report) -> View:
        """report.html's timeline of the gold and the fragments (termeval/tde/view.py; no boundary
        tiers), --textgrids' tiers."""
        from termeval.tde import view    # the report's modules: only with --report/--textgrids
        g, c = ctx.gold, ctx.classes
        frags = view.Fragments(c.file, c.onset, c.offset, c.cls, c.names)
        return View(f"Term discovery: {self.mode} (seed documents)",
                    timeline=lambda limit: view.recordings(g.files, g.duration, g.phones, g.words, frags, None, limit),
                    notes=("Timeline: the gold phones and words and the discovered fragments (the class file as "
                           "prepared) coloured by class; no boundary tiers.",))


def _read_counts(class_dir: str) -> dict:
    """<classes>/counts (`<name> <int>` lines), for scores/prepare; {} when absent."""
    try:
        with open(os.path.join(class_dir, "counts"), encoding="utf-8") as f:
            return {k: int(v) for k, v in (line.split() for line in f if line.strip())}
    except OSError:
        return {}
