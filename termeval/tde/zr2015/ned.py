"""NED (spec §4.1, TDE15/17): mean over the fold's pairs PW(R2(D, F)) of
Levenshtein(T(a), T(b)) / max(|T(a)|, |T(b)|), phones as symbols; NaN when there is no pair.

Counted per class over distinct transcriptions (a class with c_i copies of mark i contributes
c_i c_j pairs (i, j)), then corrected by the listed exceptions of termeval.tde.zr2015.foldpairs:
their class occurrences are subtracted as counted, their exact PW added. Sums are integers per
denominator, so the mean is exact (correctly rounded). Edit distances are computed once per
distinct pair of transcriptions (rapidfuzz) and cached across folds. Two empty transcriptions
(a ZeroDivisionError in the original, never seen on real data) count as 1.0, as in TDEv2, and
are counted in `ned_empty_pairs`.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import cpdist

from termeval.tde.zr2015.foldpairs import FoldPairs, class_histogram, row_pairs
from termeval.tde.zr2015.pairs import uniq


class NedCache:
    """Edit distance per (mark a, mark b) id pair, filled on demand."""

    def __init__(self, marks: list[tuple]):
        self.marks = marks
        self.lens = np.array([len(m) for m in marks], dtype=np.int64)
        self.keys = np.zeros(0, dtype=np.int64)
        self.vals = np.zeros(0, dtype=np.int64)

    def distances(self, ma: np.ndarray, mb: np.ndarray) -> np.ndarray:
        m = np.int64(len(self.marks))
        key = np.minimum(ma, mb) * m + np.maximum(ma, mb)
        uniq, inv = np.unique(key, return_inverse=True)
        missing = uniq[~self._cached(uniq)]
        if len(missing):
            qa = [self.marks[k] for k in (missing // m).tolist()]
            qb = [self.marks[k] for k in (missing % m).tolist()]
            d = cpdist(qa, qb, scorer=Levenshtein.distance, workers=1).astype(np.int64)
            self.keys = np.concatenate([self.keys, missing])
            self.vals = np.concatenate([self.vals, d])
            o = np.argsort(self.keys)
            self.keys, self.vals = self.keys[o], self.vals[o]
        pos = np.searchsorted(self.keys, uniq)
        return self.vals[pos][inv]

    def _cached(self, key: np.ndarray) -> np.ndarray:
        """Mask of the keys in the cache (a binary search per key: a fold's lookups cost its
        pairs, not the cache of the whole corpus)."""
        if not len(self.keys):
            return np.zeros(len(key), dtype=bool)
        pos = np.minimum(np.searchsorted(self.keys, key), len(self.keys) - 1)
        return self.keys[pos] == key


class _Sums:
    """Integer sums: E[L] = sum of weight * distance over pairs whose longer mark has L phones,
    `ones` = weight of empty-vs-empty pairs."""

    def __init__(self, cache: NedCache):
        self.cache = cache
        self.E = np.zeros(int(cache.lens.max()) + 1 if len(cache.lens) else 1, dtype=np.int64)
        self.ones = 0

    def add(self, ma: np.ndarray, mb: np.ndarray, w: np.ndarray) -> None:
        if len(ma) == 0:
            return
        den = np.maximum(self.cache.lens[ma], self.cache.lens[mb])
        self.ones += int(w[den == 0].sum())
        diff = ma != mb
        if diff.any():
            d = self.cache.distances(ma[diff], mb[diff])
            np.add.at(self.E, den[diff], w[diff] * d)


def ned(frags, fp: FoldPairs, cache: NedCache) -> tuple[float, int, int]:
    """(NED, number of pairs, number of empty-vs-empty pairs) of one fold."""
    if fp.npairs == 0:
        return math.nan, 0, 0
    mark = frags.mark
    sums = _Sums(cache)
    c, m, cnt = class_histogram(fp.mem_cls, mark[fp.mem_frag])
    same = cnt * (cnt - 1) // 2                          # pairs of one mark: distance 0
    sums.add(m, m, same)
    for i, j in row_pairs(c):
        sums.add(m[i], m[j], cnt[i] * cnt[j])
    sums.add(mark[fp.exc_lo], mark[fp.exc_hi], -np.ones(len(fp.exc_lo), dtype=np.int64))
    sums.add(mark[fp.pw_lo], mark[fp.pw_hi], np.ones(len(fp.pw_lo), dtype=np.int64))
    total = Fraction(sums.ones)
    for L in np.flatnonzero(sums.E):
        total += Fraction(int(sums.E[L]), int(L))
    return float(total / fp.npairs), fp.npairs, sums.ones


def pw_classes(n: int, fp: FoldPairs) -> np.ndarray:
    """The class each exact exception pair (pw_lo, pw_hi) is credited to: the first (smallest)
    class listing it (a pair of two multi-class fragments is one PW pair, whatever its classes)."""
    if not len(fp.pw_lo):
        return np.zeros(0, np.int64)
    key = fp.exc_lo * np.int64(n) + fp.exc_hi
    o = np.lexsort((fp.exc_cls, key))
    pos = np.searchsorted(key[o], fp.pw_lo * np.int64(n) + fp.pw_hi)
    return fp.exc_cls[o[pos]]


def ned_by_class(frags, fp: FoldPairs, cache: NedCache) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(classes, sum of pair NEDs, pairs) per class of the fold's pair set (for the bootstrap):
    the sums over classes give ned()'s numerator and fp.npairs (floats, not fractions)."""
    mark = frags.mark
    cls_parts, val_parts = [], []

    def add(cl, ma, mb, w):
        if len(ma) == 0:
            return
        den = np.maximum(cache.lens[ma], cache.lens[mb])
        d = np.zeros(len(ma))
        diff = ma != mb
        if diff.any():
            d[diff] = cache.distances(ma[diff], mb[diff])
        cls_parts.append(cl)
        val_parts.append(np.where(den > 0, d / np.maximum(den, 1), 1.0) * w)

    c, m, cnt = class_histogram(fp.mem_cls, mark[fp.mem_frag])
    add(c, m, m, cnt * (cnt - 1) // 2)
    for i, j in row_pairs(c):
        add(c[i], m[i], m[j], cnt[i] * cnt[j])
    pc = pw_classes(len(frags), fp)
    add(fp.exc_cls, mark[fp.exc_lo], mark[fp.exc_hi], -np.ones(len(fp.exc_lo)))
    add(pc, mark[fp.pw_lo], mark[fp.pw_hi], np.ones(len(fp.pw_lo)))
    cl = np.concatenate(cls_parts) if cls_parts else np.zeros(0, np.int64)
    val = np.concatenate(val_parts) if val_parts else np.zeros(0)
    uc, size = np.unique(fp.mem_cls, return_counts=True)
    allc = uniq(np.concatenate([uc, cl]).astype(np.int64))
    sums = np.zeros(len(allc))
    np.add.at(sums, np.searchsorted(allc, cl), val)
    pairs = np.zeros(len(allc))
    np.add.at(pairs, np.searchsorted(allc, uc), size * (size - 1) / 2)
    np.add.at(pairs, np.searchsorted(allc, fp.exc_cls), -1.0)
    np.add.at(pairs, np.searchsorted(allc, pc), 1.0)
    return allc, sums, pairs
