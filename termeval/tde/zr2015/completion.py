"""Substring completion (spec §4.3) counted: Psubs and I = Psubs n Pgold without listing pairs.

For an ordered pair (a, b) of PW (both orientations are in Psubs) the completed sub-pairs are the
diagonal windows (x in T(a), y in T(b)) of one length L = 3..min(na, nb, 19): with d = nb - na,
offsets satisfy oy - ox in [min(0, d), max(0, d)]. For a clean pair (termeval.tde.zr2015.foldpairs)
these sub-pairs are produced by no other pair and never overlap, so, per class:
  |Psubs|             = sum over ordered pairs of nwin(na, nb), from the class's length histogram
  nmatch(t, Psubs)    = sum over members b and lengths n of (#members of length n, b excluded)
                        x mult(n, nb, L, oy) over the windows (oy, L) of T(b) with code t
  nmatch(t, I)        = pairs of gold windows (same class c, length L, gold class g) of two
                        members, at compatible offsets: counted on rows (c, L, g, n, o, code)
  flat(Psubs)         = the windows of b with L <= its longest partner's run (positions)
The listed exception occurrences are subtracted with the same formulas (enumerated, as if clean)
and their exact sub-pairs (deduplicated, OV-tested) added by `exact_subpairs`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from termeval.tde.zr2015.foldpairs import FoldPairs, class_histogram, row_pairs
from termeval.tde.zr2015.pairs import chunk, class_ranges, dense_codes, uniq

MINSUB, MAXSUB = 3, 19   # completion windows: range(3, min(n + 1, 20))
ALL = (MINSUB, MAXSUB)   # a band of window lengths (lo, hi): the windows with lo <= L <= hi
KL = 32                  # sub-fragment key = phone start * KL + length


@dataclass(frozen=True)
class GoldLookup:
    """The gold class of sub-fragment keys (-1: not a gold fragment of the fold), and whether
    that class is the window's n-gram type code (`codes`: the generated n-gram classes, whose
    class of a window is its type: completion then needs no second lookup of the code)."""
    of: Callable[[np.ndarray], np.ndarray]
    codes: bool

    def __call__(self, keys: np.ndarray) -> np.ndarray:
        return self.of(keys)


def templates(smax: int, band: tuple[int, int] = ALL):
    """For each transcription length s: the windows (L, i) of the equal-length rule."""
    tl, ti, start = [], [], np.zeros(smax + 2, dtype=np.int64)
    lo, hi = max(band[0], MINSUB), min(band[1], MAXSUB)
    for s in range(smax + 1):
        for L in range(lo, min(s + 1, hi + 1)):
            for i in range(0, s - L + 1):
                tl.append(L)
                ti.append(i)
        start[s + 1] = len(tl)
    return np.array(tl, dtype=np.int64), np.array(ti, dtype=np.int64), start


def windows(n: np.ndarray, cap: np.ndarray | None = None, band: tuple[int, int] = ALL):
    """(owner row, L, offset) of every window of rows of length n with L in the band (and
    L <= cap when given)."""
    n = np.asarray(n, dtype=np.int64)
    if len(n) == 0:
        z = np.zeros(0, np.int64)
        return z, z, z
    tl, ti, ts = templates(int(n.max()), band)
    cnt = ts[n + 1] - ts[n]
    own = np.repeat(np.arange(len(n)), cnt)
    j = ts[n][own] + np.arange(int(cnt.sum())) - np.repeat(np.cumsum(cnt) - cnt, cnt)
    L, o = tl[j], ti[j]
    if cap is not None:
        keep = L <= cap[own]
        own, L, o = own[keep], L[keep], o[keep]
    return own, L, o


def nwin(n1: np.ndarray, n2: np.ndarray, band: tuple[int, int] = ALL) -> np.ndarray:
    """Number of completed sub-pairs (of lengths in the band) of one ordered pair of run
    lengths n1, n2."""
    return windows_count(np.minimum(n1, n2), band) * (np.abs(n1 - n2) + 1)


def mult(na, nb, L, oy) -> np.ndarray:
    """Number of x windows of T(a) aligned with the window (oy, L) of T(b)."""
    d = nb - na
    lo = np.maximum(0, oy - np.maximum(d, 0))
    hi = np.minimum(na - L, oy + np.maximum(-d, 0))
    return np.maximum(hi - lo + 1, 0)


def pair_windows(ra, na, rb, nb, band: tuple[int, int] = ALL):
    """Yield (x key, y key) of every diagonal window (length in the band) of the ordered
    pairs (a, b), pairs by ranges of about chunk(4) windows."""
    for lo, hi in class_ranges(None, nwin(na, nb, band), chunk(4)):
        own, L, oy = windows(nb[lo:hi], band=band)
        m = mult(na[lo:hi][own], nb[lo:hi][own], L, oy)
        own, L, oy = np.repeat(own, m), np.repeat(L, m), np.repeat(oy, m)
        d = (nb - na)[lo:hi][own]
        first = np.repeat(np.cumsum(m) - m, m)
        ox = np.maximum(0, oy - np.maximum(d, 0)) + (np.arange(len(own)) - first)
        yield ((ra[lo:hi][own] + ox) * KL + L, (rb[lo:hi][own] + oy) * KL + L)


class Counter:
    """Signed integer counts per n-gram code (added arrays summed per code every chunk(4)
    entries or so: memory ~ the distinct codes)."""

    def __init__(self):
        self.codes: list[np.ndarray] = []
        self.vals: list[np.ndarray] = []
        self.size = 0
        self.compact = chunk(4)

    def add(self, codes: np.ndarray, w) -> None:
        codes = np.asarray(codes, dtype=np.int64)
        self.codes.append(codes)
        self.vals.append(np.broadcast_to(np.asarray(w, dtype=np.int64), np.shape(codes)))
        self.size += len(codes)
        if self.size > self.compact and len(self.codes) > 1:
            u, v = self._summed()
            self.codes, self.vals, self.size = [u], [v], len(u)
            if self.size > self.compact // 2:          # many distinct codes: compact less often
                self.compact = 2 * self.size

    def _summed(self) -> tuple[np.ndarray, np.ndarray]:
        c = np.concatenate(self.codes)
        v = np.concatenate(self.vals)
        self.codes, self.vals = [], []
        c, v = _by_code(c, v)
        if len(c) == 0:
            return c, v
        start = np.flatnonzero(np.concatenate(([True], c[1:] != c[:-1])))
        return c[start], np.add.reduceat(v, start)

    def result(self) -> tuple[np.ndarray, np.ndarray]:
        """(sorted codes, counts) of the codes with a positive count."""
        if not self.codes:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        u, v = self._summed()
        keep = v > 0
        return u[keep], v[keep]


def _by_code(c: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    o = np.argsort(c, kind="stable")
    return c[o], v[o]


def clean_counts(frags, fp: FoldPairs, idx, gold_class: GoldLookup, s_cnt: Counter, i_cnt: Counter,
                 band: tuple[int, int] = ALL) -> int:
    """Add the counted nmatch(t, Psubs) and nmatch(t, I) of the clean pairs (with the
    exception occurrences subtracted as counted) to s_cnt, i_cnt; return their |Psubs|: the
    sub-pairs of lengths in the band only (each length's counts are its own)."""
    mc, mf = fp.mem_cls, fp.mem_frag
    ln = frags.run_len
    mark, _ = dense_codes(frags.mark, len(frags.marks))     # in order, sized by the fold
    elo, ehi = fp.exc_lo, fp.exc_hi
    # |Psubs|: ordered pairs of length-histogram rows
    hc, hn, hh = class_histogram(mc, ln[mf])
    total = int((hh * (hh - 1) * nwin(hn, hn, band)).sum())
    for i, j in row_pairs(hc):
        total += int((2 * hh[i] * hh[j] * nwin(hn[i], hn[j], band)).sum())
    total -= int(2 * nwin(ln[elo], ln[ehi], band).sum())
    # nmatch(t, Psubs): weights W(mark of b, length of a)
    mcls, mm, mcnt = class_histogram(mc, mark[mf])
    cstart = np.searchsorted(hc, mcls, side="left")
    cnum = np.searchsorted(hc, mcls, side="right") - cstart
    r = np.repeat(np.arange(len(mm)), cnum)
    hrow = np.repeat(cstart, cnum) + np.arange(int(cnum.sum())) - np.repeat(np.cumsum(cnum) - cnum, cnum)
    rep = np.zeros(int(mark.max()) + 1 if len(mark) else 1, dtype=np.int64)
    rep[mark[mf]] = mf                                    # one fragment per mark
    mlen = ln[rep] if len(ln) else np.zeros(len(rep), dtype=np.int64)
    wm = np.concatenate([mm[r], mark[ehi], mark[elo]])
    wn = np.concatenate([hn[hrow], ln[elo], ln[ehi]])
    ww = np.concatenate([mcnt[r] * (hh[hrow] - (hn[hrow] == mlen[mm[r]])),
                         -np.ones(2 * len(elo), dtype=np.int64)])
    nmax = np.int64(ln.max() + 1 if len(ln) else 1)
    u, inv = np.unique(wm * nmax + wn, return_inverse=True)
    W = np.zeros(len(u), dtype=np.int64)
    np.add.at(W, inv, ww)
    keep = W != 0
    um, un, W = u[keep] // nmax, u[keep] % nmax, W[keep]
    own, L, oy = windows(mlen[um], band=band)
    m = mult(un[own], mlen[um][own], L, oy) * W[own]
    s_cnt.add(idx.code(frags.run_start[rep[um]][own] + oy, L), m)
    # nmatch(t, I): gold windows of the members, a range of classes at a time (memory)
    for lo, hi in class_ranges(mc, windows_count(ln[mf], band)):
        _gold_rows(frags, mc[lo:hi], mf[lo:hi], idx, gold_class, i_cnt, band)
    # subtract the exception occurrences as counted (no OV test, no deduplication)
    rs = frags.run_start
    for a, b in ((elo, ehi), (ehi, elo)):
        for x, y in pair_windows(rs[a], ln[a], rs[b], ln[b], band):
            cx, cy = gold_class(x), gold_class(y)
            hit = (cx >= 0) & (cx == cy)
            i_cnt.add(idx.code(y[hit] // KL, y[hit] % KL), -1)
    return total


def windows_count(n: np.ndarray, band: tuple[int, int] = ALL) -> np.ndarray:
    """Number of completion windows (lengths in the band) of runs of length n:
    sum over L = lo..min(n, hi) of n - L + 1."""
    lo, hi = max(band[0], MINSUB), min(band[1], MAXSUB)
    n = np.asarray(n, dtype=np.int64)
    k = np.minimum(n, hi)
    return np.where(k >= lo, (k - lo + 1) * (n + 1) - (k * (k + 1) // 2 - lo * (lo - 1) // 2), 0)


def _gold_rows(frags, mc: np.ndarray, mf: np.ndarray, idx, gold_class: GoldLookup, i_cnt: Counter,
               band: tuple[int, int] = ALL) -> None:
    """nmatch(t, I) of the clean pairs of the memberships (mc, mf) (whole classes): pairs of
    gold windows (same class c, length L, gold class g) of two members at compatible offsets,
    counted on rows (c, L, g, n, o, code)."""
    ln = frags.run_len
    d2 = uniq(mf)
    own, L, o = windows(ln[d2], band=band)
    start = frags.run_start[d2][own] + o
    g = gold_class(start * KL + L)
    ok = g >= 0
    gf, gL, go, gg = d2[own[ok]], L[ok], o[ok], g[ok]
    gcode = gg if gold_class.codes else idx.code(start[ok], gL)
    gs = np.searchsorted(gf, mf, side="left")
    gnum = np.searchsorted(gf, mf, side="right") - gs
    mrow = np.repeat(np.arange(len(mf)), gnum)
    grow = np.repeat(gs, gnum) + np.arange(int(gnum.sum())) - np.repeat(np.cumsum(gnum) - gnum, gnum)
    cols = [mc[mrow], gL[grow], gg[grow], ln[mf][mrow], go[grow], gcode[grow]]
    if len(mrow):
        o2 = np.lexsort(cols[::-1])
        cols = [c[o2] for c in cols]
        new = np.ones(len(o2), dtype=bool)
        new[1:] = np.any([c[1:] != c[:-1] for c in cols], axis=0)
        first = np.flatnonzero(new)
        cnt = np.diff(np.append(first, len(o2)))
        ec, eL, eg, en, eo, ecode = (c[first] for c in cols)
        bucket = np.cumsum(np.concatenate(([True], (ec[1:] != ec[:-1]) | (eL[1:] != eL[:-1])
                                           | (eg[1:] != eg[:-1])))) - 1
        i_cnt.add(ecode, cnt * (cnt - 1))                    # same row: diagonal windows
        for p, q in row_pairs(bucket):
            for x, y in ((p, q), (q, p)):
                d = en[y] - en[x]
                dd = eo[y] - eo[x]
                ok = (dd >= np.minimum(d, 0)) & (dd <= np.maximum(d, 0))
                i_cnt.add(ecode[y][ok], (cnt[x] * cnt[y])[ok])


def flat_windows(frags, fp: FoldPairs, band: tuple[int, int] = ALL) -> np.ndarray:
    """Sorted distinct keys of flat(Psubs) (lengths in the band): windows of each fragment
    no longer than its longest PW partner's run (any partner that long aligns with every such
    window)."""
    j = np.flatnonzero(fp.partner_len >= MINSUB)
    ranges = list(class_ranges(None, windows_count(frags.run_len[j], band), chunk(4)))   # (memory)
    if len(ranges) <= 1:
        return _window_keys(frags, fp, j, band) if ranges else np.zeros(0, np.int64)
    keys = np.concatenate([_window_keys(frags, fp, j[lo:hi], band) for lo, hi in ranges])
    keys.sort()                              # in place: the distinct keys without a copy
    new = np.empty(len(keys), dtype=bool)
    new[:1] = True
    np.not_equal(keys[1:], keys[:-1], out=new[1:])
    return keys[new]


def _window_keys(frags, fp: FoldPairs, jj: np.ndarray, band: tuple[int, int]) -> np.ndarray:
    """Sorted distinct keys of the windows of the fragments jj no longer than their longest
    partner's run."""
    own, L, o = windows(frags.run_len[jj], cap=fp.partner_len[jj], band=band)
    return uniq((frags.run_start[jj][own] + o) * KL + L)


def exact_subpairs(frags, lo: np.ndarray, hi: np.ndarray,
                   band: tuple[int, int] = ALL) -> tuple[np.ndarray, np.int64]:
    """(Psubs (lengths in the band) of the listed pairs (both orientations), deduplicated,
    as x key * M + y key; M)."""
    M = np.int64(KL)
    if len(frags):
        M = np.int64((int((frags.run_start + frags.run_len).max()) + 1) * KL)
    rs, ln = frags.run_start, frags.run_len
    out = []
    for x, y in pair_windows(rs[lo], ln[lo], rs[hi], ln[hi], band):
        out.append(uniq(np.concatenate([x * M + y, y * M + x])))
    return (uniq(np.concatenate(out)) if out else np.zeros(0, np.int64)), M
