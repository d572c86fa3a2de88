"""The zr2015 / zr2017 (bootphon/tde) scoring run as a termeval.run.driver Stage.

  prepare   (--prepare-only, run once by the step before jobs) the parsed and annotated inputs
            saved to <exp>/tde/zr2015/ (zr2015/store.py, content-keyed)
  load      one process: evaluate.prepare: gold, segments, the class file (its own reader: the
            original tool's quirks), annotation, gold n-gram classes, folds. A job or the merge:
            the saved preparation's metadata and the folds only (zr2015/plan.py, store.py)
  costs     one process: per fold (cross folds, then within folds), n + n^2/64 of its n
            discovered fragments. Jobs: per unit (cross folds split into measure groups)
  compute   evaluate.score_fold of the units lo..hi-1, with the per-unit bootstrap statistics;
            a job memory-maps the saved arrays and builds only what its units need
  merge     the folds of every shard, in fold order (every fold exactly once; a split fold is
            the union of its groups)
  report    zr2015/report.py: scores/{matching,clustering,parsing,tde15_input}, scores.json,
            details/tde15/, units/units.tde15_file.npz (zr2015/units.py) into `out`; the
            Report's summary is the cross_/within_ score lines

`args` is the step's TdeOptions (termeval/tde/options.py).
"""
from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from termeval.bootstrap.units import data_identity, units_path
from termeval.core import stage as protocol
from termeval.core.progress import progress
from termeval.core.errors import InputError
from termeval.core.stage import Report, Stage, View
from termeval.tde.shared import coverage_warnings
from termeval.tde.zr2015 import evaluate
from termeval.tde.zr2015.folds import FoldSet, fold_prefix_files, per_speaker, read_foldset, resolve_auto, whole_corpus
from termeval.tde.zr2015.plan import (band_of, batches, group_measures, needs, ordered, share_units, union_packed,
                                      unit_costs)
from termeval.tde.zr2015.report import add_fscores, sil_warnings, summarise, summary_lines, write_report
from termeval.tde.zr2015.store import ensure, job_prepared, release
from termeval.tde.zr2015.units import COLUMNS, bootstrap_ci, build, full_values, pack, save_table

SETS = ("cross", "within")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def resolve_folds(folds: str, data_dir: str) -> str:
    """The fold prefix or 'none' (auto: termeval.tde.zr2015.folds.resolve_auto)."""
    return resolve_auto(data_dir)[0] if folds == "auto" else folds


@dataclass
class Context:
    args: Any
    prepared: Any                  # evaluate.Prepared (None in a job or the merge)
    measures: tuple
    units: list                    # (fold set, index in it[, group]) of every unit, cross folds first
    info: dict                     # labels, nsamples, nfolds, counts, nclusters, npairs, unit_ids
    folds: str                     # resolved --folds
    store: Any = None              # a job or the merge: store.Store
    foldsets: Any = None


def check_lenient(counts: dict, args: Any) -> None:
    if not args.lenient:
        cf = counts["classfile"]
        problems = [f"{v} {k.replace('_', ' ')}" for k, v in cf.items() if v and k != "extra_columns"]
        if problems:
            raise InputError(f"{'; '.join(problems)} (the original tool silently accepted these; "
                             "use --lenient true to score as it did, with counts)", args.class_file)


def run_info(foldsets: dict, counts: dict, nclusters: int, npairs: int, files: list, speakers: list,
             nclasses: int) -> dict:
    """What the report needs of the whole run (labels, nsamples, nfolds, counts, nclusters,
    npairs, unit_ids), as plain JSON values (as every shard holds them)."""
    info = {"labels": {s: foldsets[s].labels for s in SETS},
            "nsamples": {s: int(sum(f.nlines for f in foldsets[s].folds)) for s in SETS},
            "nfolds": {s: len(foldsets[s].folds) for s in SETS},
            "counts": counts, "nclusters": nclusters, "npairs": npairs,
            "unit_ids": {"files": files, "speakers": speakers, "nclasses": nclasses}}
    return json.loads(json.dumps(info))


VIEW_TABLES = (("Per file (cross-speaker)", "details/per_file.tsv"), ("Per speaker (cross-speaker)", "details/per_speaker.tsv"),
               ("Per file (within-speaker)", "details/per_file_within.tsv"),
               ("Per speaker (within-speaker)", "details/per_speaker_within.tsv"))


