"""--compat rasanen: the search-region scorer of Räsänen et al. (2009, sec. 2.3) as CoML
discophon 0.2.0 implements it (`discophon/evaluate/segmentation.py`: `Boundaries`,
`Boundaries.tolerance`, `compare_boundaries`).

Per utterance, in integer milliseconds relative to the utterance start (t -> rint(1000 t) -
rint(1000 start)):
  * boundaries are the internal label changes of the tier: the distinct onsets and offsets of
    the intervals strictly inside the utterance (0 < b < length; discophon's cumulative run
    lengths without the last one), except where an interval ends exactly where one with the
    same label starts (discophon groups equal consecutive tokens: no boundary between them);
    predictions without labels never merge;
  * each gold boundary b gets the window [max(b - tol, 0), b + tol]; the windows of two
    neighbours m = (b_i + b_i+1) // 2 (integer floor) are split: the earlier ends at m, the
    later starts at m + 1, so the windows are disjoint;
  * TP = gold boundaries whose window holds at least one predicted boundary; FP = #pred - TP;
    FN = #gold - TP. P = TP / (TP + FP), R = TP / (TP + FN), F = 2TP / (2TP + FP + FN),
    OS = (TP + FP) / (TP + FN) - 1, R-value (summed over utterances; every utterance counts).
A gold window with several predictions is one hit and the rest are false positives; a
prediction between two windows is a false positive. No token score. discophon raises
NoBoundariesError where a denominator is 0: the value is written as undefined.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from termeval.segmentation.inputs import NO_LABEL, Intervals, Utterances
from termeval.segmentation.matching import keys, unique_sorted
from termeval.segmentation.scorers.common import per_utt

GAP = -2      # the label of time no interval covers (NO_LABEL is -1)


def ms(t: np.ndarray) -> np.ndarray:
    return np.rint(np.asarray(t, dtype=np.float64) * 1000).astype(np.int64)


def internal_boundaries(iv: Intervals, utts: Utterances) -> np.ndarray:
    """Sorted distinct keys (termeval.segmentation.matching.keys) of the internal boundaries in
    ms: onsets and offsets strictly inside the utterance where the label before (of the interval
    ending there, or a gap) differs from the label after (of the interval starting there)."""
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
    return pts[(pos > 0) & (pos < length[u]) & (before != after)]


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
    g, q = internal_boundaries(ref, utts), internal_boundaries(pred, utts)
    lo, hi = windows(g, int(ms(p.tolerance)))
    found = np.searchsorted(q, hi, side="right") > np.searchsorted(q, lo, side="left")
    return {"boundary": per_utt(n, g >> 40, q >> 40, (g >> 40)[found]), "token": None,
            "scored": np.ones(n, dtype=bool)}


def definitions(p: Any) -> dict:
    return {
        "scorer": "rasanen",
        "reproduces": "CoML discophon 0.2.0 discophon/evaluate/segmentation.py compare_boundaries",
        "reference_boundaries": "internal label changes of the gold tier, integer ms from the utterance start",
        "predicted_boundaries": "internal label changes of the segmentation, integer ms",
        "matching": "window [b - tol, b + tol] around each gold boundary, split at the floor of the "
                    "midpoint between neighbours (earlier window ends at m, later starts at m + 1); "
                    "TP = windows holding a prediction",
        "tolerance": float(p.tolerance),
        "tolerance_ms": int(ms(p.tolerance)),
        "formulas": "P = TP/(TP+FP), R = TP/(TP+FN), F = 2TP/(2TP+FP+FN), OS = (TP+FP)/(TP+FN) - 1, "
                    "R-value (Räsänen 2009); FP = #pred - TP, FN = #gold - TP",
        "utterances": "every utterance",
    }
