"""The few pairs that are listed, never the same-class pairs themselves (§5): fragments that
share time or phones (found by a sweep over sorted intervals), and fragment pairs sitting
together in several clusters (only fragments in several clusters can form them)."""
from __future__ import annotations

import numpy as np


def interval_pairs(file: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """All pairs (i, j), i < j as indices, of intervals [a, b) of the same file that share
    something (min(b) - max(a) > 0). Sweep: after sorting by (file, a), the intervals that
    intersect interval i and start later are the next ones while they start before b_i."""
    n = len(a)
    if n < 2:
        return np.zeros((0, 2), np.int64)
    order = np.lexsort((b, a, file))
    f, s, e = file[order], a[order], b[order]
    out = []
    active = np.arange(n - 1)
    d = 1
    # candidates of shift d: i whose run of intersecting successors has not ended yet
    runend = e.copy()
    while len(active):
        j = active + d
        ok = j < n
        active, j = active[ok], j[ok]
        hit = (f[j] == f[active]) & (s[j] < runend[active])
        active, j = active[hit], j[hit]
        inter = (e[j] > s[active]) & (e[active] > s[j])
        out.append(np.stack([order[active[inter]], order[j[inter]]], 1))
        d += 1
    if not out:
        return np.zeros((0, 2), np.int64)
    p = np.concatenate(out)
    return np.stack([p.min(1), p.max(1)], 1)


def multi_cluster_pairs(m_frag: np.ndarray, m_key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Fragment pairs (x < y) that share k >= 2 cluster keys, and k. Listed from the fragments
    that are in several clusters only."""
    if not len(m_frag):
        return np.zeros((0, 2), np.int64), np.zeros(0, np.int64)
    nk = np.bincount(m_frag)
    multi = nk[m_frag] > 1
    mf, mk = m_frag[multi], m_key[multi]
    order = np.lexsort((mf, mk))
    mf, mk = mf[order], mk[order]
    cut = np.flatnonzero(np.r_[True, mk[1:] != mk[:-1], True])
    out = []
    for lo, hi in zip(cut[:-1].tolist(), cut[1:].tolist()):
        if hi - lo < 2:
            continue
        x = mf[lo:hi]
        i, j = np.triu_indices(len(x), 1)
        out.append(np.stack([x[i], x[j]], 1))
    if not out:
        return np.zeros((0, 2), np.int64), np.zeros(0, np.int64)
    p, k = np.unique(np.concatenate(out), axis=0, return_counts=True)
    return p[k > 1], k[k > 1]


def same_key_rows(pairs: np.ndarray, m_frag: np.ndarray, m_key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For fragment pairs, the cluster keys they share: rows (pair index, key). Vectorised:
    each pair is expanded over the keys of its first fragment, and (second fragment, key) is
    looked up among the membership rows."""
    if not len(pairs) or not len(m_frag):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    nkey = int(m_key.max()) + 1
    code = np.unique(m_frag.astype(np.int64) * nkey + m_key)          # sorted membership codes
    cf = code // nkey
    starts = np.searchsorted(cf, np.arange(int(max(pairs.max(), cf.max())) + 2))
    x, y = pairs[:, 0], pairs[:, 1]
    cnt = starts[x + 1] - starts[x]
    pi = np.repeat(np.arange(len(pairs)), cnt)
    off = np.arange(int(cnt.sum())) - np.repeat(np.cumsum(cnt) - cnt, cnt)
    kx = code[np.repeat(starts[x], cnt) + off] % nkey
    want = y[pi].astype(np.int64) * nkey + kx
    pos = np.minimum(np.searchsorted(code, want), len(code) - 1)
    hit = code[pos] == want
    return pi[hit], kx[hit]


def group_cross(group_start: np.ndarray, group_size: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For rows (indices into an array sorted by group), pair each row with every index of its
    group: returns (row, other index) arrays, sum of group sizes long."""
    n = group_size[rows]
    r = np.repeat(rows, n)
    off = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
    return r, np.repeat(group_start[rows], n) + off


def row_of(m_frag: np.ndarray, m_key: np.ndarray, frag: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Index of the membership row (frag, key) of each query (every query must exist)."""
    nkey = int(max(m_key.max(), np.max(key, initial=0))) + 1
    code = m_frag.astype(np.int64) * nkey + m_key
    order = np.argsort(code, kind="stable")
    return order[np.searchsorted(code[order], np.asarray(frag, np.int64) * nkey + key)]
