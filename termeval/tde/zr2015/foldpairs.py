"""PW(R2(D, F)) of spec §4.0 counted, never listed: what NED, grouping and matching need.

PW = distinct unordered pairs {a, b} of distinct fragments sharing a class, minus the pairs with a
file-blind OV. Counting it per class (histograms of marks, lengths, ranks) is exact for every
*clean* pair: a pair whose time hulls (fragment times joined with the span of its phone run) do
not overlap, whose fragments do not both sit in several classes, and, when `sharing` is asked
(matching), neither of which shares a phone with another fragment of R2. Such a pair occurs in
one class only, is never OV, and its completed sub-pairs (§4.3) are produced by no other pair.
Everything else is an *exception*, listed explicitly:
  exc_cls, exc_lo, exc_hi   every (class, pair) occurrence of an exception (the class counts
                            include them; metrics subtract them "as if clean")
  pw_lo, pw_hi              the exact PW of the exceptions: deduplicated, OV pairs dropped
Memory and time are proportional to the fragments, the histogram rows and the exceptions, never
to the number of pairs (on a word segmentation the exceptions are a few overlapping tokens).
`partner_len[j]` = the longest phone run of a PW partner of fragment j (-1: no partner).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from termeval.tde.zr2015.corpus import ov
from termeval.tde.zr2015.pairs import chunk, combinations_in_groups, overlapping_pairs, uniq


@dataclass
class FoldPairs:
    mem_cls: np.ndarray        # distinct R2 memberships, sorted by (class, fragment)
    mem_frag: np.ndarray
    exc_cls: np.ndarray
    exc_lo: np.ndarray
    exc_hi: np.ndarray
    pw_lo: np.ndarray
    pw_hi: np.ndarray
    npairs: int                # |PW|
    partner_len: np.ndarray
    shared: bool = False       # some fragment shares phones with another (listed with sharing)

    @property
    def nclean(self) -> int:
        return self.npairs - len(self.pw_lo)


def runs(group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(start, size) of the runs of equal values of a sorted array."""
    n = len(group)
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    new = np.ones(n, dtype=bool)
    new[1:] = group[1:] != group[:-1]
    start = np.flatnonzero(new)
    return start, np.diff(np.append(start, n))


def hulls(frags, phones) -> tuple[np.ndarray, np.ndarray]:
    """Fragment times joined with the span of their phone run (any sub-fragment lies inside)."""
    on, off = frags.onset.copy(), frags.offset.copy()
    ne = frags.run_len > 0
    rs = frags.run_start[ne]
    on[ne] = np.minimum(on[ne], phones.onset[rs])
    off[ne] = np.maximum(off[ne], phones.offset[rs + frags.run_len[ne] - 1])
    return on, off


def sharing_fragments(frags, sel: np.ndarray) -> np.ndarray:
    """Mask of the selected fragments whose phone run meets the run of another selected one."""
    out = np.zeros(len(frags), dtype=bool)
    idx = sel[frags.run_len[sel] > 0]
    if len(idx) < 2:
        return out
    s = frags.run_start[idx]
    e = s + frags.run_len[idx]
    o = np.argsort(s, kind="stable")
    idx, s, e = idx[o], s[o], e[o]
    prev_end = np.maximum.accumulate(e)
    hit = np.zeros(len(idx), dtype=bool)
    hit[1:] = s[1:] < prev_end[:-1]               # meets some earlier run
    hit[:-1] |= s[1:] < e[:-1]                    # meets a later run iff the next one starts inside
    out[idx[hit]] = True
    return out


def _partner_len(frags, mem_cls, mem_frag, ov_a, ov_b) -> np.ndarray:
    """Per fragment: longest run among its non-OV class mates (-1 if none), by walking each
    class's members in decreasing length and skipping itself and its OV partners (OV does not
    depend on the class)."""
    n = len(frags)
    out = np.full(n, -1, dtype=np.int64)
    if len(mem_cls) == 0:
        return out
    s_frag, s_len, ptr, cend = _longest_first(frags.run_len, mem_cls, mem_frag)
    it = ptr.dtype
    nf = np.int64(n)
    bad = np.sort(np.concatenate([ov_a * nf + ov_b, ov_b * nf + ov_a]))
    me = s_frag
    act = np.arange(len(s_frag), dtype=it)
    best = np.full(len(s_frag), -1, dtype=np.int64)
    while len(act):
        act = act[ptr[act] < cend[act]]
        if not len(act):
            break
        cand = s_frag[ptr[act]]
        skip = cand == me[act]
        if len(bad):
            k = me[act] * nf + cand
            pos = np.clip(np.searchsorted(bad, k), 0, len(bad) - 1)
            skip |= bad[pos] == k
        best[act[~skip]] = s_len[ptr[act[~skip]]]
        act = act[skip]
        ptr[act] += 1
    np.maximum.at(out, me, best)
    return out


def _longest_first(run_len: np.ndarray, mem_cls: np.ndarray, mem_frag: np.ndarray) -> tuple:
    """The memberships per class, longest run first: (fragment, run length, position of the
    class's first member, end of the class's members) of each."""
    ln = run_len[mem_frag]
    o = np.lexsort((-ln, mem_cls))
    return (mem_frag[o], ln[o], *_class_bounds(*runs(mem_cls[o])))


