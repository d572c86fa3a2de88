"""Integer-array building blocks of the pair counting (spec §4.0); PW itself is never built
(termeval.tde.zr2015.foldpairs counts it).

* `combinations_in_groups`: the pairs of small runs (used on exception lists and on histogram
  rows, never on a whole class of fragments);
* `overlapping_pairs`: all pairs (i, j) of items of the same group whose time intervals have a
  positive raw overlap, ignoring files: the only candidates the file-blind OV test can remove.
  Found with a sweep over items sorted by (group, onset), never with an all-pairs product.
"""
from __future__ import annotations

import numpy as np

from termeval.core.distinct import distinct as uniq  # noqa: F401  (the zr2015 modules import it from here)
from termeval.tde.zr2015.corpus import raw_overlap

# Array entries (windows, pairs, rows, codes) a counting loop handles at a time: its temporaries
# stay a few arrays of CHUNK entries (8 MB each as int64) whatever the fold's size. A loop asks
# chunk(k) = k * CHUNK, k sized to its temporaries; the results never depend on it (integer
# counts, and sums in the same order), so the tests shrink it to a few entries.
CHUNK = 1 << 20


def chunk(k: int = 1) -> int:
    """k chunks' worth of entries (read at call time: CHUNK may be changed)."""
    return k * CHUNK


def combinations_in_groups(group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions (i, j), i < j, of every pair of elements of equal `group` (group must be
    non-decreasing); i.e. itertools.combinations inside each run."""
    n = len(group)
    if n < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    new = np.ones(n, dtype=bool)
    new[1:] = group[1:] != group[:-1]
    start = np.flatnonzero(new)
    size = np.diff(np.append(start, n))
    run_of = np.repeat(np.arange(len(start)), size)
    pos = np.arange(n) - start[run_of]
    after = size[run_of] - pos - 1                      # partners to the right
    total = int(after.sum())
    left = np.repeat(np.arange(n, dtype=np.int64), after)
    first = np.cumsum(after) - after
    right = left + 1 + (np.arange(total, dtype=np.int64) - np.repeat(first, after))
    return left, right


def r2_occurrences(occ_cls: np.ndarray, occ_in: np.ndarray, nclasses: int) -> np.ndarray:
    """Occurrences kept by R2: inside the fold, in a class with >= 2 such occurrences."""
    cnt = np.bincount(occ_cls[occ_in], minlength=nclasses)
    return occ_in & (cnt[occ_cls] >= 2)


def overlapping_pairs(group: np.ndarray, on: np.ndarray, off: np.ndarray):
    """Pairs (i, j) of item indices with group[i] == group[j], i != j, and a positive raw
    time overlap (files ignored). Each unordered pair once."""
    n = len(group)
    if n < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    order = np.lexsort((on, group))     # ties of onset in any order: the pair set is the same
    g, s, e = group[order], on[order], off[order]
    out_i, out_j = [], []
    active = np.arange(n - 1)
    d = 1
    while len(active):
        j = active + d
        ok = j < n
        active, j = active[ok], j[ok]
        ok = (g[j] == g[active]) & (s[j] <= e[active])   # later starts only get larger
        active, j = active[ok], j[ok]
        pos = raw_overlap(s[active], e[active], s[j], e[j]) > 0
        out_i.append(order[active[pos]])
        out_j.append(order[j[pos]])
        d += 1
    return np.concatenate(out_i), np.concatenate(out_j)


def concat_ranges(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """lo[0]..hi[0]-1, lo[1]..hi[1]-1, ... as one int64 array (empty ranges allowed)."""
    lo = np.asarray(lo, dtype=np.int64)
    n = np.maximum(np.asarray(hi, dtype=np.int64) - lo, 0)
    total = int(n.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    return np.repeat(lo - (np.cumsum(n) - n), n) + np.arange(total, dtype=np.int64)


def uniq_inverse(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """np.unique(x, return_inverse=True), by one argsort."""
    o = np.argsort(x)
    s = x[o]
    new = np.ones(len(s), dtype=bool)
    new[1:] = s[1:] != s[:-1]
    inv = np.empty(len(s), dtype=np.int64)
    inv[o] = np.cumsum(new) - 1
    return s[new], inv


def dense_codes(x: np.ndarray, bound: int) -> tuple[np.ndarray, int]:
    """x (values in 0..bound-1) renumbered 0..k-1 in value order, and k: by a table when the
    bound is small next to x, else by sorting x (cost proportional to x, not to the bound)."""
    if bound <= 8 * len(x):
        present = np.zeros(bound, dtype=bool)
        present[x] = True
        rank = np.cumsum(present, dtype=np.int64) - 1
        return rank[x], int(rank[-1]) + 1 if bound else 0
    u, inv = uniq_inverse(x)
    return inv, len(u)


def uniq_counts(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = np.sort(x)
    if len(s) == 0:
        return s, np.zeros(0, dtype=np.int64)
    first = np.flatnonzero(np.concatenate(([True], s[1:] != s[:-1])))
    return s[first], np.diff(np.append(first, len(s)))


def class_ranges(mc: np.ndarray | None, weight: np.ndarray, budget: int | None = None):
    """Yield (lo, hi): ranges of the memberships (sorted by class) cut at class starts, of about
    `budget` (default chunk()) total weight each (one class may exceed it). With mc None: ranges
    of items (each item its own class)."""
    budget = chunk() if budget is None else budget
    n = len(weight)
    if mc is None:
        yield from _item_ranges(np.cumsum(weight), budget)
        return
    cum = np.cumsum(weight)
    starts = np.flatnonzero(np.concatenate(([True], mc[1:] != mc[:-1]))) if n else np.zeros(0, np.int64)
    lo = 0
    while lo < n:
        j = int(np.searchsorted(cum, (cum[lo - 1] if lo else 0) + budget, side="right"))
        k = int(np.searchsorted(starts, max(j, lo + 1), side="left"))
        hi = int(starts[k]) if k < len(starts) else n
        yield lo, hi
        lo = hi


def _item_ranges(cum: np.ndarray, budget: int):
    """class_ranges of items: cut anywhere, at least one item a range (cum: the cumulated weights)."""
    lo, n = 0, len(cum)
    while lo < n:
        hi = max(lo + 1, int(np.searchsorted(cum, (cum[lo - 1] if lo else 0) + budget, side="right")))
        yield lo, hi
        lo = hi
