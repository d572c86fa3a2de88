"""Coverage (spec §4.2, TDE15/17): seconds covered by the fold's discovered fragments (R1,
singletons included) over seconds covered by the fold's gold n-gram fragments (R1(G, F)).

cover(X) = per file, total length of the union of the distinct intervals, where two intervals
join when their raw overlap is > 0 or they are adjacent (TDE15 isclose, TDE17 < 1e-5), exactly
the connected components of the original `collapse`. The ratio can exceed 1.
"""
from __future__ import annotations

import math

import numpy as np

from termeval.tde.benchmarks import zr15
from termeval.tde.zr2015.corpus import adjacent


def cover(file: np.ndarray, on: np.ndarray, off: np.ndarray, mode: str) -> float:
    return total(components(file, on, off, mode))


def cover_by_file(file: np.ndarray, on: np.ndarray, off: np.ndarray, mode: str, nfiles: int) -> np.ndarray:
    """cover() per file (components never cross files): (nfiles,) seconds, for the bootstrap."""
    return by_file(components(file, on, off, mode), nfiles)


def total(comp: tuple[np.ndarray, np.ndarray]) -> float:
    """cover() from components()."""
    return float(np.sum(comp[1]))


def by_file(comp: tuple[np.ndarray, np.ndarray], nfiles: int) -> np.ndarray:
    """cover_by_file() from components()."""
    return np.bincount(comp[0], weights=comp[1], minlength=nfiles).astype(np.float64)


def components(file: np.ndarray, on: np.ndarray, off: np.ndarray, mode: str) -> tuple[np.ndarray, np.ndarray]:
    """(file, length) of each connected component of the intervals."""
    n = len(on)
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0)
    f, s, e = np.asarray(file), np.asarray(on, dtype=np.float64), np.asarray(off, dtype=np.float64)
    if not _sorted(f, s, e):                     # fold views come sorted: no copies then
        order = np.lexsort((e, s, f))
        f, s, e = f[order], s[order], e[order]
    cstart = np.flatnonzero(~_joins(f, s, e, mode))
    # sorted by onset: a component's smallest onset is its first one
    return f[cstart].astype(np.int64), np.maximum.reduceat(e, cstart) - s[cstart]


def _joins(f: np.ndarray, s: np.ndarray, e: np.ndarray, mode: str) -> np.ndarray:
    """Intervals sorted by (file, onset, offset): whether each one joins the union of the
    earlier ones of its file (overlaps or, by the mode's rule, touches it)."""
    n = len(f)
    # running max of the offsets within each file (a file's slice at a time: exact, no keys)
    starts = np.flatnonzero(np.concatenate(([True], f[1:] != f[:-1], [True])))
    prev_e = np.empty(n, dtype=np.float64)
    for a, b in zip(starts[:-1].tolist(), starts[1:].tolist()):
        np.maximum.accumulate(e[a:b], out=prev_e[a:b])
    prev_e[1:] = prev_e[:-1]                      # numpy buffers the overlap
    first = np.zeros(n, dtype=bool)
    first[starts[:-1]] = True
    return ~first & ((s < prev_e) | adjacent(prev_e, s, mode))


def _sorted(f: np.ndarray, s: np.ndarray, e: np.ndarray) -> bool:
    """Sorted by (file, onset, offset)?"""
    df = f[1:] > f[:-1]
    sf = f[1:] == f[:-1]
    ok = df | (sf & ((s[1:] > s[:-1]) | ((s[1:] == s[:-1]) & (e[1:] >= e[:-1]))))
    return bool(ok.all())


def coverage(num: float, den: float, mode: str) -> float:
    """TDE15: NaN when num or den is ~0 (numpy.isclose). TDE17: NaN only when both are < 1e-8;
    a zero denominator with a positive numerator (a crash in the original) is NaN too."""
    if zr15(mode).coverage_nan_near_zero:
        if abs(den) <= 1e-8 or abs(num) <= 1e-8:
            return math.nan
        return num / den
    if num < 1e-8 and den < 1e-8:
        return math.nan
    if den == 0:
        return math.nan
    return num / den
