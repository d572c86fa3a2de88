"""Matching precision/recall (V6 zr2015-doc, V7 lrec2014; §2.7, §2.8, §3.4, §4.4), counted.

X = the set of completed pairs of the discovered pairs, Y = the gold pairs (ngrams.gold_pairs).
Simple nodes (nodes.py) are counted by string: every simple node of string A in cluster c
has the same partners by string (cnt(c, B) - [A = B]) and therefore the same completed
sub-ranges and partner counts, shifted onto its own range. Pairs with a complex node are
listed (templates shifted onto both ranges, dropped when the sides are equal or overlap,
deduplicated with np.unique). The statistics returned are counts per type code:
  fx, fxy     distinct ranges of flat(X), flat(X∩Y)
  mx, mxy     ordered pairs of X, X∩Y with their second element of that type
with fy, my from Y; `scores` turns them into P and R under either weighting.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from termeval.tde.seeddoc.common import Corpus, Strings, ratio
from termeval.tde.seeddoc.completion import template
from termeval.tde.seeddoc.ngrams import CODE, GoldPairs, Levels, range_code
from termeval.tde.seeddoc.nodes import Nodes
from termeval.tde.seeddoc.pairs import group_cross

CHUNK = 2_000_000


def _span_overlap(c: Corpus, ua: np.ndarray, la: np.ndarray, ub: np.ndarray, lb: np.ndarray,
                  rule: str) -> np.ndarray:
    """Overlap of phone ranges (ua, la), (ub, lb) under the mode's pair rule (§3.1 / §4.1)."""
    same = c.ph_file[ua] == c.ph_file[ub]
    if rule == "phone":
        return same & (ua < ub + lb) & (ub < ua + la)
    sa, ea = c.ph_on[ua], c.ph_off[ua + la - 1]
    sb, eb = c.ph_on[ub], c.ph_off[ub + lb - 1]
    o = np.minimum(ea, eb) - np.maximum(sa, sb)
    return same & (2 * o > np.minimum(ea - sa, eb - sb))


