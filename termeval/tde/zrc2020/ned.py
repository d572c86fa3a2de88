"""NED (tdev2, tde-spec §4.1) by counting, never enumerating fragment pairs.

tdev2 averages, over every 2-combination of every cluster list (duplicates and overlapping
fragments included), ned = editdistance(x, y) / max(|x|, |y|) on the SIL-stripped phone
strings, 1.0 when both are empty. Inside a cluster only the distinct stripped strings
matter: with counts c_i,

    sum over pairs = sum_{i<j} c_i c_j D(s_i, s_j) / max(|s_i|, |s_j|) + C(c_empty, 2)

Statistics are integers: E[L] = sum of c_i c_j D_ij over distinct-string pairs whose longer
string has L phones, `ones` = pairs of two empty strings, `pairs` = sum C(n_c, 2). They add
up exactly over shards, and the merge turns them into one correctly rounded float
(sum E[L]/L as a fraction), so the result does not depend on --nj or on any order.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

EXACT = 2 ** 53      # float64 adds integers exactly below this
SMALL = 24           # clusters with at most this many distinct strings go through the batch path
BATCH_PAIRS = 1 << 21
BLOCK = 1 << 22      # cells of one cdist block


@dataclass
class NedStats:
    E: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    ones: int = 0
    pairs: int = 0

    def add(self, other: "NedStats") -> "NedStats":
        n = max(len(self.E), len(other.E))
        E = np.zeros(n, dtype=np.int64)
        E[:len(self.E)] += self.E
        E[:len(other.E)] += other.E
        return NedStats(E, self.ones + other.ones, self.pairs + other.pairs)

    def value(self) -> float | None:
        """The pooled mean, correctly rounded; None (undefined) without pairs."""
        if self.pairs == 0:
            return None
        total = Fraction(self.ones)
        for L in np.flatnonzero(self.E).tolist():
            total += Fraction(int(self.E[L]), L)
        return float(total / self.pairs)


def _add_exact(E: np.ndarray, L: np.ndarray, v: np.ndarray) -> None:
    """E[L] += v (int64) without float rounding."""
    if not len(v):
        return
    if int(v.sum()) < EXACT:
        E += np.rint(np.bincount(L, weights=v.astype(np.float64), minlength=len(E))).astype(np.int64)
    else:
        for x in np.unique(L).tolist():
            E[x] += int(v[L == x].sum())


def ned_stats(cluster: np.ndarray, sid: np.ndarray, strings: list[str], n_clusters: int,
              workers: int = 1) -> tuple[NedStats, np.ndarray]:
    """NED statistics of kept fragments (cluster index, stripped-string id).

    Returns the statistics and, per cluster, the float sum of pair NEDs (for the
    diagnostics' mean NED inside each class).
    """
    lens = np.fromiter((len(s) for s in strings), dtype=np.int64, count=len(strings))
    maxlen = int(lens.max()) if len(lens) else 0
    E = np.zeros(maxlen + 1, dtype=np.int64)
    per_cluster = np.zeros(n_clusters, dtype=np.float64)
    n_c = np.bincount(cluster, minlength=n_clusters).astype(np.int64)
    pairs = int((n_c * (n_c - 1) // 2).sum())
    if not len(cluster):
        return NedStats(E, 0, 0), per_cluster
    # distinct (cluster, string) with counts, ordered by cluster then string length
    ns = len(strings)
    key, cnt = np.unique(cluster.astype(np.int64) * ns + sid, return_counts=True)
    gc, gs = key // ns, key % ns
    order = np.lexsort((gs, lens[gs], gc))
    gc, gs, cnt = gc[order], gs[order], cnt[order].astype(np.int64)
    glen = lens[gs]
    ones = 0
    empty = glen == 0
    if empty.any():
        o = cnt[empty] * (cnt[empty] - 1) // 2
        ones = int(o.sum())
        np.add.at(per_cluster, gc[empty], o.astype(np.float64))
    # clusters as runs of groups
    starts = np.flatnonzero(np.r_[True, gc[1:] != gc[:-1]])
    U = np.diff(np.r_[starts, len(gc)])
    strs = np.empty(ns, dtype=object)
    strs[:] = strings
    # small clusters: all distinct-string pairs at once
    # the sizes present, ascending (bincount: a plain np.unique would import numpy.ma)
    for u in np.flatnonzero(np.bincount(U[(U >= 2) & (U <= SMALL)])).tolist():
        first = starts[U == u]
        iu, ju = np.triu_indices(u, 1)
        step = max(1, BATCH_PAIRS // len(iu))
        for b0 in range(0, len(first), step):
            base = first[b0:b0 + step, None]
            A = (base + iu).ravel()
            B = (base + ju).ravel()
            D = np.asarray(process.cpdist(strs[gs[A]], strs[gs[B]], scorer=Levenshtein.distance,
                                          dtype=np.int32, workers=workers), dtype=np.int64)
            L = glen[B]                     # sorted by length: B is the longer one
            v = cnt[A] * cnt[B] * D
            _add_exact(E, L, v)
            np.add.at(per_cluster, gc[A], v / L)
    # large clusters: blocks of the upper triangle of the distinct-string distance matrix
    for g0, u in zip(starts[U > SMALL].tolist(), U[U > SMALL].tolist()):
        s = [strings[x] for x in gs[g0:g0 + u].tolist()]
        c = cnt[g0:g0 + u]
        ln = glen[g0:g0 + u]
        exact_float = int(c.sum()) ** 2 * max(int(ln.max()), 1) < EXACT
        rows = max(1, BLOCK // u)
        acc = 0.0
        for r0 in range(0, u, rows):
            r1 = min(u, r0 + rows)
            D = process.cdist(s[r0:r1], s[r0:], scorer=Levenshtein.distance, dtype=np.int32,
                              workers=workers)
            sq = D[:, :r1 - r0]
            sq[np.tril_indices(r1 - r0)] = 0          # keep pairs i < j only
            if exact_float:
                col = np.rint(c[r0:r1].astype(np.float64) @ D.astype(np.float64)).astype(np.int64)
            else:
                col = c[r0:r1] @ D.astype(np.int64)
            v = c[r0:] * col
            Lc = ln[r0:]
            _add_exact(E, Lc, v)
            nz = Lc > 0
            acc += float((v[nz] / Lc[nz]).sum())
        per_cluster[gc[g0]] += acc
    return NedStats(E, ones, pairs), per_cluster
