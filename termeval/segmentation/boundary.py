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