def _valid_pairs(c: Corpus, nd: Nodes, zr: bool) -> np.ndarray:
    """Distinct node pairs (a, b), a < b, at least one complex, linked by a discovered pair
    (same cluster key; zr2015-doc: the two fragments do not overlap, §3.1)."""
    if not nd.complex.any() or not len(nd.m_key):
        return np.zeros((0, 2), np.int64)
    order = np.lexsort((nd.m_frag, nd.m_key))
    key, frag = nd.m_key[order], nd.m_frag[order]
    new = np.r_[True, key[1:] != key[:-1]]
    gid = np.cumsum(new) - 1
    gstart = np.flatnonzero(new)
    gsize = np.diff(np.r_[gstart, len(key)])
    row_start, row_size = gstart[gid], gsize[gid]
    rows = np.flatnonzero(nd.complex[nd.of_frag[frag]] & (row_size > 1))
    nn = len(nd.k0)
    out = []
    # in chunks of about CHUNK fragment pairs: memory stays bounded on heavily overlapping input
    cum = np.cumsum(row_size[rows])
    cuts = np.searchsorted(cum, np.arange(CHUNK, int(cum[-1]) + CHUNK, CHUNK)) + 1 if len(rows) else []
    lo = 0
    for hi in list(cuts) + [len(rows)]:
        hi = min(int(hi), len(rows))
        if hi <= lo:
            continue
        r, o = group_cross(row_start, row_size, rows[lo:hi])
        lo = hi
        X, Y = frag[r], frag[o]
        ok = nd.of_frag[X] != nd.of_frag[Y]
        if zr:
            same = c.f_file[X] == c.f_file[Y]
            ov = np.minimum(c.f_off[X], c.f_off[Y]) - np.maximum(c.f_on[X], c.f_on[Y])
            dmin = np.minimum(c.f_off[X] - c.f_on[X], c.f_off[Y] - c.f_on[Y])
            ok &= ~(same & (2 * ov > dmin))
        na, nb = nd.of_frag[X[ok]], nd.of_frag[Y[ok]]
        out.append(np.unique(np.minimum(na, nb).astype(np.int64) * nn + np.maximum(na, nb)))
    if not out:
        return np.zeros((0, 2), np.int64)
    code = np.unique(np.concatenate(out))
    return np.stack([code // nn, code % nn], 1)


def completed_stats(c: Corpus, nd: Nodes, strings: Strings, lev: Levels, group: np.ndarray,
                    lmin: int, lmax: int, rule: str, per_type: bool = True) -> dict[str, np.ndarray]:
    """Per-type counts of X and X∩Y (see the module doc); `group` = gold group per phone.
    per_type False: one row of totals (the fragment weights need no more)."""
    text = {}

    def txt(s: int) -> tuple[int, ...]:
        if s not in text:
            text[s] = strings.text(s)
        return text[s]

    rows: dict[str, list] = {"t": [], "fx": [], "fxy": [], "mx": [], "mxy": []}
    simple_group, simple_sets, sets = _simple_rows(nd, lev, txt, lmin, lmax, per_type, rows)
    code, pn, qn, iny, width = _complex_pairs(c, nd, txt, group, lmin, lmax, rule)
    if len(code):
        _complex_rows(nd, lev, code, pn, qn, iny, width, simple_group, simple_sets, sets, per_type, rows)
    cat = (lambda xs: np.concatenate(xs) if xs else np.zeros(0, np.int64))
    return _by_type(cat(rows["t"]) if per_type else None, {k: cat(rows[k]) for k in ("fx", "fxy", "mx", "mxy")})


def _simple_rows(nd: Nodes, lev: Levels, txt, lmin: int, lmax: int, per_type: bool,
                 rows: dict) -> tuple[np.ndarray, dict, dict]:
    """The rows of the simple nodes, counted per (cluster key, string) group; returns (the group
    of each simple node (-1: complex), group -> its x-side set, group -> its X∩Y degrees)."""
    simple_group = np.full(len(nd.k0), -1, np.int64)
    simple = ~nd.complex
    sm = simple[nd.m_node]
    s_node, s_key = nd.m_node[sm], nd.m_key[sm]          # one row per simple node
    s_sid = nd.sid[s_node]
    if not len(s_node):
        return simple_group, {}, {}
    gk = np.stack([s_key, s_sid], 1)
    groups, ginv, gcnt = np.unique(gk, axis=0, return_inverse=True, return_counts=True)
    ginv = ginv.reshape(-1)
    rep = np.zeros(len(groups), np.int64)
    rep[ginv] = s_node                                  # a representative node per group
    by_key = defaultdict(list)
    for gi, (k, s) in enumerate(groups.tolist()):
        by_key[k].append((s, int(gcnt[gi])))
    sets, simple_sets = {}, {}                    # group -> X∩Y degrees, x-side set
    for gi, (k, a) in enumerate(groups.tolist()):
        degx: dict = defaultdict(int)
        degxy: dict = defaultdict(int)
        for b, nb in by_key[k]:
            m = nb - (1 if b == a else 0)
            if m <= 0:
                continue
            t = template(txt(a), txt(b), lmin, lmax)
            for i, i2, j, j2, eq in t.tolist():
                degx[(i, i2)] += m
                if eq:
                    degxy[(i, i2)] += m
        if not degx:
            continue
        sets[gi] = degxy
        simple_sets[gi] = set(degx)
        rel = np.asarray(list(degx), np.int64)
        k0 = nd.k0[rep[gi]]
        tc = lev.type_code(k0 + rel[:, 0], rel[:, 1] - rel[:, 0]) if per_type else np.zeros(len(rel), np.int64)
        n = int(gcnt[gi])
        rows["t"].append(tc)
        rows["fx"].append(np.full(len(rel), n, np.int64))
        rows["fxy"].append(np.asarray([n if degxy.get(r, 0) else 0 for r in degx], np.int64))
        rows["mx"].append(np.asarray(list(degx.values()), np.int64) * n)
        rows["mxy"].append(np.asarray([degxy.get(r, 0) for r in degx], np.int64) * n)
    simple_group[s_node] = ginv
    return simple_group, simple_sets, sets


def _complex_pairs(c: Corpus, nd: Nodes, txt, group: np.ndarray, lmin: int, lmax: int, rule: str):
    """The distinct completed pairs of the pairs with a complex node, listed: (range code pair,
    their nodes, in X∩Y, the width of a range code)."""
    pairs = _valid_pairs(c, nd, rule == "time")
    width = (len(c.ph_on) + 1) * CODE                  # range codes < width: one int64 per pair
    acc = _PairSet(width)
    if len(pairs):
        sa, sb = nd.sid[pairs[:, 0]], nd.sid[pairs[:, 1]]
        order = np.lexsort((sb, sa))
        pairs, sa, sb = pairs[order], sa[order], sb[order]
        cut = np.flatnonzero(np.r_[True, (sa[1:] != sa[:-1]) | (sb[1:] != sb[:-1]), True])
        st = c.stretch
        for lo, hi in zip(cut[:-1].tolist(), cut[1:].tolist()):
            t = template(txt(int(sa[lo])), txt(int(sb[lo])), lmin, lmax)
            if not len(t):
                continue
            pa, pb = pairs[lo:hi, 0], pairs[lo:hi, 1]
            ua = (nd.k0[pa][:, None] + t[None, :, 0]).ravel()
            la = np.broadcast_to(t[None, :, 1] - t[None, :, 0], (hi - lo, len(t))).ravel()
            ub = (nd.k0[pb][:, None] + t[None, :, 2]).ravel()
            lb = np.broadcast_to(t[None, :, 3] - t[None, :, 2], (hi - lo, len(t))).ravel()
            eq = np.broadcast_to(t[None, :, 4], (hi - lo, len(t))).ravel().astype(bool)
            keep = ~(((ua == ub) & (la == lb)) | _span_overlap(c, ua, la, ub, lb, rule))
            iny = eq & (st[ua] == st[ua + la - 1]) & (st[ub] == st[ub + lb - 1]) & (group[ua] == group[ub])
            acc.add(range_code(ua, la)[keep], range_code(ub, lb)[keep], np.repeat(pa, len(t))[keep],
                    np.repeat(pb, len(t))[keep], iny[keep])
    return (*acc.result(), width)


def _complex_rows(nd: Nodes, lev: Levels, code, pn, qn, iny, width: int, simple_group: np.ndarray,
                  simple_sets: dict, sets: dict, per_type: bool, rows: dict) -> None:
    """The rows of the listed pairs' sides; a side in a simple node may already be in flat(X) /
    flat(X∩Y) through the counted part."""
    lo_, hi_ = code // width, code % width
    side = np.r_[lo_, hi_]
    side_node = np.r_[pn, qn]
    side_y = np.r_[iny, iny]
    codes, inv = np.unique(side, return_inverse=True)
    inv = inv.reshape(-1)
    dx = np.bincount(inv, minlength=len(codes))
    dxy = np.bincount(inv, weights=side_y, minlength=len(codes)).astype(np.int64)
    cnode = np.zeros(len(codes), np.int64)
    cnode[inv] = side_node
    k, L = codes // CODE, codes % CODE
    g = simple_group[cnode]
    rel0 = k - nd.k0[cnode]
    in_x = np.zeros(len(codes), bool)
    in_xy = np.zeros(len(codes), bool)
    for i in np.flatnonzero(g >= 0).tolist():
        r = (int(rel0[i]), int(rel0[i] + L[i]))
        in_x[i] = r in simple_sets.get(int(g[i]), ())
        in_xy[i] = sets.get(int(g[i]), {}).get(r, 0) > 0
    rows["t"].append(lev.type_code(k, L) if per_type else np.zeros(len(k), np.int64))
    rows["fx"].append((~in_x).astype(np.int64))
    rows["fxy"].append(((dxy > 0) & ~in_xy).astype(np.int64))
    rows["mx"].append(dx.astype(np.int64))
    rows["mxy"].append(dxy)


class _PairSet:
    """Distinct completed pairs {u, v} (range codes), with the nodes they came from and
    whether they are gold; reduced with np.unique whenever REDUCE rows have piled up."""
    REDUCE = 4_000_000

    def __init__(self, width: int) -> None:
        self.width = width
        self.parts: list[tuple[np.ndarray, ...]] = []
        self.rows = 0
        self.limit = self.REDUCE

    def add(self, u, v, un, vn, iny) -> None:
        swap = u > v
        code = np.minimum(u, v) * self.width + np.maximum(u, v)
        self.parts.append((code, np.where(swap, vn, un), np.where(swap, un, vn), iny))
        self.rows += len(code)
        if self.rows > self.limit:          # amortised: at most doubling between reductions
            self.parts = [self._reduce()]
            self.rows = len(self.parts[0][0])
            self.limit = max(self.REDUCE, 2 * self.rows)

    def _reduce(self) -> tuple[np.ndarray, ...]:
        cols = [np.concatenate([p[i] for p in self.parts]) for i in range(4)]
        _, first = np.unique(cols[0], return_index=True)
        return tuple(col[first] for col in cols)

    def result(self) -> tuple[np.ndarray, ...]:
        if not self.parts:
            z = np.zeros(0, np.int64)
            return z, z, z, z.astype(bool)
        return self._reduce()


def _by_type(tcode: np.ndarray | None, cols: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Column sums per type code (tcode None: one row of totals)."""
    if tcode is None:
        return {"type": np.zeros(1, np.int64), **{k: np.asarray([int(v.sum())], np.int64) for k, v in cols.items()}}
    types, inv = np.unique(tcode, return_inverse=True)
    inv = inv.reshape(-1)
    out = {"type": types}
    for name, col in cols.items():
        out[name] = np.bincount(inv, weights=col, minlength=len(types)).astype(np.int64)
    return out


def gold_stats(gp: GoldPairs, per_type: bool = True) -> dict[str, np.ndarray]:
    return _by_type(gp.tcode if per_type else None, {"fy": np.ones(len(gp.k), np.int64), "my": gp.degree})


def scores(xs: dict[str, np.ndarray], ys: dict[str, np.ndarray], weights: str) -> tuple[float | None, float | None]:
    """P and R from the per-type counts: weights "fragments" (§2.8: |flat(X∩Y)|/|flat(X)|,
    |flat(X∩Y)|/|flat(Y)|) or "ordered-pairs" (004 eq. 1 with second-element weights)."""
    if weights == "fragments":
        return ratio(xs["fxy"].sum(), xs["fx"].sum()), ratio(xs["fxy"].sum(), ys["fy"].sum())
    fx_tot, fy_tot = xs["fx"].sum(), ys["fy"].sum()
    p = None
    if fx_tot:
        sel = xs["fx"] > 0
        p = float(np.sum(xs["fx"][sel] / fx_tot * xs["mxy"][sel] / xs["mx"][sel]))
    r = None
    if fy_tot:
        mxy = np.zeros(len(ys["type"]), np.int64)
        pos = np.searchsorted(xs["type"], ys["type"])
        pos = np.minimum(pos, max(len(xs["type"]) - 1, 0))
        hit = (len(xs["type"]) > 0) & (xs["type"][pos] == ys["type"]) if len(xs["type"]) else np.zeros(len(ys["type"]), bool)
        mxy[hit] = xs["mxy"][pos[hit]]
        sel = ys["fy"] > 0
        r = float(np.sum(ys["fy"][sel] / fy_tot * mxy[sel] / ys["my"][sel]))
    return p, r
