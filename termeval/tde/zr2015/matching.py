"""Matching precision/recall with substring completion (spec §4.3, §10), by counting.

* n-gram types: `NgramIndex` (termeval.tde.zr2015.ngrams) gives every window (phone start i, length
  L <= 20) inside one segment an exact integer type code, so marks of sub-fragments are integers.
* Psubs: for every pair of Pdisc = PW(R2(D, F)), every gapless diagonal window of the shorter
  transcription inside the longer one, lengths 3..min(n, 19) (the original's exclusive bound
  20), in both orientations; counted for the clean pairs, listed as integer keys (phone start *
  32 + L) and deduplicated for the exceptions (termeval.tde.zr2015.completion).
* Pgold = PWo(R2(G, F)) is never built: a completed pair (x, y) is gold iff x and y are gold
  fragments of the fold in the same gold class and not OV(x, y) (file-blind); nmatch(t, Pgold)
  and w(t, Pgold) come from per-class occurrence counts minus the OV pairs found by a sweep.
* P = sum_t w(t, Psubs) nmatch(t, I) / nmatch(t, Psubs), R = sum_t w(t, Pgold) nmatch(t, I) /
  nmatch(t, Pgold), nmatch counting ordered pairs by the mark of their second element.
"""
from __future__ import annotations

import math

import numpy as np

from termeval.tde.zr2015.completion import (KL, MAXSUB, MINSUB, Counter, GoldLookup, clean_counts,
                                        exact_subpairs, flat_windows)
from termeval.tde.zr2015.corpus import Fragments, Segmented, ov
from termeval.tde.zr2015.foldpairs import FoldPairs
from termeval.tde.zr2015.ngrams import MAXN, FoldGold, NgramIndex, ngram_classes  # noqa: F401 (re-exported)
from termeval.tde.zr2015.pairs import chunk, overlapping_pairs, uniq, uniq_counts, uniq_inverse


def gold_codes(g: Fragments, idx: NgramIndex) -> tuple[np.ndarray, np.ndarray]:
    """(type code, key) of gold fragments: the n-gram code of their transcription (codes beyond
    the n-gram range for marks that are not n-grams <= 20), and the sub-fragment key when the
    span is phone-exact (-1 otherwise: it can equal no completed fragment)."""
    if g.generated:
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


