"""Token and boundary counts of one utterance, from word positions (wordseg-eval's
TokenEvaluation, BoundaryEvaluation, BoundaryNoEdgeEvaluation).

A word is the span [start, end) of its characters in the utterance without separators.
  token:            the spans; a segmented word is correct when the gold has the same span
  boundary_all:     every start and end of a word (the utterance's first and last edge included)
  boundary_noedge:  every start > 0 (the inner boundaries only)
Counts per utterance: (correct, segmented, gold); the scores are ratios of their sums.
"""
from __future__ import annotations

import numpy as np

# the 9 columns of the per-utterance count array
COLUMNS = ("token_correct", "token_segmented", "token_gold",
           "boundary_all_correct", "boundary_all_segmented", "boundary_all_gold",
           "boundary_noedge_correct", "boundary_noedge_segmented", "boundary_noedge_gold")


def spans(words: list[str]) -> set[tuple[int, int]]:
    out, pos = set(), 0
    for w in words:
        out.add((pos, pos + len(w)))
        pos += len(w)
    return out


def utterance_counts(seg_words: list[str], gold_words: list[str]) -> list[int]:
    ts, gs = spans(seg_words), spans(gold_words)
    tb = {p for s in ts for p in s}
    gb = {p for s in gs for p in s}
    tn = {a for a, _ in ts if a > 0}
    gn = {a for a, _ in gs if a > 0}
    return [len(ts & gs), len(ts), len(gs), len(tb & gb), len(tb), len(gb), len(tn & gn), len(tn), len(gn)]


def counts(seg: list[list[str]], gold: list[list[str]]) -> np.ndarray:
    """(utterances x 9) int64 counts, columns COLUMNS."""
    out = np.zeros((len(seg), len(COLUMNS)), dtype=np.int64)
    for i, (s, g) in enumerate(zip(seg, gold)):
        out[i] = utterance_counts(s, g)
    return out


def ratio(num: int, den: int) -> float | None:
    """wordseg-eval's precision/recall: None when nothing is counted."""
    return float(num) / den if den != 0 else None


def prf(correct: int, segmented: int, gold: int) -> tuple[float | None, float | None, float | None]:
    """Precision, recall and F as wordseg-eval computes them (F = 2c / (segmented + gold))."""
    total = segmented + gold
    return ratio(correct, segmented), ratio(correct, gold), (float(2 * correct) / total if total else None)
