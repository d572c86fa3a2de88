"""Matching precision/recall with substring completion (spec §4.3, §10), by counting.

* n-gram types: `NgramIndex` (termeval.zr2015.ngrams) gives every window (phone start i, length
  L <= 20) inside one segment an exact integer type code, so marks of sub-fragments are integers.
* Psubs: for every pair of Pdisc = PW(R2(D, F)), every gapless diagonal window of the shorter
  transcription inside the longer one, lengths 3..min(n, 19) (the original's exclusive bound
  20), in both orientations; counted for the clean pairs, listed as integer keys (phone start *
  32 + L) and deduplicated for the exceptions (termeval.zr2015.completion).
* Pgold = PWo(R2(G, F)) is never built: a completed pair (x, y) is gold iff x and y are gold
  fragments of the fold in the same gold class and not OV(x, y) (file-blind); nmatch(t, Pgold)
  and w(t, Pgold) come from per-class occurrence counts minus the OV pairs found by a sweep.
* P = sum_t w(t, Psubs) nmatch(t, I) / nmatch(t, Psubs), R = sum_t w(t, Pgold) nmatch(t, I) /
  nmatch(t, Pgold), nmatch counting ordered pairs by the mark of their second element.
"""
from __future__ import annotations

import math

import numpy as np

from termeval.zr2015.completion import KL, Counter, clean_counts, exact_subpairs, flat_windows
from termeval.zr2015.corpus import Fragments, Segmented, ov
from termeval.zr2015.foldpairs import FoldPairs
from termeval.zr2015.ngrams import MAXN, FoldGold, NgramIndex, ngram_classes  # noqa: F401 (re-exported)
from termeval.zr2015.pairs import overlapping_pairs, uniq, uniq_counts, uniq_inverse


def gold_codes(g: Fragments, idx: NgramIndex) -> tuple[np.ndarray, np.ndarray]:
    """(type code, key) of gold fragments: the n-gram code of their transcription (codes beyond
    the n-gram range for marks that are not n-grams <= 20), and the sub-fragment key when the
    span is phone-exact (-1 otherwise: it can equal no completed fragment)."""
    if getattr(g, "generated", False):
        return g.mark, g.run_start * KL + g.run_len
    code = idx.code(g.run_start, g.run_len)
    code = np.where(code >= 0, code, idx.ntypes + g.mark)
    last = np.maximum(g.run_start + g.run_len - 1, 0)
    exact = (g.run_len > 0) & (g.run_len < KL)
    exact &= (idx_on(idx, g.run_start) == g.onset) & (idx_off(idx, last) == g.offset)
    key = np.where(exact, g.run_start * KL + g.run_len, -1)
    return code, key


def idx_on(idx: NgramIndex, i):
    return idx.onset[np.clip(i, 0, idx.n - 1)] if idx.n else np.zeros(len(i))


def idx_off(idx: NgramIndex, i):
    return idx.offset[np.clip(i, 0, idx.n - 1)] if idx.n else np.zeros(len(i))


def _count(codes: np.ndarray):
    return uniq_counts(codes)


