"""--compat rasanen: the search-region scorer of Räsänen et al. (2009, sec. 2.3) as CoML
discophon 0.2.0 implements it (`discophon/evaluate/segmentation.py`: `Boundaries`,
`Boundaries.from_tokens`, `Boundaries.tolerance`, `compare_boundaries`,
`SegmentationEvaluation`).

discophon sees each side as a sequence of tokens (gold phones every 10 ms, units every 20 ms)
and puts a boundary wherever the token changes: the cumulative lengths of the runs of equal
tokens, without the last one. Here, per utterance, in integer milliseconds relative to the
utterance start (t -> rint(1000 t) - rint(1000 start)):
  * boundaries are the label changes of the tier: the distinct onsets and offsets of the
    intervals after the utterance start (0 < b), except where an interval ends exactly where
    one with the same label starts (equal consecutive tokens are one run: no boundary between
    them) and, for the gold, at or after the utterance end (b < length: its tier tiles the
    utterance, its last run's end is not a boundary). A gap is a label of its own (the gold's
    silence: the scorers see the gold without SIL intervals, scorers.common.speech_only, and a
    SIL token between two phones is two changes as a gap is). A prediction's last end is not a
    boundary (the end of the last run of units, however long the units run), but its label
    changes past the gold's end are (units longer than the audio: discophon counts them too;
    the segmentation is read with its ends kept, as --compat vqwordseg does). Segments without
    labels never merge: each is a run of its own, so a one-cluster labelling has no boundary
    at all while the same segments unlabelled have one between each two;
  * each gold boundary b gets the window [max(b - tol, 0), b + tol]; the windows of two
    neighbours m = (b_i + b_i+1) // 2 (integer floor) are split: the earlier ends at m, the
    later starts at m + 1, so the windows are disjoint;
  * TP = gold boundaries whose window holds at least one predicted boundary; FP = #pred - TP;
    FN = #gold - TP, summed over utterances (every utterance counts). From the counts, as
    discophon's `SegmentationEvaluation` (`values`): P = TP / (TP + FP), R = TP / (TP + FN),
    F = 2TP / (2TP + FP + FN), OS = (TP + FP) / (TP + FN) - 1, R-value = 1 - (r1 + r2) / 2
    with r1 = sqrt((1 - R)^2 + OS^2), r2 = |R - OS - 1| / sqrt(2). A value whose denominator
    is 0 (discophon's NoBoundariesError) is undefined: P without a predicted boundary, R, OS
    and R-value without a gold boundary, F without either; so no predicted boundary at all
    gives P undefined, R 0, F 0, OS -1 and R-value 1 - sqrt(2)/2 = 0.2929.
A gold window with several predictions is one hit and the rest are false positives; a
prediction between two windows is a false positive. No token score.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from termeval.segmentation.inputs import NO_LABEL, Intervals, Utterances
from termeval.segmentation.matching import keys, unique_sorted
from termeval.segmentation.scorers.common import per_utt

GAP = -2      # the label of time no interval covers (NO_LABEL is -1)


def ms(t: np.ndarray) -> np.ndarray:
    return np.rint(np.asarray(t, dtype=np.float64) * 1000).astype(np.int64)


def internal_boundaries(iv: Intervals, utts: Utterances, gold: bool = True) -> np.ndarray:
    """Sorted distinct keys (termeval.segmentation.matching.keys) of the boundaries in ms (module
    doc): onsets and offsets after the utterance start where the label before (of the interval
    ending there, or a gap) differs from the label after (of the interval starting there); the
    gold's below the utterance length, the prediction's but its last end."""
    base = ms(utts.start)
    length = ms(utts.end) - base
    k_on, k_off = keys(iv.utt, ms(iv.onset) - base[iv.utt]), keys(iv.utt, ms(iv.offset) - base[iv.utt])
    lab = iv.label if len(iv) and (iv.label != NO_LABEL).all() else np.arange(len(iv))
    pts = unique_sorted(np.concatenate((k_on, k_off)))
    before = np.full(len(pts), GAP, dtype=np.int64)
    after = np.full(len(pts), GAP, dtype=np.int64)
    before[np.searchsorted(pts, k_off)] = lab
    after[np.searchsorted(pts, k_on)] = lab
    u = pts >> 40
    pos = pts - keys(u, np.zeros(len(u), dtype=np.int64))
    keep = (pos > 0) & (before != after)
    if gold:
        keep &= pos < length[u]
    elif len(pts):
        last = np.ones(len(pts), dtype=bool)       # each utterance's last point: the end of its last run
        last[:-1] = u[1:] != u[:-1]
        keep &= ~last
    return pts[keep]


def windows(gold: np.ndarray, tol: int) -> tuple[np.ndarray, np.ndarray]:
    """Keys of the lower and upper ends of each gold boundary's window (discophon's split)."""
    u = gold >> 40
    lo = np.maximum(gold - tol, keys(u, np.zeros(len(u), dtype=np.int64)))
    hi = gold + tol
    same = u[1:] == u[:-1]
    mid = (gold[:-1] + gold[1:]) // 2     # same utterance: the stride cancels, floor as in ms
    hi[:-1] = np.where(same, np.minimum(hi[:-1], mid), hi[:-1])
    lo[1:] = np.where(same, np.maximum(lo[1:], mid + 1), lo[1:])
    return lo, hi


def score(ref: Intervals, pred: Intervals, utts: Utterances, p: Any, tokens: bool = False) -> dict:
    n = len(utts)
    g, q = internal_boundaries(ref, utts), internal_boundaries(pred, utts, gold=False)
    lo, hi = windows(g, int(ms(p.tolerance)))
    found = np.searchsorted(q, hi, side="right") > np.searchsorted(q, lo, side="left")
    return {"boundary": per_utt(n, g >> 40, q >> 40, (g >> 40)[found]), "token": None,
            "scored": np.ones(n, dtype=bool)}


def values(c: np.ndarray) -> dict[str, float | None]:
    """discophon's SegmentationEvaluation of summed counts [n_gold, n_pred, TP] (module doc)."""
    n_gold, n_pred, tp = (int(x) for x in c[:3])
    fp, fn = n_pred - tp, n_gold - tp
    p = tp / (tp + fp) if tp + fp else None
    r = tp / (tp + fn) if tp + fn else None
    f = 2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn else None
    if r is None:
        return {"precision": p, "recall": None, "fscore": f, "os": None, "rvalue": None}
    os_ = (tp + fp) / (tp + fn) - 1
    r1 = math.sqrt((1 - r) ** 2 + os_ ** 2)
    r2 = abs(-os_ + r - 1) / math.sqrt(2)
    return {"precision": p, "recall": r, "fscore": f, "os": os_, "rvalue": 1 - (r1 + r2) / 2}


