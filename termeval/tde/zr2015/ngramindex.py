"""Exact integer type codes of phone windows (start i, length L <= 20) inside one segment.

Level L holds, per phone start, the rank of the window's label tuple among the distinct tuples
of length L (lexicographic order of label ids), -1 where the window leaves its segment; the
code of a window is base[L] + that rank. Level L is built from level L-1 alone (iterated
ranking of (code of L-1, next label)), so an index may keep only some levels (`keep`: what a
band of matching lengths needs, termeval.tde.zr2015.matching.BANDS) and may be built over the phones
of some whole files only (`positions`): its codes are then ranks among those files' tuples,
ordered as the whole corpus's codes of the same tuples (every comparison, sort and sum over
codes sees the same sequence), so a job scoring a within fold never builds the corpus index.

`repeat_lengths` turns a whole-corpus index into what the generated gold classes need of the
corpus (termeval.tde.zr2015.ngrams): per phone start, the longest L whose window's type occurs at
least twice (windows repeated in the corpus are prefix-closed: (i, L) repeated => (i, L-1) is).
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from termeval.tde.zr2015.pairs import chunk

MAXN = 20           # gold n-grams: 3..20 phones
MINN = 3


class NgramIndex:
    """Type codes of the windows (i, L), L = 1..maxn, inside one segment (see the module)."""

    def __init__(self, sg, maxn: int = MAXN, keep: Iterable[int] | None = None,
                 positions: np.ndarray | None = None, visit=None):
        """visit(L, level, base[L], number of types of length L), when given, sees every level
        1..maxn as it is built (kept or not)."""
        self.maxn = maxn
        self.n = len(sg)                       # global phone count (positions index into it)
        self.onset, self.offset = sg.onset, sg.offset
        self.pos = None if positions is None else np.asarray(positions, dtype=np.int64)
        lab = sg.label if self.pos is None else sg.label[self.pos]     # (any integer type)
        seg = sg.seg if self.pos is None else sg.seg[self.pos]
        n = len(lab)
        self.nlocal = n
        keep = set(range(1, maxn + 1)) if keep is None else set(keep)
        top = maxn if visit is not None else max(keep, default=1)
        self.ids: list[np.ndarray | None] = [np.zeros(0, np.int64)] + [None] * maxn
        self.base = np.zeros(maxn + 2, dtype=np.int64)
        nlab = int(lab.max()) + 1 if n else 1
        prev = lab.astype(np.int32)
        if 1 in keep:
            self.ids[1] = prev
        self.base[2] = nlab
        if visit is not None:
            visit(1, prev, 0, nlab)
        # windows whose prefix type repeats, in the order of their prefix code (stable sorts
        # of keys sorted by blocks are cheap); the others extend a unique prefix
        order = np.argsort(prev, kind="stable").astype(np.int32 if n < 2**31 else np.int64)
        for L in range(2, top + 1):
            cur = np.full(n, -1, dtype=np.int32)
            nt = 0
            m = n - L + 1
            if m > 0:
                npt = int(self.base[L] - self.base[L - 1])
                cnt = np.bincount(prev[prev >= 0], minlength=npt).astype(np.int32)
                order = order[order < m]
                # (one temporary at a time: these arrays have one entry per phone)
                ok = seg[order + (L - 1)] == seg[order]
                ok &= cnt[prev[order]] >= 2
                order = order[ok]
                del ok
                pos = np.flatnonzero((prev[:m] >= 0) & (seg[L - 1:] == seg[:m]))
                pos = pos[cnt[prev[pos]] < 2]
                del cnt
                order, code, nt = _extend(order, prev, lab, L, prev[pos], nlab, npt)
                cur[order] = code[:len(order)]
                cur[pos] = code[len(order):]
                del code, pos
            if L in keep:
                self.ids[L] = cur
            self.base[L + 1] = self.base[L] + nt
            if visit is not None:
                visit(L, cur, int(self.base[L]), nt)
            prev = cur
        # levels never built (beyond the largest kept): their bases are unknown
        self.built = top
        self.ntypes = int(self.base[self.built + 1])

    def ntypes_of(self, L: int) -> int:
        """Number of types of length L (their codes are base[L]..base[L+1]-1)."""
        return int(self.base[L + 1] - self.base[L])

    def local(self, start: np.ndarray) -> np.ndarray:
        """Positions in the levels of global phone starts (every one must be indexed)."""
        start = np.asarray(start, dtype=np.int64)
        return start if self.pos is None else np.searchsorted(self.pos, start)

    def level(self, L: int, start: np.ndarray | None = None) -> np.ndarray:
        """Level L (ranks, -1: no window) at global starts (None: every indexed start, in
        order); -1 everywhere when the level is not kept."""
        ids = self.ids[L] if 0 < L <= self.maxn else None
        if ids is None:
            return np.full(self.nlocal if start is None else len(start), -1, dtype=np.int32)
        return ids if start is None else ids[self.local(start)]

    def code(self, start: np.ndarray, length: np.ndarray) -> np.ndarray:
        """Type code of windows (start, length); -1 where invalid (length 0 or > maxn or
        crossing a segment) or where the level is not kept."""
        out = np.full(len(start), -1, dtype=np.int64)
        step = chunk(2)                                  # (temporaries of a chunk only)
        for a in range(0, len(start), step):
            s = np.asarray(start[a:a + step], dtype=np.int64)
            ln = np.asarray(length[a:a + step], dtype=np.int64)
            o = out[a:a + step]
            for L in np.flatnonzero(np.bincount(np.clip(ln, 0, self.maxn + 1))):
                if L < 1 or L > self.maxn or self.ids[L] is None:
                    continue
                sel = ln == L
                c = self.level(L, s[sel]).astype(np.int64)
                o[sel] = np.where(c >= 0, c + self.base[L], -1)
        return out


def _extend(order: np.ndarray, prev: np.ndarray, lab: np.ndarray, L: int, p1: np.ndarray, nlab: int,
            npt: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Codes of the windows of length L = ranks of the keys (prefix code, last label) =
    prefix code * nlab + last label among the distinct ones. `order`: the windows with a
    repeated prefix, sorted by prefix code (prev: the codes of length L-1); p1: the prefix
    codes of the others (at most one key each, whose rank is the number of distinct keys of
    the smaller prefixes). Returns (`order` sorted by key, codes of order then of p1 (int32),
    number of distinct keys)."""
    key = prev[order].astype(np.int64)
    key *= nlab
    key += lab[order + (L - 1)]
    o = np.argsort(key, kind="stable")
    order = order[o]
    key = key[o]
    del o
    new = np.ones(len(key), dtype=bool)
    new[1:] = key[1:] != key[:-1]
    up = key[new] // nlab
    del key
    grp = np.cumsum(new, dtype=np.int32 if len(new) < 2**31 else np.int64)
    grp -= 1                                                # distinct key of each window
    del new
    ext = np.bincount(up, minlength=npt)                    # distinct extensions per prefix
    ext[p1] = 1
    first = np.cumsum(ext) - ext                            # rank of the prefix's first key
    rank = first[up] + (np.arange(len(up)) - np.searchsorted(up, up))
    code = np.empty(len(grp) + len(p1), dtype=grp.dtype)   # (ranks < the windows: int32 below 2**31)
    np.take(rank.astype(grp.dtype), grp, out=code[:len(grp)])
    code[len(grp):] = first[p1]
    return order, code, int(ext.sum())


