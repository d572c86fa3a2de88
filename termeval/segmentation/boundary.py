"""Boundary counts per utterance: reference boundaries, predicted boundaries, hits.

Default mode works on times in integer microseconds (`micro`): comparing float seconds loses
hits that lie exactly at the tolerance (2.00 - 1.98 = 0.020000000000000018 > 0.02), while every
time written with up to 6 decimals is exact in microseconds. The boundaries of a set of
intervals are their distinct onsets and offsets; a boundary within the tolerance of the
utterance's start or end is not counted (the utterance edges are given, not discovered; the
vqwordseg script likewise never counts the start and drops the final boundary).
"""
from __future__ import annotations

import numpy as np

from termeval.segmentation.matching import UTT_STRIDE, keys, max_matching, point_ranges, unique_sorted


def micro(t: np.ndarray) -> np.ndarray:
    """Seconds -> integer microseconds (round to nearest)."""
    return np.rint(np.asarray(t, dtype=np.float64) * 1e6).astype(np.int64)


def interval_points(utt: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Sorted distinct keys of the onsets and offsets of intervals."""
    return unique_sorted(np.concatenate((keys(utt, start), keys(utt, end))))


def drop_edges(points: np.ndarray, utt_start: np.ndarray, utt_end: np.ndarray, tol: int) -> np.ndarray:
    """Keys of points farther than `tol` from both edges of their utterance; utt_start and
    utt_end are the edges' keys, indexed by utterance."""
    return points[edge_distance(points, utt_start, utt_end) > tol]


def edge_distance(points: np.ndarray, utt_start: np.ndarray, utt_end: np.ndarray) -> np.ndarray:
    """Distance of each point to the nearer edge of its utterance (drop_edges keeps the points
    farther than the tolerance: computed once, it serves every tolerance of a sweep)."""
    u = utt_of(points)
    return np.minimum(points - utt_start[u], utt_end[u] - points)


def utt_of(points: np.ndarray) -> np.ndarray:
    return (points // UTT_STRIDE).astype(np.int64)


def boundary_counts(ref: np.ndarray, pred: np.ndarray, tol: int, n_utt: int) -> np.ndarray:
    """Per utterance [n_ref, n_pred, hits] (shape n_utt x 3) of two sorted key arrays."""
    lo, hi = point_ranges(ref, pred, tol)
    hit = max_matching(lo, hi)
    pu = utt_of(pred)
    return np.stack((np.bincount(utt_of(ref), minlength=n_utt),
                     np.bincount(pu, minlength=n_utt),
                     np.bincount(pu[hit], minlength=n_utt)), axis=1).astype(np.int64)




SWEEP_WINDOW = 16   # reference points within the largest tolerance of a predicted one, at most


def sweep_counts(ref: np.ndarray, ref_edge: np.ndarray, pred: np.ndarray, pred_edge: np.ndarray,
                 tols: list[int], n_utt: int) -> dict[int, np.ndarray]:
    """{tol: boundary_counts(ref[ref_edge > tol], pred[pred_edge > tol], tol, n_utt)} for every
    tolerance of `tols` (sorted key arrays, edge distances by edge_distance), with two searches
    in all: the reference points within the largest tolerance of each predicted point (a few)
    are searched once, and each tolerance counts those within it. Ranks among the kept points:
    ck[j] = kept points before index j; a dropped predicted point gets an empty range."""
    if not tols:
        return {}
    top = max(tols)
    lo0 = np.searchsorted(ref, pred - top, side="left")
    hi0 = np.searchsorted(ref, pred + top, side="right")        # one past the window
    width = int((hi0 - lo0).max()) if len(pred) else 0
    far = np.iinfo(np.int32).max  # past the window: within no tolerance (window distances <= top)
    if width > SWEEP_WINDOW or top >= far:    # dense points: one plain search per tolerance
        return {t: boundary_counts(ref[ref_edge > t], pred[pred_edge > t], t, n_utt) for t in tols}
    last = max(len(ref) - 1, 0)
    dist = [np.where(lo0 + k < hi0, ref[np.minimum(lo0 + k, last)] - pred, far).astype(np.int32)
            for k in range(width)]
    ru, pu = utt_of(ref), utt_of(pred)
    n_ref, n_pred = np.bincount(ru, minlength=n_utt), np.bincount(pu, minlength=n_utt)
    out = {}
    for t in tols:
        below, upto = np.zeros(len(pred), dtype=np.int8), np.zeros(len(pred), dtype=np.int8)
        for d in dist:
            below += d < -t
            upto += d <= t
        gone_r, gone_p = np.flatnonzero(ref_edge <= t), np.flatnonzero(pred_edge <= t)   # a few
        ck = np.arange(len(ref) + 1)
        ck[1:] -= np.cumsum(ref_edge <= t)
        lo = ck[lo0 + below]
        hi = ck[lo0 + upto] - 1
        hi[gone_p] = lo[gone_p] - 1       # a dropped point has no range: never matched
        hit = max_matching(lo, hi)
        out[t] = np.stack((n_ref - np.bincount(ru[gone_r], minlength=n_utt),
                           n_pred - np.bincount(pu[gone_p], minlength=n_utt),
                           np.bincount(pu[hit], minlength=n_utt)), axis=1).astype(np.int64)
    return out