def _in_pairs(ofr: np.ndarray, ocl: np.ndarray, cnt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The occurrences (fragment, class) of the classes with at least two (cnt: class sizes)."""
    keep = cnt[ocl] >= 2
    return (ofr, ocl) if keep.all() else (ofr[keep], ocl[keep])


def _sums_by_code(code: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct codes, the integer sum of the weights of each)."""
    u, inv = uniq_inverse(code)
    return u, np.bincount(inv, weights=weight).astype(np.int64)


def _lookup_counts(u: np.ndarray, cu: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Counts cu of the sorted keys u at the queries q (0 where absent)."""
    if len(u) == 0:
        return np.zeros(len(q), dtype=np.int64)
    pos = np.clip(np.searchsorted(u, q), 0, len(u) - 1)
    return np.where(u[pos] == q, cu[pos], 0)


def gold_side(gold: Fragments | FoldGold, idx: NgramIndex, mode: str):
    """Pgold of R1(G, F), counted: (codes ug with nmatch(t, Pgold) = n_gold, w(t, Pgold) as
    (codes, counts), |flat|, gold class of sub-fragment keys (completion.GoldLookup: -1 where
    not a gold fragment of the fold)). `gold` is the fold's view of listed gold classes (a `<prefix>.classes` file, every
    fragment inside the fold) or the generated n-gram classes of the fold (ngrams.fold_gold)."""
    if isinstance(gold, FoldGold):
        return gold.ug, gold.n_gold, (gold.w_u, gold.w_c), gold.n_flat, GoldLookup(gold.gold_class, codes=True)
    gcode, gkey = gold_codes(gold, idx)
    # one fragment may be listed in several classes only for hand-made gold files
    cnt = np.bincount(gold.occ_cls, minlength=gold.nclasses)
    ofr, ocl = _in_pairs(gold.occ_frag, gold.occ_cls, cnt)
    # OV pairs among the members of each class (file-blind)
    i, j = overlapping_pairs(ocl, gold.onset[ofr], gold.offset[ofr])
    a, b = ofr[i], ofr[j]
    bad = ov(gold.onset[a], gold.offset[a], gold.onset[b], gold.offset[b], mode) | (a == b)
    deg = cnt[ocl].astype(np.int64) - 1
    np.subtract.at(deg, i[bad], 1)
    np.subtract.at(deg, j[bad], 1)
    # nmatch(t, Pgold): ordered pairs by the mark of the second element = sum of degrees
    ug, n_gold = _sums_by_code(gcode[ofr], deg)
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
    return ug, n_gold, w_gold, len(flat_g), GoldLookup(gold_class, codes=False)


# n-gram lengths cut into bands: a cross fold's matching is scored by one --nj unit per band
# (termeval.tde.zr2015.plan), each holding only its lengths' index levels; every run, one
# process included, sums a fold's terms per band, then the bands in order (same floats).
BANDS = ((3, 3), (4, 4), (5, 5), (6, 6), (7, 8), (9, 11), (12, 15), (16, 20))
ALL_LENGTHS = (BANDS[0][0], BANDS[-1][1])


def band_sums(w_u: np.ndarray, w_c: np.ndarray, i_u: np.ndarray, i_c: np.ndarray, t_u: np.ndarray,
              t_n: np.ndarray, idx: NgramIndex) -> list[float]:
    """Per band of BANDS: sum over the codes t_u (sorted) of w(t) nmatch(t, I) / t_n (codes
    and counts as sorted (u, c) pairs; a band's codes are a slice: codes grow with L; codes
    below base[3] fall in the first band, codes beyond the n-grams in the last)."""
    terms = _lookup_counts(w_u, w_c, t_u).astype(np.float64) * _lookup_counts(i_u, i_c, t_u) / t_n
    cuts = [idx.base[hi + 1] if hi <= idx.built else np.iinfo(np.int64).max for _, hi in BANDS[:-1]]
    return [float(np.sum(x)) for x in np.split(terms, np.searchsorted(t_u, cuts))]


def weighted_codes(w_u: np.ndarray, w_c: np.ndarray, n_flat: int, i_u: np.ndarray,
                   i_c: np.ndarray, t_u: np.ndarray, t_n: np.ndarray, idx: NgramIndex) -> float:
    """sum over the codes t_u of w(t) nmatch(t, I) / t_n, w(t) = share of flat's windows with
    code t, summed as `finish` does."""
    return _ratio(band_sums(w_u, w_c, i_u, i_c, t_u, t_n, idx), n_flat)


def _ratio(per_band: list[float], n: int) -> float:
    total = 0.0
    for x in per_band:
        total += x
    return total / n if n else math.nan


def matching(phones: Segmented, idx: NgramIndex, disc: Fragments, fp: FoldPairs,
             gold: Fragments | FoldGold, mode: str, band: tuple[int, int] = ALL_LENGTHS) -> dict:
    """The additive statistics of one fold's matching for the n-gram lengths of `band` (a band
    of BANDS, or all of them); `finish` turns those of every band into (precision, recall,
    extra counts). fp = the counted PW(R2(D, F)) (built with sharing=True), gold = the view
    R1(G, F) (termeval.tde.zr2015.foldview) or the fold's generated n-gram classes
    (termeval.tde.zr2015.ngrams.fold_gold, counted for the band's lengths)."""
    ug, n_gold, (w_gold_u, w_gold_c), n_flat_g, gold_class = gold_side(gold, idx, mode)
    if band != ALL_LENGTHS and not isinstance(gold, FoldGold):
        # listed gold classes: the band's share of the gold side (codes of its lengths)
        cut = [idx.base[lo] if lo > BANDS[0][0] else np.iinfo(np.int64).min for lo in (band[0],)]
        cut.append(idx.base[band[1] + 1] if band[1] < BANDS[-1][1] else np.iinfo(np.int64).max)
        ug, n_gold = _slice(ug, n_gold, cut)
        w_gold_u, w_gold_c = _slice(w_gold_u, w_gold_c, cut)
        n_flat_g = int(w_gold_c.sum())
    sub = (max(band[0], MINSUB), min(band[1], MAXSUB))
    nsubs, (s_u, s_c), (i_u, i_c) = psubs_counts(phones, idx, disc, fp, gold_class, mode, sub)
    n_flat_s, (w_u, w_c) = flat_counts(idx, disc, fp, sub)
    t = n_gold > 0
    return {"band": list(band), "nsubs": int(nsubs), "n_flat_s": int(n_flat_s), "n_flat_g": int(n_flat_g),
            "n_gold": int(n_gold.sum()), "pdisc": int(2 * fp.npairs), "inter": int(i_c.sum()),
            "p": band_sums(w_u, w_c, i_u, i_c, s_u, s_c, idx),
            "r": band_sums(w_gold_u, w_gold_c, i_u, i_c, ug[t], n_gold[t], idx)}


def psubs_counts(phones: Segmented, idx: NgramIndex, disc: Fragments, fp: FoldPairs, gold_class: GoldLookup,
                 mode: str, sub: tuple[int, int]) -> tuple[int, tuple, tuple]:
    """(|Psubs|, nmatch(t, Psubs), nmatch(t, I)) of the completion lengths `sub`, counts as
    (sorted codes, counts): the clean pairs counted, the exceptions' sub-pairs listed."""
    s_cnt, i_cnt = Counter(), Counter()
    nsubs = clean_counts(disc, fp, idx, gold_class, s_cnt, i_cnt, sub)
    psubs, M = exact_subpairs(disc, fp.pw_lo, fp.pw_hi, sub)
    ycode, inter = _listed_subpairs(phones, idx, gold_class, psubs // M, psubs % M, mode)
    s_cnt.add(ycode, 1)
    i_cnt.add(ycode[inter], 1)
    return nsubs + len(psubs), s_cnt.result(), i_cnt.result()


def _listed_subpairs(phones: Segmented, idx: NgramIndex, gold_class: GoldLookup, x: np.ndarray, y: np.ndarray,
                     mode: str) -> tuple[np.ndarray, np.ndarray]:
    """(code of y, whether (x, y) is in I) of listed sub-pairs (sub-fragment keys x, y)."""
    ux, xinv = np.unique(np.concatenate([x, y]), return_inverse=True)
    ucls = gold_class(ux)
    cx, cy = ucls[xinv[:len(x)]], ucls[xinv[len(x):]]
    xs, xl = x // KL, x % KL
    ys, yl = y // KL, y % KL
    xon, xoff = phones.onset[xs], phones.offset[xs + xl - 1]
    yon, yoff = phones.onset[ys], phones.offset[ys + yl - 1]
    inter = (cx >= 0) & (cx == cy) & ~ov(xon, xoff, yon, yoff, mode)
    return idx.code(ys, yl), inter


def flat_counts(idx: NgramIndex, disc: Fragments, fp: FoldPairs, sub: tuple[int, int]) -> tuple[int, tuple]:
    """(|flat(Psubs)|, w(t, Psubs) as (sorted codes, counts)): every fragment occurs as second too."""
    fu = flat_windows(disc, fp, sub)
    w_cnt = Counter()
    step = chunk(2)                          # (the codes of a chunk at a time: memory)
    for a in range(0, len(fu), step):
        w_cnt.add(idx.code(fu[a:a + step] // KL, fu[a:a + step] % KL), 1)
    return len(fu), w_cnt.result()


def _slice(u: np.ndarray, c: np.ndarray, cut: list) -> tuple[np.ndarray, np.ndarray]:
    a, b = np.searchsorted(u, cut)
    return u[a:b], c[a:b]


def finish(stats: list[dict]) -> tuple[float, float, dict]:
    """(precision, recall, extra counts) of a fold from the `matching` statistics of its
    bands (one covering all of them in one process): per-band sums added in band order."""
    tot = {k: sum(st[k] for st in stats) for k in ("nsubs", "n_flat_s", "n_flat_g", "n_gold", "inter")}
    per = {k: [sum((st[k][b] for st in stats), 0.0) for b in range(len(BANDS))] for k in ("p", "r")}
    prec = math.nan if tot["nsubs"] == 0 else _ratio(per["p"], tot["n_flat_s"])
    rec = math.nan if tot["n_gold"] == 0 else _ratio(per["r"], tot["n_flat_g"])
    extra = {"matching_pdisc_pairs": stats[0]["pdisc"], "matching_psubs_pairs": tot["nsubs"],
             "matching_intersection_pairs": tot["inter"]}
    return prec, rec, extra