def _lookup_counts(u: np.ndarray, cu: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Counts cu of the sorted keys u at the queries q (0 where absent)."""
    if len(u) == 0:
        return np.zeros(len(q), dtype=np.int64)
    pos = np.clip(np.searchsorted(u, q), 0, len(u) - 1)
    return np.where(u[pos] == q, cu[pos], 0)


def gold_side(gold: Fragments | FoldGold, idx: NgramIndex, mode: str):
    """Pgold of R1(G, F), counted: (codes ug with nmatch(t, Pgold) = n_gold, w(t, Pgold) as
    (codes, counts), |flat|, gold class of sub-fragment keys (-1: not a gold fragment of the
    fold)). `gold` is the fold's view of listed gold classes (a `<prefix>.classes` file, every
    fragment inside the fold) or the generated n-gram classes of the fold (ngrams.fold_gold)."""
    if isinstance(gold, FoldGold):
        return gold.ug, gold.n_gold, (gold.w_u, gold.w_c), gold.n_flat, gold.gold_class
    gcode, gkey = gold_codes(gold, idx)
    # one fragment may be listed in several classes only for hand-made gold files
    ofr, ocl = gold.occ_frag, gold.occ_cls
    cnt = np.bincount(ocl, minlength=gold.nclasses)
    keep = cnt[ocl] >= 2
    if not keep.all():
        ofr, ocl = ofr[keep], ocl[keep]
    del keep
    # OV pairs among the members of each class (file-blind)
    i, j = overlapping_pairs(ocl, gold.onset[ofr], gold.offset[ofr])
    a, b = ofr[i], ofr[j]
    bad = ov(gold.onset[a], gold.offset[a], gold.onset[b], gold.offset[b], mode) | (a == b)
    deg = cnt[ocl].astype(np.int64) - 1
    np.subtract.at(deg, i[bad], 1)
    np.subtract.at(deg, j[bad], 1)
    # nmatch(t, Pgold): ordered pairs by the mark of the second element = sum of degrees
    ug, inv = uniq_inverse(gcode[ofr])
    n_gold = np.bincount(inv, weights=deg).astype(np.int64)
    del inv
    flat_g = uniq(ofr[deg > 0])
    w_gold = _count(gcode[flat_g])
    gk = gkey[ofr]
    if len(gk) > 1 and not np.all(gk[1:] >= gk[:-1]):    # generated n-grams come sorted
        o = np.argsort(gk, kind="stable")
        gk, ocl = gk[o], ocl[o]

    def gold_class(k):
        if len(gk) == 0:
            return np.full(len(k), -1, dtype=np.int64)
        pos = np.clip(np.searchsorted(gk, k), 0, len(gk) - 1)
        return np.where(gk[pos] == k, ocl[pos], -1)
    return ug, n_gold, w_gold, len(flat_g), gold_class


def weighted_codes(w_u: np.ndarray, w_c: np.ndarray, n_flat: int, i_u: np.ndarray,
                   i_c: np.ndarray, t_u: np.ndarray, t_n: np.ndarray) -> float:
    """sum over the codes t_u of w(t) nmatch(t, I) / t_n, w(t) = share of flat's windows with
    code t (codes/counts as sorted (u, c) pairs)."""
    wt = _lookup_counts(w_u, w_c, t_u) / n_flat
    return float(np.sum(wt * _lookup_counts(i_u, i_c, t_u) / t_n))


def matching(phones: Segmented, idx: NgramIndex, disc: Fragments, fp: FoldPairs,
             gold: Fragments | FoldGold, mode: str):
    """(precision, recall, extra counts) of one fold; fp = the counted PW(R2(D, F)) (built with
    sharing=True), gold = the view R1(G, F) (termeval.zr2015.foldview) or the fold's generated
    n-gram classes (termeval.zr2015.ngrams.fold_gold)."""
    ug, n_gold, (w_gold_u, w_gold_c), n_flat_g, gold_class = gold_side(gold, idx, mode)

    # --- Psubs and I: clean pairs counted, exceptions exactly
    s_cnt, i_cnt = Counter(), Counter()
    nsubs = clean_counts(disc, fp, idx, gold_class, s_cnt, i_cnt)
    psubs, M = exact_subpairs(disc, fp.pw_lo, fp.pw_hi)
    nsubs += len(psubs)
    x, y = psubs // M, psubs % M
    ux, xinv = np.unique(np.concatenate([x, y]), return_inverse=True)
    ucls = gold_class(ux)
    cx, cy = ucls[xinv[:len(x)]], ucls[xinv[len(x):]]
    xs, xl = x // KL, x % KL
    ys, yl = y // KL, y % KL
    xon, xoff = phones.onset[xs], phones.offset[xs + xl - 1]
    yon, yoff = phones.onset[ys], phones.offset[ys + yl - 1]
    inter = (cx >= 0) & (cx == cy) & ~ov(xon, xoff, yon, yoff, mode)
    ycode = idx.code(ys, yl)
    s_cnt.add(ycode, 1)
    i_cnt.add(ycode[inter], 1)
    s_u, s_c = s_cnt.result()
    i_u, i_c = i_cnt.result()
    extra = {"matching_pdisc_pairs": int(2 * fp.npairs), "matching_psubs_pairs": int(nsubs),
             "matching_intersection_pairs": int(i_c.sum())}
    # --- precision
    if nsubs == 0:
        prec = math.nan
    else:
        fu = flat_windows(disc, fp)          # flat(Psubs): every fragment occurs as second too
        w_u, w_c = _count(idx.code(fu // KL, fu % KL))
        prec = weighted_codes(w_u, w_c, len(fu), i_u, i_c, s_u, s_c)
    if n_gold.sum() == 0:
        rec = math.nan
    else:
        t = n_gold > 0
        rec = weighted_codes(w_gold_u, w_gold_c, n_flat_g, i_u, i_c, ug[t], n_gold[t])
    return prec, rec, extra
