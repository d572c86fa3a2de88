"""The zrc2020 (tdev2) scoring run as a termeval.jobs Stage.

  load      the gold (goldcache: parsed once per process, <exp>/tde/gold.npz keyed on content),
            the classes (prepared into <exp>/classes unless already prepared from the same
            bytes and options: termeval.tde.prepare_classes)
  costs     per class: fragments + pairs/64 (n + n^2/64)
  compute   stats.compute_shard of a class range, as a jobs.Shard
  merge     stats.merge
  report    scores/{prepare,matching,clustering,parsing}, scores.json, details/, units/
            (zrc2020/report.py, zrc2020/units.py) into the fresh `out` dir
  summary   the score lines, `matching: ned ...`
"""
from __future__ import annotations

import json
import os
import sys
import time
import zipfile
from dataclasses import dataclass
from typing import Any

import numpy as np

from termeval import jobs, tde
from termeval.data import Classes, load_classes
from termeval.errors import InputError
from termeval.textio import atomic_write
from termeval.zrc2020 import goldcache
from termeval.zrc2020.stats import Corpus, class_costs, compute_shard, from_shard, merge, to_shard

_corpus_memo: dict[tuple[str, str], Corpus] = {}


@dataclass
class Context:
    args: Any
    corpus: Corpus
    gold_key: str
    classes: Classes
    classes_key: str
    prepare_counts: dict


def corpus_of(data_dir: str, cache: str | None) -> tuple[Corpus, str]:
    """The Corpus of a data dir, built once per process and content (the API scores many
    systems against one gold)."""
    gold, key, parsed = goldcache.load(data_dir, cache)
    if parsed and cache:
        goldcache.save(gold, cache, key)
    memo_key = (os.path.realpath(data_dir), key)
    corpus = _corpus_memo.get(memo_key)
    if corpus is None:
        corpus = Corpus.from_gold(gold)
        while len(_corpus_memo) >= goldcache.MEMO_SIZE:
            _corpus_memo.pop(next(iter(_corpus_memo)))
        _corpus_memo[memo_key] = corpus
    return corpus, key


CLASS_ARRAYS = ("cls", "file", "onset", "offset", "starts")


def classes_of(class_dir: str, corpus: Corpus, key: str, cache: str | None) -> Classes:
    """The prepared classes, from <exp>/tde/classes.npz when it was saved for the same
    preparation and gold (content keys), else parsed from the class dir (and saved)."""
    if cache and os.path.isfile(cache):
        try:
            with np.load(cache, allow_pickle=False) as z:
                if str(z["key"]) == key:
                    return Classes(keys=z["keys"].tolist(), names=z["names"].tolist(),
                                   frag_ids=z["frag_ids"].tolist(), **{k: z["a_" + k] for k in CLASS_ARRAYS})
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
            pass                       # rebuilt below, never trusted
    classes = load_classes(class_dir, corpus.gold)
    if cache:
        with atomic_write(cache, "wb") as f:
            np.savez(f, key=np.array(key), keys=np.array(classes.keys, dtype=str),
                     names=np.array(classes.names, dtype=str), frag_ids=np.array(classes.frag_ids, dtype=str),
                     **{"a_" + k: getattr(classes, k) for k in CLASS_ARRAYS})
    return classes


def read_counts(class_dir: str) -> dict:
    with open(os.path.join(class_dir, "counts"), encoding="utf-8") as f:
        return {k: int(v) for k, v in (line.split() for line in f if line.strip())}


def _is_job(args: Any) -> bool:
    return getattr(args, "job", None) is not None or getattr(args, "merge", None) is not None