def definitions(p: Any) -> dict:
    return {
        "scorer": "rasanen",
        "reproduces": "CoML discophon 0.2.0 discophon/evaluate/segmentation.py compare_boundaries",
        "reference_boundaries": "label changes of the gold tier (silence a gap) strictly inside the "
                                "utterance, integer ms from the utterance start",
        "predicted_boundaries": "label changes of the segmentation after the utterance start, its last "
                                "end excluded (unlabelled segments never merge), integer ms",
        "matching": "window [b - tol, b + tol] around each gold boundary, split at the floor of the "
                    "midpoint between neighbours (earlier window ends at m, later starts at m + 1); "
                    "TP = windows holding a prediction",
        "tolerance": float(p.tolerance),
        "tolerance_ms": int(ms(p.tolerance)),
        "formulas": "P = TP/(TP+FP), R = TP/(TP+FN), F = 2TP/(2TP+FP+FN), OS = (TP+FP)/(TP+FN) - 1, "
                    "R-value = 1 - (sqrt((1-R)^2 + OS^2) + |R - OS - 1|/sqrt(2))/2; FP = #pred - TP, "
                    "FN = #gold - TP; undefined where a denominator is 0 (no predicted boundary: P "
                    "undefined, F 0, OS -1)",
        "utterances": "every utterance",
    }