def repeat_lengths(idx: NgramIndex, minn: int = MINN) -> tuple[np.ndarray, dict]:
    """(rep_len, counts) of a whole-corpus index: rep_len[i] = the longest L in minn..maxn
    whose window (i, L) has a type occurring at least twice (0: none); counts = the generated
    gold classes' classes_kept (repeated types) and distinct_fragments (repeated windows)."""
    if idx.pos is not None:
        raise ValueError("repeat_lengths needs the index of the whole corpus")
    rep = Repeats(idx.n, minn)
    for L in range(1, idx.maxn + 1):
        rep(L, idx.ids[L], int(idx.base[L]), idx.ntypes_of(L))
    return rep.rep_len, rep.counts


class Repeats:
    """A visitor of the levels (NgramIndex(visit=...)) collecting repeat_lengths's result."""

    def __init__(self, n: int, minn: int = MINN):
        self.rep_len = np.zeros(n, dtype=np.int8)
        self.minn = minn
        self.counts = {"classes_kept": 0, "distinct_fragments": 0}

    def __call__(self, L: int, c: np.ndarray, base: int, nt: int) -> None:
        if L < self.minn:
            return
        cnt = np.bincount(c[c >= 0], minlength=nt)
        rep = cnt >= 2
        self.counts["classes_kept"] += int(np.count_nonzero(rep))
        self.counts["distinct_fragments"] += int(cnt[rep].sum())
        ok = c >= 0
        ok[ok] = rep[c[ok]]
        self.rep_len[ok] = L


class StreamedCodes:
    """What corpus.annotate asks of an NgramIndex (maxn, code() of its runs, ntypes), from one
    pass over the levels that keeps none of them (the preparation saved for --nj jobs, which
    never needs the index again), and, from the same pass, repeat_lengths's (rep_len, counts)."""

    def __init__(self, sg, maxn: int = MAXN):
        self.sg, self.maxn = sg, maxn
        self.ntypes: int | None = None
        self.repeats: Repeats | None = None

    def code(self, start: np.ndarray, length: np.ndarray) -> np.ndarray:
        start = np.asarray(start, dtype=np.int64)
        length = np.asarray(length, dtype=np.int64)
        out = np.full(len(start), -1, dtype=np.int64)
        rep = Repeats(len(self.sg)) if self.repeats is None else None

        def visit(L: int, c: np.ndarray, base: int, nt: int) -> None:
            sel = np.flatnonzero(length == L)
            cs = c[start[sel]].astype(np.int64)
            out[sel] = np.where(cs >= 0, cs + base, -1)
            if rep is not None:
                rep(L, c, base, nt)
        idx = NgramIndex(self.sg, self.maxn, keep=(), visit=visit)
        self.ntypes = idx.ntypes
        if rep is not None:
            self.repeats = rep
        return out

    def repeat_lengths(self) -> tuple[np.ndarray, dict]:
        if self.repeats is None:
            self.code(np.zeros(0, np.int64), np.zeros(0, np.int64))
        return self.repeats.rep_len, self.repeats.counts
