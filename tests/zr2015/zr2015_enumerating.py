"""The enumerating zr2015/zr2017 pair metrics (the implementation termeval replaced), kept only as
the brute-force cross-check of the counting one: PW is listed as (lo, hi) arrays, Psubs as keys.
Exponential in nothing, quadratic in class sizes: for small test inputs only."""
from __future__ import annotations

import math

import numpy as np

from termeval.tde.zr2015.completion import templates
from termeval.tde.zr2015.corpus import ov
from termeval.tde.zr2015.grouping import pgoldclus, weighted
from termeval.tde.zr2015.folds import contained
from termeval.tde.zr2015.matching import KL, _count, gold_codes, weighted_codes
from termeval.tde.zr2015.ngrams import ngram_classes
from termeval.tde.zr2015.pairs import combinations_in_groups, overlapping_pairs, uniq


def within_class_pairs(frags, occ_keep: np.ndarray, mode: str) -> tuple[np.ndarray, np.ndarray]:
    """PW of the kept occurrences of `frags` (a corpus.Fragments)."""
    idx = np.flatnonzero(occ_keep)
    i, j = combinations_in_groups(frags.occ_cls[idx])
    fa, fb = frags.occ_frag[idx[i]], frags.occ_frag[idx[j]]
    lo, hi = np.minimum(fa, fb), np.maximum(fa, fb)
    keep = lo != hi
    lo, hi = lo[keep], hi[keep]
    keep = ~ov(frags.onset[lo], frags.offset[lo], frags.onset[hi], frags.offset[hi], mode)
    lo, hi = lo[keep], hi[keep]
    key = uniq(lo * np.int64(len(frags)) + hi)
    return key // len(frags), key % len(frags)


def ned_enum(frags, lo: np.ndarray, hi: np.ndarray, cache: NedCache) -> tuple[float, int, int]:
    """(NED, number of pairs, number of empty-vs-empty pairs) of one fold."""
    if len(lo) == 0:
        return math.nan, 0, 0
    ma, mb = frags.mark[lo], frags.mark[hi]
    dist = cache.distances(ma, mb).astype(np.float64)
    den = np.maximum(cache.lens[ma], cache.lens[mb]).astype(np.float64)
    empty = den == 0
    vals = np.where(empty, 1.0, dist / np.where(empty, 1.0, den))
    return float(np.mean(vals)), int(len(lo)), int(np.count_nonzero(empty))


def grouping_enum(frags, lo: np.ndarray, hi: np.ndarray, in_d2: np.ndarray, mode: str) -> tuple[float, float]:
    nm = len(frags.marks)
    mark, f, on, off = frags.mark, frags.file, frags.onset, frags.offset
    # Pclus
    n_p = np.bincount(mark[hi], minlength=nm)
    flat = np.unique(np.concatenate([lo, hi]))
    w_p = np.bincount(mark[flat], minlength=nm)
    same_file_overlap = (f[lo] == f[hi]) & (np.minimum(off[lo], off[hi]) - np.maximum(on[lo], on[hi]) > 0)
    inter = (mark[lo] == mark[hi]) & ~same_file_overlap
    n_i = np.bincount(mark[hi][inter], minlength=nm)
    n_g, w_g, n_flat_g = pgoldclus(frags, mark, nm, in_d2, mode)     # not about PW: shared
    prec = math.nan if len(lo) == 0 else weighted(w_p, len(flat), n_i, n_p)
    rec = math.nan if n_g.sum() == 0 else weighted(w_g, n_flat_g, n_i, n_g)
    return prec, rec


def completion_keys(ra: np.ndarray, na: np.ndarray, rb: np.ndarray, nb: np.ndarray,
                    M: np.int64, chunk: int = 4_000_000) -> np.ndarray:
    """Unique ordered sub-pair keys (x key, y key) packed as x * M + y, for the pairs (a, b)
    in this orientation only (psubstrings of the original)."""
    s = np.minimum(na, nb)
    if len(s) == 0:
        return np.zeros(0, dtype=np.int64)
    tl, ti, tstart = templates(int(s.max()))
    per = (tstart[s + 1] - tstart[s]) * (np.abs(na - nb) + 1)
    out = []
    cum = np.cumsum(per)
    lo = 0
    while lo < len(s):
        hi = int(np.searchsorted(cum, (cum[lo - 1] if lo else 0) + chunk, side="right"))
        hi = max(hi, lo + 1)
        sl = slice(lo, hi)
        c = per[sl]
        tot = int(c.sum())
        if tot:
            p = np.repeat(np.arange(hi - lo), c)
            first = np.cumsum(c) - c
            local = np.arange(tot, dtype=np.int64) - first[p]
            ss = s[sl][p]
            t = tstart[ss + 0]
            tcount = (tstart[ss + 1] - t)
            k = local // tcount
            j = t + local % tcount
            L, i = tl[j], ti[j]
            a_short = (na[sl] <= nb[sl])[p]
            x = ra[sl][p] + i + np.where(a_short, 0, k)
            y = rb[sl][p] + i + np.where(a_short, k, 0)
            out.append(uniq((x * KL + L) * M + (y * KL + L)))
        lo = hi
    return uniq(np.concatenate(out)) if out else np.zeros(0, dtype=np.int64)


