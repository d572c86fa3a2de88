"""Gold n-gram occurrences N(a..b) and the gold pair set P_all / Y, counted (§2.5, §3.3,
§3.4, §4.4, §5).

Strings of length L are numbered exactly level by level over the global phone array:
id_L(k) = rank of (id_{L-1}(k), label[k+L-1]) (np.unique), so equal ids <=> equal label
strings for ranges inside one file. A range (k, L) is coded k*(LMAX+1) + L and its string
(L, id_L(k)) as id_L(k)*(LMAX+1) + L ("type code").

Same-string pairs are never listed: per string t with g_t occurrences in a gold group (the
whole fold, or one speaker for the within scores) an occurrence has g_t - 1 partners, minus
the overlapping ones, which lie in the same stretch at a shift d < L and are found by
comparing id_L(k) with id_L(k + d) for d = 1..L-1.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LMAX = 30                          # longest n-gram any mode needs (lrec2014: 3..30)
CODE = LMAX + 1


class Levels:
    """id_L(k) for L = 1..LMAX over the whole corpus (computed once, shared by the folds)."""

    def __init__(self, lab: np.ndarray, lmax: int = LMAX) -> None:
        n = len(lab)
        self.n = n
        lab = np.asarray(lab, np.int64)
        nlab = int(lab.max()) + 2 if n else 2
        self.ids: list[np.ndarray] = [np.zeros(0, np.int64)]
        cur = lab
        for L in range(1, lmax + 1):
            if L == 1:
                key = lab
            else:
                nxt = np.full(n, nlab - 1, np.int64)          # past the end: a sentinel label
                nxt[:n - L + 1] = lab[L - 1:]
                key = cur * nlab + nxt
            _, inv = np.unique(key, return_inverse=True)
            cur = inv.reshape(-1).astype(np.int64)
            self.ids.append(cur.astype(np.int32))

    def type_code(self, k: np.ndarray, L: np.ndarray) -> np.ndarray:
        """Type code of the ranges (k, L), 1 <= L <= LMAX."""
        k = np.asarray(k, np.int64)
        L = np.asarray(L, np.int64)
        out = np.empty(len(k), np.int64)
        for ln in np.unique(L).tolist():
            s = L == ln
            out[s] = self.ids[ln][k[s]].astype(np.int64) * CODE + ln
        return out


def range_code(k: np.ndarray, L: np.ndarray) -> np.ndarray:
    return np.asarray(k, np.int64) * CODE + np.asarray(L, np.int64)


@dataclass
class GoldPairs:
    """Occurrences of N(lmin..lmax) that have a gold partner (flat(Y)), with their partner
    counts (ordered pairs with them as second element) and type codes."""
    k: np.ndarray
    L: np.ndarray
    degree: np.ndarray
    tcode: np.ndarray
    n_occ: int                      # |N(lmin..lmax)| in the fold


def gold_pairs(lev: Levels, stretch: np.ndarray, on: np.ndarray, off: np.ndarray,
               in_fold: np.ndarray, group: np.ndarray, lmin: int, lmax: int,
               overlap: str) -> GoldPairs:
    """Y over N(lmin..lmax) of the fold's phones (`in_fold`), pairs only inside a gold group
    (`group` per phone: 0, or the speaker for within scores). overlap = "time" (zr2015-doc:
    spans sharing more than half of either) or "phone" (lrec2014: a shared phone)."""
    n = len(stretch)
    ks, Ls, degs, codes = [], [], [], []
    n_occ = 0
    for L in range(lmin, lmax + 1):
        if n < L:
            break
        m = n - L + 1
        k = np.arange(m)
        valid = in_fold[:m] & (stretch[:m] == stretch[L - 1:])
        if not valid.any():
            continue
        ids = lev.ids[L][:m].astype(np.int64)
        key = ids * (int(group.max()) + 1 if len(group) else 1) + group[:m]
        vk = k[valid]
        n_occ += len(vk)
        _, inv, cnt = np.unique(key[vk], return_inverse=True, return_counts=True)
        deg = (cnt[inv.reshape(-1)] - 1).astype(np.int64)
        pos = np.full(m, -1, np.int64)
        pos[vk] = np.arange(len(vk))
        for d in range(1, L):
            a = vk[vk + d < m]
            b = a + d
            same = valid[b] & (ids[a] == ids[b]) & (group[a] == group[b]) & (stretch[a] == stretch[b])
            if not same.any():
                continue
            a, b = a[same], b[same]
            if overlap == "time":
                o = off[a + L - 1] - on[b]
                d1 = off[a + L - 1] - on[a]
                d2 = off[b + L - 1] - on[b]
                hit = 2 * o > np.minimum(d1, d2)
                a, b = a[hit], b[hit]
            np.subtract.at(deg, pos[a], 1)
            np.subtract.at(deg, pos[b], 1)
        has = deg > 0
        ks.append(vk[has])
        Ls.append(np.full(int(has.sum()), L, np.int64))
        degs.append(deg[has])
        codes.append(ids[vk[has]] * CODE + L)
    cat = (lambda xs: np.concatenate(xs) if xs else np.zeros(0, np.int64))
    return GoldPairs(cat(ks), cat(Ls), cat(degs), cat(codes), n_occ)


def covered_phones(n: int, k: np.ndarray, k1: np.ndarray) -> np.ndarray:
    """Boolean mask of the phones inside at least one range [k, k1)."""
    diff = np.zeros(n + 1, np.int64)
    np.add.at(diff, np.asarray(k, np.int64), 1)
    np.add.at(diff, np.asarray(k1, np.int64), -1)
    return np.cumsum(diff[:-1]) > 0
