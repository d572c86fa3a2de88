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


def bounds(words: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Start and end offset of each word (characters)."""
    n = np.fromiter(map(len, words), np.int64, len(words))
    e = np.cumsum(n)
    return e - n, e


def utterance_counts(seg_words: list[str], gold_words: list[str]) -> list[int]:
    """The 9 counts of one utterance: its sets of spans, of their boundaries and of their inner
    starts, as sorted distinct integer arrays (span [a, b): the code a * (length + 1) + b)."""
    (ss, se), (gs, ge) = bounds(seg_words), bounds(gold_words)
    width = int(max(se[-1] if len(se) else 0, ge[-1] if len(ge) else 0)) + 1
    ts, gsp = distinct(ss * width + se), distinct(gs * width + ge)
    tb, gb = distinct(np.concatenate((ss, se))), distinct(np.concatenate((gs, ge)))
    tn, gn = distinct(ss[ss > 0]), distinct(gs[gs > 0])
    return [_common(ts, gsp), len(ts), len(gsp), _common(tb, gb), len(tb), len(gb),
            _common(tn, gn), len(tn), len(gn)]


def distinct(a: np.ndarray) -> np.ndarray:
    """Sorted distinct values (np.unique's result; np.unique would also import numpy.ma, 7 ms)."""
    a = np.sort(a)
    return a[np.concatenate(([True], a[1:] != a[:-1]))] if len(a) else a


def _common(a: np.ndarray, b: np.ndarray) -> int:
    """Values in both sorted distinct arrays."""
    return int(len(np.intersect1d(a, b, assume_unique=True)))


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
