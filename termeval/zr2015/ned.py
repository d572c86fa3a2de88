"""NED (spec §4.1, TDE15/17): mean over the fold's pairs PW(R2(D, F)) of
Levenshtein(T(a), T(b)) / max(|T(a)|, |T(b)|), phones as symbols; NaN when there is no pair.

Edit distances are computed once per distinct pair of transcriptions (rapidfuzz) and cached
across folds. Two empty transcriptions (a ZeroDivisionError in the original, never seen on real
data) count as 1.0, as in TDEv2, and are counted in `ned_empty_pairs`.
"""
from __future__ import annotations

import math

import numpy as np
from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import cpdist


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
        missing = uniq[~np.isin(uniq, self.keys)]
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


def ned(frags, lo: np.ndarray, hi: np.ndarray, cache: NedCache) -> tuple[float, int, int]:
    """(NED, number of pairs, number of empty-vs-empty pairs) of one fold."""
    if len(lo) == 0:
        return math.nan, 0, 0
    ma, mb = frags.mark[lo], frags.mark[hi]
    dist = cache.distances(ma, mb).astype(np.float64)
    den = np.maximum(cache.lens[ma], cache.lens[mb]).astype(np.float64)
    empty = den == 0
    vals = np.where(empty, 1.0, dist / np.where(empty, 1.0, den))
    return float(np.mean(vals)), int(len(lo)), int(np.count_nonzero(empty))
