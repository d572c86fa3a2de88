"""Substring completion along all minimal edit paths (seed-definitions.md §2.7, V6/V7).

For strings A (n) and B (m), F(i, j) = Lev(A[:i], B[:j]), G(i, j) = Lev(A[i:], B[j:]),
D = Lev(A, B); the completion is every (i, i', j, j') with lmin <= i'-i, j'-j <= lmax and
F(i, j) + Lev(A[i:i'], B[j:j']) + G(i', j') = D. The template depends on the two strings only;
it is computed once per distinct string pair (cached) and shifted onto occurrences by callers.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np


def _prefix_table(a: tuple[int, ...], b: tuple[int, ...]) -> np.ndarray:
    n, m = len(a), len(b)
    t = np.zeros((n + 1, m + 1), np.int64)
    t[0, :] = np.arange(m + 1)
    t[:, 0] = np.arange(n + 1)
    bb = np.asarray(b, np.int64)
    for i in range(1, n + 1):
        sub = t[i - 1, :-1] + (bb != a[i - 1])
        row = np.minimum(t[i - 1, 1:] + 1, sub)
        # left-to-right insertions: row[j] = min(row[j], row[j-1] + 1), a running minimum
        r = np.empty(m + 1, np.int64)
        r[0] = i
        r[1:] = row
        r = np.minimum.accumulate(r - np.arange(m + 1)) + np.arange(m + 1)
        t[i] = r
    return t


def levenshtein(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return int(_prefix_table(a, b)[-1, -1])


@lru_cache(maxsize=200_000)
def template(a: tuple[int, ...], b: tuple[int, ...], lmin: int, lmax: int) -> np.ndarray:
    """Completion entries of (A, B): int64 array (k, 5) of (i, i', j, j', equal), equal = 1
    when A[i:i'] == B[j:j']."""
    n, m = len(a), len(b)
    if a == b:
        rows = [(i, i + ln, i, i + ln, 1) for ln in range(lmin, min(lmax, n) + 1) for i in range(n - ln + 1)]
        return np.asarray(rows, np.int64).reshape(-1, 5)
    if n < lmin or m < lmin:
        return np.zeros((0, 5), np.int64)
    F = _prefix_table(a, b)
    G = _prefix_table(a[::-1], b[::-1])[::-1, ::-1]
    D = int(F[n, m])
    on_path = (F + G) == D                                   # cells of some minimal path
    la, lb = min(lmax, n), min(lmax, m)
    ap = np.asarray(list(a) + [-1] * la, np.int64)
    bp = np.asarray(list(b) + [-2] * lb, np.int64)
    ii = np.arange(n + 1)[:, None]
    jj = np.arange(m + 1)[None, :]
    # L[x][y][i, j] = Lev(A[i:i+x], B[j:j+y]) for every start (i, j) at once
    prev = np.broadcast_to(np.arange(lb + 1)[:, None, None], (lb + 1, n + 1, m + 1)).copy()
    out = []
    for x in range(1, la + 1):
        cur = np.empty_like(prev)
        cur[0] = x
        ax = ap[ii + x - 1]                                  # A[i + x - 1], shape (n+1, 1)
        for y in range(1, lb + 1):
            cost = (ax != bp[jj + y - 1]).astype(np.int64)
            cur[y] = np.minimum(np.minimum(prev[y] + 1, cur[y - 1] + 1), prev[y - 1] + cost)
        if x >= lmin:
            for y in range(lmin, lb + 1):
                ok = on_path & (ii + x <= n) & (jj + y <= m)
                if not ok.any():
                    continue
                i_s, j_s = np.nonzero(ok)
                g = G[i_s + x, j_s + y]
                hit = F[i_s, j_s] + cur[y][i_s, j_s] + g == D
                if hit.any():
                    i_h, j_h = i_s[hit], j_s[hit]
                    eq = (cur[y][i_h, j_h] == 0) & (x == y)
                    out.append(np.stack([i_h, i_h + x, j_h, j_h + y, eq.astype(np.int64)], 1))
        prev = cur
    if not out:
        return np.zeros((0, 5), np.int64)
    res = np.concatenate(out)
    return res[np.lexsort((res[:, 3], res[:, 2], res[:, 1], res[:, 0]))]