class Zrc2020Stage:
    name = "tde_stats"
    outputs = jobs.DEFAULT_OUTPUTS

    def __init__(self, benchmark: str = "zrc2020"):
        self.benchmark = benchmark

    def prepare(self, args: Any) -> str:
        """Prepare <exp>/classes if needed (what a step runs once before launching jobs)."""
        return tde.prepare_classes(args, os.path.join(args.exp_dir, "classes"))[0]

    def load(self, args: Any) -> Context:
        exp = args.exp_dir
        corpus, gold_key = corpus_of(args.data_dir, os.path.join(exp, "tde", "gold.npz") if exp else None)
        if exp is None:
            with tde.temp_class_dir() as tmp:
                stamp, _ = tde.prepare_classes(args, tmp, log=False)
                return Context(args, corpus, gold_key, load_classes(tmp, corpus.gold), stamp, read_counts(tmp))
        class_dir = os.path.join(exp, "classes")
        if _is_job(args):   # jobs of one run never prepare (they would race): the step did it
            stamp = tde.prepare_stamp(args)
            if not tde.prepared(class_dir, stamp):
                raise InputError("not prepared from this class file and these options "
                                 "(run python -m termeval.bin.score_tde --prepare-only first)", class_dir)
        else:
            stamp = self.prepare(args)
        classes = classes_of(class_dir, corpus, f"{stamp} {gold_key}", os.path.join(exp, "tde", "classes.npz"))
        return Context(args, corpus, gold_key, classes, stamp, read_counts(class_dir))

    def identity(self, ctx: Context) -> dict:
        return {"benchmark": self.benchmark, "gold": ctx.gold_key, "classes": ctx.classes_key,
                "nclasses": len(ctx.classes.keys)}

    def costs(self, ctx: Context) -> np.ndarray:
        return class_costs(ctx.classes)

    def compute(self, ctx: Context, lo: int, hi: int) -> jobs.Shard:
        t = time.time()
        st = compute_shard(ctx.corpus, ctx.classes, lo, hi, workers=getattr(ctx.args, "workers", 1))
        print(f"{os.path.basename(sys.argv[0])}: classes {lo}..{hi - 1}: {st.counts['fragments']} fragments "
              f"({st.counts['fragments_kept']} kept), {st.ned.pairs} NED pairs, {time.time() - t:.2f} s",
              file=sys.stderr)
        return to_shard(st)

    def merge(self, ctx: Context, shards: list[jobs.Shard]) -> tuple:
        stats = [from_shard(s) for s in shards]
        parts: dict = {}
        metrics, counts = merge(ctx.corpus, stats, parts)
        return metrics, counts, stats, parts

    def report(self, ctx: Context, merged: tuple, out: str) -> dict:
        from termeval.bootstrap.units import data_identity
        from termeval.classes import COUNT_NAMES
        from termeval.scores import Metric, write_scores
        from termeval.zrc2020.report import final_scores, gold_warnings, write_report
        from termeval.zrc2020.units import save_and_bootstrap
        a = ctx.args
        metrics, counts, stats, parts = merged
        write_scores(out, "prepare", [Metric(k, ctx.prepare_counts[k]) for k in COUNT_NAMES], benchmark=None)
        ci = save_and_bootstrap(out, ctx.corpus, stats, parts, final_scores(metrics), a.bootstrap,
                                a.seed, a.ci, a.bootstrap_unit)
        ref = [os.path.join(a.data_dir, f) for f in ("phones", "words", "reco2dur", "utt2spk")]
        more = {"data_id": data_identity([f for f in ref if os.path.isfile(f)], {"benchmark": self.benchmark}),
                "bootstrap": {"n": a.bootstrap, "seed": a.seed, "level": a.ci, "unit": a.bootstrap_unit,
                              "class_metrics_unit": "class"},
                "warnings": gold_warnings(ctx.corpus.phones, a.data_dir)}
        for w in more["warnings"]:
            print(f"score_tde.py: warning: {w}", file=sys.stderr)
        write_report(out, metrics, counts, stats, self.benchmark, ci, more)
        with open(os.path.join(out, "scores", "scores.json"), encoding="utf-8") as f:
            return json.load(f)

    def summary(self, result: dict) -> str:
        from termeval.zrc2020.report import summary_lines
        return summary_lines(result)
