"""Coverage (spec §4.2, TDE15/17): seconds covered by the fold's discovered fragments (R1,
singletons included) over seconds covered by the fold's gold n-gram fragments (R1(G, F)).

cover(X) = per file, total length of the union of the distinct intervals, where two intervals
join when their raw overlap is > 0 or they are adjacent (TDE15 isclose, TDE17 < 1e-5), exactly
the connected components of the original `collapse`. The ratio can exceed 1.
"""
from __future__ import annotations

import math

import numpy as np

from termeval.zr2015.corpus import adjacent


def cover(file: np.ndarray, on: np.ndarray, off: np.ndarray, mode: str) -> float:
    n = len(on)
    if n == 0:
        return 0.0
    order = np.lexsort((off, on, file))
    f, s, e = np.asarray(file)[order].astype(np.int64), np.asarray(on)[order], np.asarray(off)[order]
    # running max of the offsets within each file, exactly: cummax over (file, rank of offset)
    vals_order = np.argsort(e, kind="stable")    # ranks of the offsets (ties: any order)
    ranks = np.empty(n, dtype=np.int64)
    ranks[vals_order] = np.arange(n)
    vals = e[vals_order]
    key = f * np.int64(n + 1) + ranks
    runmax = np.maximum.accumulate(key)
    prev = np.empty(n, dtype=np.int64)
    prev[0] = -1
    prev[1:] = runmax[:-1]
    first = np.ones(n, dtype=bool)
    first[1:] = f[1:] != f[:-1]
    prev_e = vals[np.where(first, 0, prev - f * np.int64(n + 1))]
    joins = ~first & ((s < prev_e) | adjacent(prev_e, s, mode))
    comp = np.cumsum(~joins) - 1
    cmin = np.full(comp[-1] + 1, np.inf)
    np.minimum.at(cmin, comp, s)
    cmax = np.full(comp[-1] + 1, -np.inf)
    np.maximum.at(cmax, comp, e)
    return float(np.sum(cmax - cmin))


def coverage(num: float, den: float, mode: str) -> float:
    """TDE15: NaN when num or den is ~0 (numpy.isclose). TDE17: NaN only when both are < 1e-8;
    a zero denominator with a positive numerator (a crash in the original) is NaN too."""
    if mode == "zr2015":
        if abs(den) <= 1e-8 or abs(num) <= 1e-8:
            return math.nan
        return num / den
    if num < 1e-8 and den < 1e-8:
        return math.nan
    if den == 0:
        return math.nan
    return num / den
