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
        self.lab = lab
        nlab = int(lab.max()) + 2 if n else 2
        self.ids: list[np.ndarray] = [np.zeros(0, np.int64)]
        cur = lab
        for L in range(1, lmax + 1):
            if L == 1:
                key = lab
            else:
                nxt = np.full(n, nlab - 1, np.int64)          # past the end: a sentinel label
                if L <= n:
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


def _runs(eq: np.ndarray) -> np.ndarray:
    """r[k] = number of consecutive True values of eq starting at k."""
    n = len(eq)
    idx = np.where(~eq, np.arange(n), n)
    nxt = np.minimum.accumulate(idx[::-1])[::-1]          # first False at or after k
    return nxt - np.arange(n)


def self_overlaps(lab: np.ndarray, stretch: np.ndarray, in_fold: np.ndarray, lmin: int,
                  lmax: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair of equal-string occurrences (k, L), (k + d, L), 1 <= d < L, lmin <= L <= lmax,
    both pause-free in the fold: the string at k..k+d+L-1 has period d, i.e. lab[i] ==
    lab[i + d] on a run of at least L positions from k. Returned as arrays (k, d, L); such
    pairs are rare (repeated phones), so they are listed."""
    n = len(lab)
    ks, ds, Ls = [], [], []
    for d in range(1, lmax):
        if d >= n:
            break
        eq = np.zeros(n, bool)
        eq[:n - d] = lab[:n - d] == lab[d:]
        r = _runs(eq)
        lo = max(lmin, d + 1)
        cand = np.flatnonzero(r >= lo)
        if not len(cand):
            continue
        top = np.minimum(r[cand], lmax)
        reps = top - lo + 1
        k = np.repeat(cand, reps)
        L = np.repeat(top - reps + 1, reps) + (np.arange(reps.sum()) - np.repeat(np.cumsum(reps) - reps, reps))
        end = k + d + L - 1
        ok = (end < n)
        k, L, end = k[ok], L[ok], end[ok]
        ok = (stretch[k] == stretch[end]) & in_fold[k]
        ks.append(k[ok]); Ls.append(L[ok]); ds.append(np.full(int(ok.sum()), d, np.int64))
    cat = (lambda xs: np.concatenate(xs).astype(np.int64) if xs else np.zeros(0, np.int64))
    return cat(ks), cat(ds), cat(Ls)


def gold_pairs(lev: Levels, stretch: np.ndarray, on: np.ndarray, off: np.ndarray,
               in_fold: np.ndarray, group: np.ndarray, lmin: int, lmax: int,
               overlap: str, lab: np.ndarray | None = None) -> GoldPairs:
    """Y over N(lmin..lmax) of the fold's phones (`in_fold`), pairs only inside a gold group
    (`group` per phone: 0, or the speaker for within scores). overlap = "time" (zr2015-doc:
    spans sharing more than half of either) or "phone" (lrec2014: a shared phone)."""
    # work on the fold's phones only (whole files: a range of the fold is contiguous there too)
    idx = np.flatnonzero(in_fold)
    full = len(idx) == len(stretch)
    if not full:
        stretch, on, off, group = stretch[idx], on[idx], off[idx], group[idx]
    lab = lev.lab if full else lev.lab[idx]
    n = len(stretch)
    in_fold = np.ones(n, bool)
    grouped = bool(len(group)) and int(group.max()) > 0
    ok_k, ok_d, ok_L = self_overlaps(lab, stretch, in_fold, lmin, lmax)
    if overlap == "time" and len(ok_k):
        a, b = ok_k, ok_k + ok_d
        o = off[a + ok_L - 1] - on[b]
        hit = 2 * o > np.minimum(off[a + ok_L - 1] - on[a], off[b + ok_L - 1] - on[b])
        ok_k, ok_d, ok_L = ok_k[hit], ok_d[hit], ok_L[hit]
    ks, Ls, degs, codes = [], [], [], []
    n_occ = 0
    for L in range(lmin, lmax + 1):
        if n < L:
            break
        m = n - L + 1
        valid = in_fold[:m] & (stretch[:m] == stretch[L - 1:])
        vk = np.flatnonzero(valid)
        if not len(vk):
            continue
        ids = lev.ids[L][vk if full else idx[vk]].astype(np.int64)
        n_occ += len(vk)
        if grouped:
            _, inv, cnt = np.unique(ids * (int(group.max()) + 1) + group[vk], return_inverse=True,
                                    return_counts=True)
            deg = (cnt[inv.reshape(-1)] - 1).astype(np.int64)
        else:
            deg = np.bincount(ids, minlength=int(ids.max()) + 1)[ids].astype(np.int64) - 1
        s = ok_L == L
        if s.any():
            pos = np.full(m, -1, np.int64)
            pos[vk] = np.arange(len(vk))
            a = ok_k[s]
            np.subtract.at(deg, pos[a], 1)
            np.subtract.at(deg, pos[a + ok_d[s]], 1)
        has = deg > 0
        ks.append(vk[has] if full else idx[vk[has]])
        Ls.append(np.full(int(has.sum()), L, np.int64))
        degs.append(deg[has])
        codes.append(ids[has] * CODE + L)
    cat = (lambda xs: np.concatenate(xs) if xs else np.zeros(0, np.int64))
    return GoldPairs(cat(ks), cat(Ls), cat(degs), cat(codes), n_occ)


def covered_phones(n: int, k: np.ndarray, k1: np.ndarray) -> np.ndarray:
    """Boolean mask of the phones inside at least one range [k, k1)."""
    diff = np.zeros(n + 1, np.int64)
    np.add.at(diff, np.asarray(k, np.int64), 1)
    np.add.at(diff, np.asarray(k1, np.int64), -1)
    return np.cumsum(diff[:-1]) > 0
