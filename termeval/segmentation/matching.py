"""Maximum one-to-one matching of predicted items to reference items within a tolerance.

Both boundary and token matching reduce to the same problem: predicted item i may be paired
with any reference item whose index lies in a contiguous range [lo[i], hi[i]] (reference
boundaries are sorted points; reference tokens are disjoint intervals, so their starts and
ends are both sorted). For such "convex" bipartite graphs Glover's rule is optimal: walk the
reference items in order and give each to the waiting predicted item whose range ends first.

When ranges are monotone (a segmentation: sorted, non-overlapping segments) this count equals
the one of vqwordseg's greedy "each prediction takes the first unused reference item within the
tolerance", so the default and the compat mode share this code (see docs/segmentation.md).

Items whose range overlaps no other item's range (nearly all of them at 20 ms) are matched in
one numpy pass; only chains of overlapping ranges go through the Python loop.
"""
from __future__ import annotations

import heapq

import numpy as np

# Keys put every utterance on its own stretch of the integer line: key = utt * UTT_STRIDE + pos,
# with pos in integer units (microseconds or frames) below 2**40, so no tolerance can cross
# from one utterance into the next.
UTT_STRIDE = np.int64(1) << np.int64(40)


def keys(utt: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """Sortable int64 key of (utterance, integer position)."""
    return utt.astype(np.int64) * UTT_STRIDE + pos.astype(np.int64)


def unique_sorted(a: np.ndarray) -> np.ndarray:
    """Sorted distinct values (np.unique hashes int64 arrays, several times slower here)."""
    k = np.sort(a)
    return k[np.concatenate(([True], k[1:] != k[:-1]))] if len(k) else k


def point_ranges(ref_keys: np.ndarray, pred_keys: np.ndarray, tol: int) -> tuple[np.ndarray, np.ndarray]:
    """Range of sorted reference points within `tol` of each predicted point."""
    lo = np.searchsorted(ref_keys, pred_keys - tol, side="left")
    hi = np.searchsorted(ref_keys, pred_keys + tol, side="right") - 1
    return lo, hi


def interval_ranges(ref_start: np.ndarray, ref_end: np.ndarray, pred_start: np.ndarray,
                    pred_end: np.ndarray, tol: int) -> tuple[np.ndarray, np.ndarray]:
    """Range of reference intervals (sorted, disjoint) whose start and end both lie within
    `tol` of a predicted interval's start and end."""
    lo1, hi1 = point_ranges(ref_start, pred_start, tol)
    lo2, hi2 = point_ranges(ref_end, pred_end, tol)
    return np.maximum(lo1, lo2), np.minimum(hi1, hi2)


def max_matching(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Boolean mask of the predicted items matched by a maximum matching (empty range: lo > hi)."""
    matched = np.zeros(len(lo), dtype=bool)
    cand = np.flatnonzero(lo <= hi)
    if not len(cand):
        return matched
    low = lo[cand]
    if not bool((low[1:] >= low[:-1]).all()):      # sorted points give sorted ranges already
        cand = cand[np.argsort(low, kind="stable")]
        low = lo[cand]
    order, high = cand, hi[cand]
    reach = np.maximum.accumulate(high)
    first = np.ones(len(order), dtype=bool)
    first[1:] = low[1:] > reach[:-1]          # a new chain starts past every earlier range
    chain = np.cumsum(first) - 1
    size = np.bincount(chain)
    size_of = size[chain]
    matched[order[size_of == 1]] = True
    # Two overlapping ranges: both matched unless they are the same single item (Hall).
    pair = np.flatnonzero(first & (size_of == 2))
    both = np.maximum(high[pair], high[pair + 1]) > low[pair]
    matched[order[pair]] = True
    matched[order[pair[both] + 1]] = True
    starts = np.flatnonzero(first & (size_of > 2))
    for s in starts.tolist():
        e = s + int(size[chain[s]])
        _glover(order[s:e], low[s:e].tolist(), high[s:e].tolist(), matched)
    return matched


def _glover(items: np.ndarray, low: list[int], high: list[int], matched: np.ndarray) -> None:
    """Maximum matching of one chain (items sorted by range start)."""
    heap: list[tuple[int, int]] = []
    k, m = 0, len(low)
    j = low[0]
    while k < m or heap:
        if not heap and j < low[k]:
            j = low[k]
        while k < m and low[k] <= j:
            heapq.heappush(heap, (high[k], k))
            k += 1
        while heap and heap[0][0] < j:
            heapq.heappop(heap)
        if heap:
            matched[items[heapq.heappop(heap)[1]]] = True
        j += 1
