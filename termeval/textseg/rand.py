"""Adjusted Rand index between the gold words and the segmented words as clusters of units
(wordseg-eval -r: every unit labelled with the word token it belongs to, scikit-learn's
adjusted_rand_score(gold, segmented)).

Words never cross utterances, so the pair counts are sums over utterances: per utterance the
unit count n, sum of squared overlaps between a gold and a segmented word, and the sums of
squared gold and segmented word lengths (in units). The index is scikit-learn's pair-confusion
formula on the summed integers (exact Python integers, as scikit-learn >= 1.x computes it).
"""
from __future__ import annotations

import numpy as np

from termeval.textseg.positions import distinct

COLUMNS = ("units", "overlap_sq", "gold_sq", "segmented_sq")


def word_lengths(words: list[str], units: list[str]) -> list[int] | None:
    """Length in units of each word (the words spell the units); None if a word ends inside a unit."""
    out, k = [], 0
    for w in words:
        acc, n = "", 0
        while len(acc) < len(w) and k < len(units):
            acc += units[k]
            k += 1
            n += 1
        if acc != w:
            return None
        out.append(n)
    return out


def unit_counts(words: list[str], units: list[str]) -> np.ndarray:
    """word_lengths of words that end at unit edges and spell the units (what the stage checks
    when it loads), from the cumulated lengths."""
    edges = np.cumsum(np.fromiter(map(len, units), np.int64, len(units)))
    ends = np.cumsum(np.fromiter(map(len, words), np.int64, len(words)))
    return np.diff(np.searchsorted(edges, ends) + 1, prepend=0)


def utterance_sums(gold_len: list[int], seg_len: list[int]) -> list[int]:
    """[n, sum overlap^2, sum gold^2, sum segmented^2] of one utterance (lengths in units)."""
    ge = np.cumsum(gold_len)
    se = np.cumsum(seg_len)
    edges = distinct(np.concatenate((ge, se)))  # overlaps are the pieces between all edges
    pieces = np.diff(np.r_[0, edges])
    g = np.asarray(gold_len, np.int64)
    s = np.asarray(seg_len, np.int64)
    return [int(ge[-1]) if len(ge) else 0, int((pieces ** 2).sum()), int((g ** 2).sum()), int((s ** 2).sum())]


def adjusted_rand_index(units: int, overlap_sq: int, gold_sq: int, segmented_sq: int) -> float:
    n, s = int(units), int(overlap_sq)
    tp = s - n
    fp = int(segmented_sq) - s        # pairs together in the segmentation, apart in the gold
    fn = int(gold_sq) - s
    tn = n * n - fp - fn - s
    if fn == 0 and fp == 0:
        return 1.0
    return 2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))
