"""The zrc2020 (tdev2) scoring run as a termeval.run.driver Stage.

  prepare   (--prepare-only, run once by the step before jobs) the classes prepared into
            <exp>/classes unless already prepared from the same bytes and options
            (termeval.classes.prepare.prepare_into), the gold saved to <exp>/tde/gold.npz, the class
            arrays to <exp>/tde/classes/ (classcache: content-keyed .npy files) with the
            transcription of every fragment (k0, k1, ncov) with the phone labels
            (classcache: what a job reads instead of the gold)
  load      one process: the gold (goldcache: parsed once per process, <exp>/tde/gold.npz keyed
            on content) and the classes (prepared if needed). A job: the class boundaries, the
            phone labels and file names (no phone time: Corpus.labels_only). The merge: the
            gold and the class boundaries (no class text is parsed, no class array read)
  costs     per class: fragments + pairs/64 (n + n^2/64), from the class boundaries
  compute   stats.compute_shard of a class range, as a protocol.Shard; a job reads the fragments of
            its classes and their transcription only (memory-mapped slices of <exp>/tde/classes/)
  merge     stats.merge (the shard statistics and the gold; no class array)
  report    scores/{prepare,matching,clustering,parsing}, scores.json, details/, units/
            (zrc2020/report.py, zrc2020/units.py) into the fresh `out` dir; the Report's
            summary is the score lines, `matching: ned ...`

`opts` is the step's TdeOptions (termeval/tde/options.py); termeval.core.stage.is_job() /
is_merge() tell a job or the merge from one process.
"""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from termeval.bootstrap.units import data_identity
from termeval.classes.parse import COUNT_NAMES
from termeval.classes.prepare import prepare_into, prepared, temp_class_dir
from termeval.core import stage as protocol
from termeval.core.datadir import Classes, load_classes
from termeval.core.errors import InputError
from termeval.core.scores import Metric, write_scores
from termeval.core.stage import Report, Stage, View
from termeval.tde.shared import class_preparation, coverage_warnings
from termeval.tde.zrc2020 import classcache, goldcache
from termeval.tde.zrc2020.report import final_scores, gold_warnings, summary_lines, write_report
from termeval.tde.zrc2020.units import all_tables, save_and_bootstrap
from termeval.tde.zrc2020.stats import Corpus, class_costs, compute_shard, from_shard, merge, to_shard
from termeval.tde.zrc2020.transcribe import transcribe

_corpus_memo: dict[tuple[str, str], Corpus] = {}


@dataclass
class Context:
    args: Any
    corpus: Corpus
    gold_key: str
    classes: Classes | None        # None in a job or merge: read by range (classcache)
    classes_key: str
    prepare_counts: dict
    starts: np.ndarray             # class boundaries (costs, identity)
    class_cache: str | None = None
    transcribed: bool = False      # a job: the fragments' transcription is read from class_cache
    view_words: Any = None         # the gold words the report's timeline shows (a merge drops the words)


def corpus_of(data_dir: str, cache: str | None, words: bool = True) -> tuple[Corpus, str]:
    """The Corpus of a data dir, built once per process and content (the API scores many
    systems against one gold). words=False: the words tier may be empty (a job's)."""
    gold, key, parsed = goldcache.load(data_dir, cache, words)
    if parsed and cache:
        goldcache.save(gold, cache, key)
    memo_key = (os.path.realpath(data_dir), key, bool(words or len(gold.words)))
    corpus = _corpus_memo.get(memo_key)
    if corpus is None:
        corpus = Corpus.from_gold(gold)
        while len(_corpus_memo) >= goldcache.MEMO_SIZE:
            _corpus_memo.pop(next(iter(_corpus_memo)))
        _corpus_memo[memo_key] = corpus
    return corpus, key


def forget_corpus(corpus: Corpus) -> None:
    """Drop `corpus` and its gold from the process memos."""
    for k in [k for k, v in _corpus_memo.items() if v is corpus]:
        del _corpus_memo[k]
    goldcache.forget(corpus.gold)


def classes_of(class_dir: str, corpus: Corpus, key: str, cache: str | None) -> Classes:
    """The prepared classes, from the <exp>/tde/classes/ arrays when they were saved for the
    same preparation and gold (content keys), else parsed from the class dir (and saved)."""
    if cache and classcache.valid(cache, key):
        return classcache.load_all(cache)
    classes = load_classes(class_dir, corpus.gold)
    if cache:
        classcache.save(classes, cache, key)
    return classes


def read_counts(class_dir: str) -> dict:
    with open(os.path.join(class_dir, "counts"), encoding="utf-8") as f:
        return {k: int(v) for k, v in (line.split() for line in f if line.strip())}