class Zr2015Stage(Stage):
    outputs = protocol.DEFAULT_OUTPUTS
    prepares = ("classes", "tde")   # the class preparation and saved arrays: no input may lie in them

    def __init__(self, benchmark: str = "zr2015"):
        self.benchmark = benchmark
        self.name = benchmark          # zr2015 or zr2017: its logs and shards (termeval/tde/benchmarks.py)

    def measures_of(self, args: Any) -> tuple:
        measures = evaluate.ALL_MEASURES if args.measures == "all" else tuple(args.measures.split(","))
        bad = set(measures) - set(evaluate.ALL_MEASURES)
        if bad:
            raise InputError(f"--measures: unknown measure(s) {sorted(bad)}; "
                             f"choose from {','.join(evaluate.ALL_MEASURES)}")
        if not os.path.exists(args.class_file):
            raise InputError("no such class file", args.class_file)
        return measures

    def prepare(self, args: Any) -> None:
        """What the step runs once before launching jobs: the parsed and annotated inputs saved
        to <exp>/tde/zr2015/ (unless saved from the same inputs), so that no job parses text
        and each loads only what its units need."""
        self.store(args)

    def store(self, args: Any) -> Any:
        """The saved preparation of the inputs (zr2015/store.py Store), made now if needed."""
        self.measures_of(args)
        store = ensure(args.data_dir, args.class_file, resolve_folds(args.folds, args.data_dir),
                       self.benchmark, args.exp_dir, log=log)
        check_lenient(store.meta["counts"], args)
        return store

    def load(self, args: Any) -> Context:
        measures = self.measures_of(args)
        folds = resolve_folds(args.folds, args.data_dir)
        if protocol.is_share() and args.exp_dir:
            return self.load_share(args, measures, folds)
        p = evaluate.prepare(args.data_dir, args.class_file, folds, self.benchmark, log=log)
        check_lenient(p.counts, args)
        sizes = np.bincount(p.disc.occ_cls, minlength=p.disc.nclasses)
        info = run_info(p.foldsets, p.counts, int(np.count_nonzero(sizes)), int((sizes * (sizes - 1) // 2).sum()),
                        p.gold.files, p.gold.speaker, int(p.disc.nclasses))
        units = [(s, i) for s in SETS for i in range(len(p.foldsets[s].folds))]
        return Context(args, p, measures, units, info, folds)

    def load_share(self, args: Any, measures: tuple, folds: str) -> Context:
        """A job or the merge: the saved preparation (made now if the step did not), its
        metadata and the folds; no array is read here."""
        store = self.store(args)
        meta = store.meta
        foldsets = foldsets_of(folds, store.gold())
        info = run_info(foldsets, meta["counts"], meta["nclusters"], meta["npairs"], meta["files"],
                        meta["speakers"], meta["nclasses"])
        return Context(args, None, measures, share_units(info["nfolds"], measures), info, folds, store, foldsets)

    def identity(self, ctx: Context) -> dict:
        a = ctx.args
        fragments = ctx.store.meta["fragments"] if ctx.store is not None else int(len(ctx.prepared.disc))
        return {"benchmark": self.benchmark, "folds": ctx.folds, "measures": list(ctx.measures),
                "nfolds": ctx.info["nfolds"], "fragments": fragments, "units": len(ctx.units),
                "nclasses": ctx.info["unit_ids"]["nclasses"], "lenient": bool(a.lenient)}

    def costs(self, ctx: Context) -> np.ndarray:
        # fragments in each fold's files, from the per-file counts (not one pass over all
        # fragments per fold: 691 folds x 3.6 M fragments at x10)
        if ctx.store is not None:
            per_file = np.asarray(ctx.store.array("disc.per_file"), dtype=np.int64)
            foldsets = ctx.foldsets
        else:
            file = np.asarray(ctx.prepared.disc.file, dtype=np.int64)
            per_file = np.bincount(file, minlength=int(file.max(initial=-1)) + 1)
            foldsets = ctx.prepared.foldsets
        keys = list(dict.fromkeys(u[:2] for u in ctx.units))
        n = {(s, i): float(per_file[f[(f >= 0) & (f < len(per_file))]].sum())
             for s, i, f in ((s, i, np.unique(np.asarray(foldsets[s].folds[i].file, dtype=np.int64)))
                             for s, i in keys)}
        if ctx.store is not None:
            return unit_costs(ctx.units, n)
        n = np.array([n[u] for u in ctx.units], np.float64)
        return n + n * n / 64.0

    def compute(self, ctx: Context, lo: int, hi: int) -> protocol.Shard:
        t0 = time.time()
        folds: dict = {s: {} for s in SETS}
        units: dict = {s: {} for s in SETS}
        groups: dict = {s: {} for s in SETS}         # a job's parts of split folds
        todo = [u if len(u) == 3 else (*u, None) for u in ctx.units[lo:hi]]
        bar = progress(None, total=len(todo), desc="folds", unit="fold")
        # a job loads what each cross unit needs and lets it go before the next (the within
        # folds, small, share one load): its peak is its largest unit's, not their union
        for batch in ([todo] if ctx.prepared is not None else batches(todo)):
            p = ctx.prepared
            if p is None:
                t = time.time()
                p = job_prepared(ctx.store, ctx.foldsets, needs(batch, ctx.measures), log=log)
                log(f"loaded in {time.time() - t:.2f} s")
            for s, i, g in batch:
                t = time.time()
                u: dict = {}
                res = evaluate.score_fold(p, p.foldsets[s].folds[i], group_measures(g, ctx.measures), units=u,
                                 band=band_of(g))
                if g is None:
                    folds[s][str(i)] = add_fscores(res)
                    units[s][str(i)] = pack(u)
                else:
                    groups[s].setdefault(str(i), {})[g] = {"res": res, "units": pack(u)}
                log(f"{s} fold {i}{'' if g is None else ' ' + g}: {time.time() - t:.2f} s")
                bar.update(1)
            if ctx.prepared is None:
                del p
                release()
        bar.close()
        log(f"folds {lo}..{hi - 1}: {time.time() - t0:.2f} s")
        # through JSON as a saved shard is: one process and --nj N see the same values
        return protocol.Shard(json.loads(json.dumps({"folds": folds, "units": units, "groups": groups})))

    def merge(self, ctx: Context, shards: list[protocol.Shard]) -> dict:
        folds, packed = {}, {}
        parts: dict = {}             # folds split into measure groups: the union of the groups
        for sh in shards:
            for s, byfold in sh.meta.pop("groups", {}).items():
                for i, gs in byfold.items():
                    for g, x in gs.items():
                        if g in parts.setdefault((s, i), {}):
                            raise InputError(f"{s} fold {i}: group {g} in two job outputs")
                        parts[(s, i)][g] = x
        for (s, i), gs in parts.items():
            want = [u[2] for u in ctx.units if len(u) == 3 and u[0] == s and str(u[1]) == i]
            if sorted(gs) != sorted(want):
                raise InputError(f"{s} fold {i}: job outputs hold groups {sorted(gs)}, expected {sorted(want)}")
            shards[0].meta["folds"][s][i] = add_fscores(ordered([gs[g]["res"] for g in want]))
            shards[0].meta["units"][s][i] = union_packed([gs[g]["units"] for g in want])
        for s in SETS:
            got = {int(i): v for sh in shards for i, v in sh.meta["folds"][s].items()}
            n = ctx.info["nfolds"][s]
            if sorted(got) != list(range(n)):
                raise InputError(f"{s}: job outputs hold folds {sorted(got)}, expected 0..{n - 1}")
            folds[s] = [got[i] for i in range(n)]
            packed[s] = {int(i): v for sh in shards for i, v in sh.meta["units"][s].items()}
        return {"folds": folds, "units": packed}

    def report(self, ctx: Context, merged: dict, out: str) -> Report:
        a, info, folds = ctx.args, ctx.info, merged["folds"]
        values: dict = {}
        for s in SETS:
            values.update(summarise(folds[s], s))
        # the class table (classes x folds x columns, dense: 0.6 GB at 21 k classes x 690 folds)
        # only serves the bootstrap
        tables = self.fold_tables(ctx, merged["units"], classes=a.bootstrap > 0)
        ci = bootstrap_ci(tables, values, a.bootstrap, a.seed, a.ci) if a.bootstrap > 0 else {}
        # the file/speaker table is paired across systems scored on the same data (compare_systems)
        ftab = tables[-1]
        ftab.exact = {k: values.get(k) for k in full_values(ftab)}
        save_table(units_path(out, "tde15_file"), ftab)
        warnings = [resolve_auto(a.data_dir)[1]] if a.folds == "auto" and ctx.folds == "none" else []
        warnings += sil_warnings(os.path.join(a.data_dir, "phones"), self.benchmark)
        warnings += coverage_warnings(values)          # overlapping fragments counted twice (TDE17)
        data_id = data_identity(self.data_files(ctx), {"benchmark": self.benchmark, "folds": ctx.folds == "none",
                                                       "measures": a.measures})
        extra = {"folds": folds, "fold_labels": info["labels"], "counts": info["counts"], "data_id": data_id,
                 "folds_used": ctx.folds, "warnings": warnings}
        if a.bootstrap > 0:
            extra["bootstrap"] = {"n": a.bootstrap, "seed": a.seed, "level": a.ci,
                                  "unit": a.bootstrap_unit, "class_metrics_unit": "class"}
        scores: dict = {}
        write_report(out, self.benchmark, folds, values, info, ci, extra, units=merged["units"], into=scores)
        c = info["counts"]["disc"]
        log(f"{self.benchmark}: {c['fragments_kept']}/{c['fragments_in']} fragments kept "
            f"({c['dropped_unknown_file']} unknown file, {c.get('dropped_outside_split', 0)} outside "
            f"the split, {c['dropped_no_segment']} in no segment; "
            f"{c.get('truncated_to_split', 0)} truncated to the split)")
        return Report(scores, summary_lines(scores), tuple(warnings))

    def view(self, ctx: Context, merged: dict, report: Report) -> View:
        """report.html's tables, plots and the timeline of gold, fragments and the boundaries of the
        2015/2017 measure (termeval/tde/view.py), --textgrids' tiers."""
        from termeval.tde import view    # the report's modules: only with --report/--textgrids
        from termeval.tde.zr2015 import view as zr15_view    # the timeline's boundary points: same
        p = ctx.prepared
        if p is not None:
            files, duration, phones, words, disc = p.gold.files, p.gold.duration, p.phones, p.words, p.disc
        else:                 # a merge: the saved preparation, memory-mapped
            st = ctx.store
            files, duration = st.gold().files, None
            phones, words, disc = st.segmented("phones"), st.segmented("words"), st.fragments("disc", [])
        n = len(files)
        frags = view.occurrences(disc)
        words = view.segmented_tier(words, n)
        return View(f"Term discovery: {self.benchmark}", VIEW_TABLES, view.PLOTS,
                    lambda limit: view.recordings(files, duration, view.segmented_tier(phones, n), words, frags,
                                                  zr15_view.boundary_points(words), limit),
                    notes=("Timeline: the gold phones and words (as the 2015/2017 tools read them), the discovered "
                           "fragments coloured by class, and the boundaries of the 2015/2017 measure over each whole "
                           "recording: a word edge is hit when a fragment edge lies closer than 30 ms, missed "
                           "otherwise; a fragment edge with no word edge closer than 30 ms is spurious (the scores "
                           "average these over the folds).",))

    def fold_tables(self, ctx: Context, packed_units: dict, classes: bool = True) -> list:
        """The unit tables of the fold means (zr2015/units.py): discovered classes (NED,
        grouping; left out with classes=False) and files or speakers (the rest); matching has none."""
        ui, nf = ctx.info["unit_ids"], ctx.info["nfolds"]
        packed = {t: {s: [packed_units[s].get(i, {}).get(t) for i in range(nf[s])] for s in SETS}
                  for t in COLUMNS}
        nc = ui["nclasses"]
        tables = [build("class", "class", [str(c) for c in range(nc)], np.arange(nc), packed["class"],
                        self.benchmark, keep_empty=False)] if classes else []
        if ctx.args.bootstrap_unit == "speaker":
            ids, owner = np.unique(np.asarray(ui["speakers"], dtype=str), return_inverse=True)
            tables.append(build("file", "speaker", ids.tolist(), owner.ravel(), packed["file"], self.benchmark))
        else:
            tables.append(build("file", "file", ui["files"], np.arange(len(ui["files"])), packed["file"],
                                self.benchmark))
        return tables

    def data_files(self, ctx: Context) -> list[str]:
        """The files the scores depend on besides the submission (for data_id)."""
        a = ctx.args
        files = [os.path.join(a.data_dir, f) for f in ("phones", "words", "utt2spk", "reco2dur")]
        if ctx.folds != "none":
            files += [f"{ctx.folds}.{s}" for s in ("split", "intervals.cross", "intervals.within", "classes")]
        return [f for f in files if os.path.isfile(f)]


def foldsets_of(folds: str, gold: Any) -> dict:
    """The cross and within fold sets (as evaluate.prepare reads them)."""
    if folds == "none":
        return {"cross": FoldSet("cross", [whole_corpus(len(gold.files))], ["all"]),
                "within": per_speaker(gold.speaker)}
    files = fold_prefix_files(folds)
    return {"cross": read_foldset(files["intervals.cross"], "cross", gold.file_index),
            "within": read_foldset(files["intervals.within"], "within", gold.file_index)}