def matching_enum(phones: Segmented, idx: NgramIndex, disc: Fragments, lo: np.ndarray,
             hi: np.ndarray, gold: Fragments, fold: Intervals, mode: str):
    """(precision, recall, extra counts) of one fold; lo/hi = PW(R2(D, F))."""
    M = np.int64(len(phones) * KL)
    # --- Psubs
    ra, na = disc.run_start[lo], disc.run_len[lo]
    rb, nb = disc.run_start[hi], disc.run_len[hi]
    u = completion_keys(ra, na, rb, nb, M)
    sw = (u % M) * M + u // M
    psubs = uniq(np.concatenate([u, sw]))
    extra = {"matching_pdisc_pairs": int(2 * len(lo)), "matching_psubs_pairs": int(len(psubs))}
    # --- gold fragments of the fold
    gcode, gkey = gold_codes(gold, idx)
    g_in = contained(fold, gold.file, gold.onset, gold.offset)
    gi = np.flatnonzero(g_in)
    gcls = gold.occ_cls
    # one fragment may be listed in several classes only for hand-made gold files; the fold's
    # gold fragments are the occurrences inside the fold
    occ = np.flatnonzero(g_in[gold.occ_frag])
    ofr, ocl = gold.occ_frag[occ], gcls[occ]
    cnt = np.bincount(ocl, minlength=gold.nclasses)
    keep = cnt[ocl] >= 2
    ofr, ocl = ofr[keep], ocl[keep]
    # OV pairs among the members of each class (file-blind)
    i, j = overlapping_pairs(ocl, gold.onset[ofr], gold.offset[ofr])
    a, b = ofr[i], ofr[j]
    bad = ov(gold.onset[a], gold.offset[a], gold.onset[b], gold.offset[b], mode) | (a == b)
    deg = (cnt[ocl] - 1).astype(np.int64)
    np.subtract.at(deg, i[bad], 1)
    np.subtract.at(deg, j[bad], 1)
    # nmatch(t, Pgold): ordered pairs by the mark of the second element = sum of degrees
    tcode = gcode[ofr]
    ug, inv = np.unique(tcode, return_inverse=True)
    n_gold = np.bincount(inv, weights=deg).astype(np.int64)
    flat_g = uniq(ofr[deg > 0])
    w_gold_u, w_gold_c = _count(gcode[flat_g])
    # --- I = Psubs n Pgold
    x, y = psubs // M, psubs % M
    gk_order = np.argsort(gkey[ofr], kind="stable")
    gk_sorted = gkey[ofr][gk_order]
    gk_cls = ocl[gk_order]

    def gold_class(k):
        pos = np.clip(np.searchsorted(gk_sorted, k), 0, max(len(gk_sorted) - 1, 0))
        if len(gk_sorted) == 0:
            return np.full(len(k), -1, dtype=np.int64)
        return np.where(gk_sorted[pos] == k, gk_cls[pos], -1)

    ux, xinv = np.unique(np.concatenate([x, y]), return_inverse=True)
    ucls = gold_class(ux)
    cx, cy = ucls[xinv[:len(x)]], ucls[xinv[len(x):]]
    xs, xl = x // KL, x % KL
    ys, yl = y // KL, y % KL
    xon, xoff = phones.onset[xs], phones.offset[xs + xl - 1]
    yon, yoff = phones.onset[ys], phones.offset[ys + yl - 1]
    inter = (cx >= 0) & (cx == cy) & ~ov(xon, xoff, yon, yoff, mode)
    ycode = idx.code(ys, yl)
    extra["matching_intersection_pairs"] = int(np.count_nonzero(inter))
    i_u, i_c = _count(ycode[inter])
    # --- precision
    if len(psubs) == 0:
        prec = math.nan
    else:
        s_u, s_c = _count(ycode)
        fu = ux                              # flat(Psubs): every fragment occurs as second too
        w_u, w_c = _count(idx.code(fu // KL, fu % KL))
        prec = weighted_codes(w_u, w_c, len(fu), i_u, i_c, s_u, s_c, idx)
    if n_gold.sum() == 0:
        rec = math.nan
    else:
        t = n_gold > 0
        rec = weighted_codes(w_gold_u, w_gold_c, len(flat_g), i_u, i_c, ug[t], n_gold[t], idx)
    return prec, rec, extra


def score_pairs_enum(p, fold) -> dict:
    """NED, grouping and matching of one fold of a termeval.tde.zr2015.evaluate.Prepared, by listing
    every pair (the old score_fold)."""
    from termeval.tde.zr2015.pairs import r2_occurrences
    disc = p.disc
    d_in = contained(fold, disc.file, disc.onset, disc.offset)
    occ_r2 = r2_occurrences(disc.occ_cls, d_in[disc.occ_frag], disc.nclasses)
    in_d2 = np.zeros(len(disc), dtype=bool)
    in_d2[disc.occ_frag[occ_r2]] = True
    lo, hi = within_class_pairs(disc, occ_r2, p.mode)
    v, npairs, nempty = ned_enum(disc, lo, hi, p.ned_cache)
    gp, gr = grouping_enum(disc, lo, hi, in_d2, p.mode)
    gold = p.goldcls if p.goldcls is not None else ngram_classes(p.phones, p.ngrams, {})
    mp, mr, extra = matching_enum(p.phones, p.ngrams, disc, lo, hi, gold, fold, p.mode)
    return dict(ned=v, ned_pairs=npairs, ned_empty_pairs=nempty, grouping_precision=gp,
                grouping_recall=gr, matching_precision=mp, matching_recall=mr, **extra)