def _class_bounds(start: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per item of runs (start, size): the start and the end of its run (4 bytes each when
    the positions allow)."""
    it = np.int32 if int(size.sum()) < 2**31 else np.int64
    return np.repeat(start.astype(it), size), np.repeat((start + size).astype(it), size)


def fold_pairs(frags, occ_keep: np.ndarray, mode: str, phones, sharing: bool) -> FoldPairs:
    """The counted PW of the kept occurrences of `frags` (a corpus.Fragments)."""
    n = len(frags)
    key = uniq(frags.occ_cls[occ_keep] * np.int64(n) + frags.occ_frag[occ_keep])
    mem_cls, mem_frag = key // n, key % n
    start, size = runs(mem_cls)
    # (1) pairs of overlapping hulls, file-blind
    h_on, h_off = hulls(frags, phones)
    i, j = overlapping_pairs(mem_cls, h_on[mem_frag], h_off[mem_frag])
    parts = [(mem_cls[i], mem_frag[i], mem_frag[j])]
    # (2) pairs of two fragments that both sit in several classes
    ncls = np.bincount(mem_frag, minlength=n)
    multi = np.flatnonzero(ncls[mem_frag] > 1)
    i, j = combinations_in_groups(mem_cls[multi])
    parts.append((mem_cls[multi[i]], mem_frag[multi[i]], mem_frag[multi[j]]))
    # (3) matching: every pair of a fragment sharing phones with another
    sh = np.zeros(0, dtype=np.int64)
    if sharing:
        sh = np.flatnonzero(sharing_fragments(frags, uniq(mem_frag))[mem_frag])
        if len(sh):
            cls_of = np.searchsorted(start, sh, side="right") - 1
            cnt = size[cls_of]
            m = np.repeat(sh, cnt)
            other = np.repeat(start[cls_of], cnt) + (np.arange(int(cnt.sum()))
                                                   - np.repeat(np.cumsum(cnt) - cnt, cnt))
            ok = other != m
            parts.append((mem_cls[m[ok]], mem_frag[m[ok]], mem_frag[other[ok]]))
    c = np.concatenate([p[0] for p in parts])
    a = np.concatenate([p[1] for p in parts])
    b = np.concatenate([p[2] for p in parts])
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    if len(c):
        o = np.lexsort((hi, lo, c))
        c, lo, hi = c[o], lo[o], hi[o]
        new = np.ones(len(c), dtype=bool)
        new[1:] = (c[1:] != c[:-1]) | (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1])
        c, lo, hi = c[new], lo[new], hi[new]
    is_ov = ov(frags.onset[lo], frags.offset[lo], frags.onset[hi], frags.offset[hi], mode)
    # exact PW of the exceptions: distinct pairs, OV dropped
    pk = uniq(lo[~is_ov] * np.int64(n) + hi[~is_ov])
    pw_lo, pw_hi = pk // n, pk % n
    total = int((size * (size - 1) // 2).sum())
    npairs = total - len(c) + len(pw_lo)
    plen = _partner_len(frags, mem_cls, mem_frag, lo[is_ov], hi[is_ov])
    return FoldPairs(mem_cls=mem_cls, mem_frag=mem_frag, exc_cls=c, exc_lo=lo, exc_hi=hi,
                     pw_lo=pw_lo, pw_hi=pw_hi, npairs=npairs, partner_len=plen,
                     shared=bool(len(sh)))


def same_file_overlap(frags, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Same file and a positive raw overlap (the extra Pgoldclus exclusion, §4.4)."""
    f, on, off = frags.file, frags.onset, frags.offset
    return (f[lo] == f[hi]) & (np.minimum(off[lo], off[hi]) - np.maximum(on[lo], on[hi]) > 0)


def row_pairs(group: np.ndarray, budget: int | None = None):
    """Yield (i, j) arrays, i < j, of all pairs of rows with equal `group` (sorted), in chunks
    of about `budget` (default chunk(2)) pairs: the per-class pairs of histogram rows (distinct
    marks, lengths)."""
    budget = chunk(2) if budget is None else budget
    start, size = runs(group)
    npair = size * (size - 1) // 2
    g = 0
    while g < len(start):
        if npair[g] > budget:                           # one big group: blocks of rows
            s, k = int(start[g]), int(size[g])
            step = max(1, budget // k)
            for r0 in range(0, k - 1, step):
                r1 = min(k - 1, r0 + step)
                cnt = k - 1 - np.arange(r0, r1)
                i = np.repeat(np.arange(r0, r1), cnt)
                j = i + 1 + (np.arange(int(cnt.sum())) - np.repeat(np.cumsum(cnt) - cnt, cnt))
                yield s + i, s + j
            g += 1
            continue
        acc = np.cumsum(npair[g:])
        h = g + max(1, int(np.searchsorted(acc, budget, side="right")))
        lo, hi = int(start[g]), int(start[h - 1] + size[h - 1])
        i, j = combinations_in_groups(group[lo:hi])
        yield lo + i, lo + j
        g = h


def class_histogram(mem_cls: np.ndarray, value: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows (class, value, count) of the memberships, sorted by (class, value)."""
    if len(mem_cls) == 0:
        z = np.zeros(0, np.int64)
        return z, z, z
    o = np.lexsort((value, mem_cls))
    c, v = mem_cls[o], value[o]
    new = np.ones(len(c), dtype=bool)
    new[1:] = (c[1:] != c[:-1]) | (v[1:] != v[:-1])
    first = np.flatnonzero(new)
    return c[first], v[first], np.diff(np.append(first, len(c)))