class Zrc2020Stage(Stage):
    outputs = protocol.DEFAULT_OUTPUTS
    prepares = ("classes", "tde")   # the class preparation and saved arrays: no input may lie in them
    user_cache = True          # the parsed gold's store (goldcache): the driver checks its place first

    def __init__(self, benchmark: str = "zrc2020"):
        self.benchmark = benchmark
        self.name = benchmark          # its logs and shards (termeval/tde/benchmarks.py)

    def prepare(self, args: Any) -> None:
        """What a step runs once before launching jobs: prepare <exp>/classes if needed and
        save the gold and class arrays (<exp>/tde/) the jobs and the merge read, so that no
        job parses text and each reads only its classes."""
        kept: dict = {}
        stamp = prepare_into(class_preparation(args), os.path.join(args.exp_dir, "classes"), keep=kept)[0]
        corpus, gold_key = corpus_of(args.data_dir, os.path.join(args.exp_dir, "tde", "gold.npz"))
        key, cache = f"{stamp} {gold_key}", os.path.join(args.exp_dir, "tde", "classes")
        if not classcache.valid(cache, key, transcribed=True):
            classes = classcache.from_preparation(kept["prep"], corpus.gold) if "prep" in kept else None
            if classes is None:
                classes = (classcache.load_all(cache) if classcache.valid(cache, key)
                           else load_classes(os.path.join(args.exp_dir, "classes"), corpus.gold))
            # every fragment's transcription, as compute_shard would make it (elementwise)
            tr = transcribe(corpus.phones, classes.file.astype(np.int64), classes.onset, classes.offset)
            classcache.save(classes, cache, key, tr, corpus.phones, corpus.gold.files)

    def load(self, args: Any) -> Context:
        """One process: everything. A job or the merge: the gold and the class boundaries only
        (a job reads its classes in `compute`, the merge none)."""
        exp = args.exp_dir
        if exp is not None and protocol.is_job():
            ctx = self._load_job(args)
            if ctx is not None:
                return ctx
        corpus, gold_key = corpus_of(args.data_dir, os.path.join(exp, "tde", "gold.npz") if exp else None,
                                     words=not protocol.is_job())   # a job scores no word
        if exp is None:
            with temp_class_dir() as tmp:
                kept: dict = {}
                stamp, _ = prepare_into(class_preparation(args), tmp, log=False, keep=kept)
                # the parsed classes as reading the dir back would give them (not read back)
                fresh = classcache.from_preparation(kept["prep"], corpus.gold) if "prep" in kept else None
                classes = fresh if fresh is not None else load_classes(tmp, corpus.gold)
                return Context(args, corpus, gold_key, classes, stamp, read_counts(tmp), classes.starts)
        class_dir = os.path.join(exp, "classes")
        cache = os.path.join(exp, "tde", "classes")
        if protocol.is_share():   # jobs of one run never prepare (they would race): the step did it
            stamp = class_preparation(args).stamp()
            if not prepared(class_dir, stamp):
                raise InputError("not prepared from this class file and these options "
                                 "(run the step with --prepare-only first)", class_dir)
            key = f"{stamp} {gold_key}"
            if classcache.valid(cache, key):
                return Context(args, corpus, gold_key, None, stamp, read_counts(class_dir),
                               classcache.starts(cache), cache)
        else:
            kept: dict = {}
            stamp = prepare_into(class_preparation(args), class_dir, keep=kept)[0]
            # prepared now: the parsed classes as reading the dir back would give them
            fresh = classcache.from_preparation(kept["prep"], corpus.gold) if "prep" in kept else None
            if fresh is not None:
                classcache.save(fresh, cache, f"{stamp} {gold_key}")
                return Context(args, corpus, gold_key, fresh, stamp, read_counts(class_dir), fresh.starts)
        classes = classes_of(class_dir, corpus, f"{stamp} {gold_key}", cache)
        return Context(args, corpus, gold_key, classes, stamp, read_counts(class_dir), classes.starts)

    def _load_job(self, args: Any) -> Context | None:
        """A job of a step that ran --prepare-only: the class boundaries, the phone labels and
        the file names, nothing of the gold's times (None: nothing saved for these inputs)."""
        class_dir, cache = os.path.join(args.exp_dir, "classes"), os.path.join(args.exp_dir, "tde", "classes")
        stamp = class_preparation(args).stamp()
        gold_key = goldcache.stamp(args.data_dir)
        if not (prepared(class_dir, stamp) and classcache.valid(cache, f"{stamp} {gold_key}", transcribed=True)):
            return None
        label, labels, files = classcache.labels(cache)
        return Context(args, Corpus.labels_only(files, label, labels, args.data_dir), gold_key, None, stamp,
                       read_counts(class_dir), classcache.starts(cache), cache, transcribed=True)

    def identity(self, ctx: Context) -> dict:
        return {"benchmark": self.benchmark, "gold": ctx.gold_key, "classes": ctx.classes_key,
                "nclasses": len(ctx.starts) - 1}

    def costs(self, ctx: Context) -> np.ndarray:
        return class_costs(ctx.starts)

    def compute(self, ctx: Context, lo: int, hi: int) -> protocol.Shard:
        t = time.time()
        workers = ctx.args.workers
        if ctx.classes is None:     # a job: its classes alone, renumbered from 0
            tr = classcache.transcribed(ctx.class_cache, lo, hi) if ctx.transcribed else None
            st = compute_shard(ctx.corpus, classcache.load_range(ctx.class_cache, lo, hi), 0, hi - lo,
                               workers=workers, transcription=tr)
        else:
            st = compute_shard(ctx.corpus, ctx.classes, lo, hi, workers=workers)
        print(f"{os.path.basename(sys.argv[0])}: classes {lo}..{hi - 1}: {st.counts['fragments']} fragments "
              f"({st.counts['fragments_kept']} kept), {st.ned.pairs} NED pairs, {time.time() - t:.2f} s",
              file=sys.stderr)
        return to_shard(st)

    def merge(self, ctx: Context, shards: list[protocol.Shard]) -> tuple:
        stats = [from_shard(s) for s in shards]
        for s in shards:         # consumed: the arrays live on in `stats` alone (freed when merged)
            s.arrays = {}
        parts: dict = {}
        # a merge scores nothing else: it may drop gold arrays once used, after the process
        # memos forget them (`termeval score-tde --nj N` merges in process, and may score again)
        lean = protocol.is_merge()
        if ctx.args.report or ctx.args.textgrids:
            from termeval.tde.view import head_tier    # the report's modules: only with --report/--textgrids
            ctx.view_words = head_tier(ctx.corpus.gold.words,          # what `view` shows (lean drops them)
                                       None if ctx.args.textgrids else ctx.args.report_files)
        if lean:
            forget_corpus(ctx.corpus)
        metrics, counts = merge(ctx.corpus, stats, parts, release=True, lean=lean)
        # the unit tables now, then only they are kept: the arrays behind them are dropped
        # (what keeps the merge's peak low, issue 24)
        tables = all_tables(ctx.corpus, stats, parts)
        parts.clear()
        parts["tables"] = tables
        for s in stats:
            s.units = {}
        return metrics, counts, stats, parts

    def report(self, ctx: Context, merged: tuple, out: str) -> Report:
        a = ctx.args
        metrics, counts, stats, parts = merged
        scores: dict = {}
        write_scores(out, "prepare", [Metric(k, ctx.prepare_counts[k]) for k in COUNT_NAMES], benchmark=None,
                     into=scores)
        ci = save_and_bootstrap(out, ctx.corpus, stats, parts, final_scores(metrics), a.bootstrap,
                                a.seed, a.ci, a.bootstrap_unit)
        ref = [os.path.join(a.data_dir, f) for f in ("phones", "words", "reco2dur", "utt2spk")]
        more = {"data_id": data_identity([f for f in ref if os.path.isfile(f)], {"benchmark": self.benchmark}),
                "bootstrap": {"n": a.bootstrap, "seed": a.seed, "level": a.ci, "unit": a.bootstrap_unit,
                              "class_metrics_unit": "class"},
                "warnings": gold_warnings(ctx.corpus.phones, a.data_dir)}
        more["warnings"] += coverage_warnings(final_scores(metrics))     # coverage > 1 (never for tdev2's)
        warnings = tuple(more["warnings"])
        write_report(out, metrics, counts, stats, self.benchmark, ci, more, tables=(ctx.corpus, parts), into=scores)
        return Report(scores, summary_lines(scores), warnings)

    def view(self, ctx: Context, merged: tuple, report: Report) -> View:
        """report.html's tables, plots and timeline (termeval/tde/view.py), --textgrids' tiers."""
        from termeval.tde import view    # the report's modules: only with --report/--textgrids
        from termeval.tde.zrc2020 import view as zrc_view    # the timeline's boundary points: same
        if ctx.classes is not None:
            c = ctx.classes
            frags = view.Fragments(c.file, c.onset, c.offset, c.cls, c.names)
        else:                      # a merge: the prepared arrays, memory-mapped
            cls, file, onset, offset, names = classcache.columns(ctx.class_cache)
            frags = view.Fragments(file, onset, offset, cls, names)
        words = ctx.view_words if ctx.view_words is not None else ctx.corpus.gold.words
        gold = ctx.corpus.gold
        points = zrc_view.boundary_points(ctx.corpus.phones, words)
        return View(f"Term discovery: {self.benchmark}", view.TABLES, view.PLOTS,
                    lambda limit: view.recordings(gold.files, gold.duration, gold.phones, words, frags, points, limit),
                    notes=view.NOTES)
