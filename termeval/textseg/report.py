"""Text segmentation results: scores/wordseg_eval.txt (wordseg-eval's output, byte for byte),
scores/text_segmentation + scores.json (termeval's score files, names prefixed `text_`),
details/text_segmentation/{per_utterance.tsv, summary.tsv, summary.json}, and the --summary file."""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from termeval.core.numbers import fmt_value
from termeval.core.scores import Metric, write_scores
from termeval.core.textio import atomic_write
from termeval.textseg import positions, rand, summary
from termeval.textseg.lexicon import type_counts

STAGE = "text_segmentation"
OUTPUTS = ("scores", "details")     # what a run replaces under the exp dir (the stage's outputs)


def wordseg_lines(scores: list[tuple[str, float | None]]) -> str:
    """`name<TAB>value` lines as wordseg-eval prints them (%.4g, None when undefined)."""
    return "".join(f"{k}\t{'%.4g' % v if v is not None else 'None'}\n" for k, v in scores)


def evaluate(ctx: Any, merged: dict) -> tuple[list[tuple[str, float | None]], dict[str, tuple[int, int, int]]]:
    """wordseg-eval's scores in its order, and the (correct, segmented, gold) counts behind them."""
    c = merged["counts"].sum(axis=0)
    counts = {"token": tuple(int(x) for x in c[0:3]),
              "type": type_counts(merged["seg_lexicon"], merged["gold_lexicon"], ctx.compat),
              "boundary_all": tuple(int(x) for x in c[3:6]),
              "boundary_noedge": tuple(int(x) for x in c[6:9])}
    scores: list[tuple[str, float | None]] = []
    for what in ("token", "type", "boundary_all", "boundary_noedge"):
        p, r, f = positions.prf(*counts[what])
        scores += [(f"{what}_precision", p), (f"{what}_recall", r), (f"{what}_fscore", f)]
    if ctx.has_prepared:
        s = merged["rand"].sum(axis=0)
        scores.append(("adjusted_rand_index", rand.adjusted_rand_index(*(int(x) for x in s))))
    return scores, counts


def write_report(ctx: Any, merged: dict, out: str, summary_path: str | None = None) -> dict:
    """Every file into `out` (laid out as an exp dir), the summary JSON also at `summary_path`
    (--summary); the scores.json mapping with wordseg-eval's text under "wordseg_eval"."""
    scores, counts = evaluate(ctx, merged)
    text = wordseg_lines(scores)
    with atomic_write(os.path.join(out, "scores", "wordseg_eval.txt")) as f:
        f.write(text)
    metrics = []
    for name, value in scores:
        what = name.rsplit("_", 1)[0]
        support = ""
        if what in counts and name.endswith(("precision", "recall")):
            cor, seg, gold = counts[what]
            support = f"{cor}/{seg if name.endswith('precision') else gold}"
        metrics.append(Metric("text_" + name, value, support))
    a = ctx.args
    settings = {"compat": ctx.compat, "word_sep": a.word_sep, "unit_sep": a.unit_sep,
                "prepared": a.prepared, "gold": a.gold, "segmented": a.segmented,
                "positions": "characters of the words without separators (= units when known)"}
    extra = {"text_segmentation": {"settings": settings, "utterances": len(ctx.gold.words),
                                   "counts": {k: dict(zip(("correct", "segmented", "gold"), v))
                                              for k, v in counts.items()}}}
    result: dict = {}
    write_scores(out, STAGE, metrics, "text_segmentation", extra, into=result)
    details = os.path.join(out, "details", STAGE)
    _per_utterance(os.path.join(details, "per_utterance.tsv"), ctx, merged["counts"])
    summ = merged["summary"]
    if ctx.summary_wanted:
        with atomic_write(os.path.join(details, "summary.json")) as f:
            f.write(summary.to_json(summ))
        with atomic_write(os.path.join(details, "summary.tsv")) as f:
            f.write("word\ttotal\tcorrect\tover\tunder\tmis\n")
            for row in summary.table_rows(summ):
                f.write("\t".join(str(x) for x in row) + "\n")
    if summary_path:
        with atomic_write(summary_path) as f:
            f.write(summary.to_json(summ))
    result["wordseg_eval"] = text
    return result


def _per_utterance(path: str, ctx: Any, counts: np.ndarray) -> None:
    """One row per utterance (gold line number) with the counts and token/boundary F, TOTAL last."""
    with atomic_write(path) as f:
        f.write("line\t" + "\t".join(positions.COLUMNS) + "\ttoken_fscore\tboundary_noedge_fscore\n")
        rows = [(str(ln), c) for ln, c in zip(ctx.gold.lines, counts)] + [("TOTAL", counts.sum(axis=0))]
        for key, c in rows:
            tf = positions.prf(*(int(x) for x in c[0:3]))[2]
            bf = positions.prf(*(int(x) for x in c[6:9]))[2]
            f.write(key + "\t" + "\t".join(str(int(x)) for x in c) + f"\t{_fmt(tf)}\t{_fmt(bf)}\n")


def _fmt(x: float | None) -> str:
    return fmt_value(x)
