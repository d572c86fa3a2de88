"""Grouping precision/recall (spec §4.4, TDE15/17), by counting.

Pclus = PW(R2(D, F)), counted (termeval.tde.zr2015.foldpairs): per class, the pairs whose second
(later) element has mark t are sum over members of mark t of their rank in the class, and the
equal-mark pairs are C(c_t, 2); listed exceptions are subtracted as counted and added exactly.
Pgoldclus = pairs of distinct R2
fragments with equal transcription, dropping time-only OV pairs and same-file pairs with any
positive overlap. nmatch counts pairs by the mark of their *second* element (so in Pclus a type
that only occurs as first element is skipped, quirk §5.1 #7); w(t, X) = share of the distinct
fragments of flat(X) with mark t. Pgoldclus is never built: per mark group of g fragments it has
C(g, 2) pairs minus the excluded ones, found by an overlap sweep.
"""
from __future__ import annotations

import math

import numpy as np

from termeval.tde.zr2015.corpus import ov
from termeval.tde.zr2015.foldpairs import FoldPairs, class_histogram, same_file_overlap
from termeval.tde.zr2015.pairs import dense_codes, overlapping_pairs, uniq


def weighted(w_count: np.ndarray, w_total: int, n_int: np.ndarray, n_set: np.ndarray) -> float:
    t = np.flatnonzero(n_set > 0)
    return float(np.sum((w_count[t] / w_total) * n_int[t] / n_set[t]))


def grouping(frags, fp: FoldPairs, in_d2: np.ndarray, mode: str) -> tuple[float, float]:
    # marks renumbered in their order for this fold: per-mark arrays sized by the fold
    mark, nm = dense_codes(frags.mark, len(frags.marks))
    # Pclus: nmatch by the mark of the later element = rank inside the class (memberships are
    # sorted by (class, fragment id) and fragment ids follow (file, onset))
    mc, mf = fp.mem_cls, fp.mem_frag
    new = np.ones(len(mc), dtype=bool)
    new[1:] = mc[1:] != mc[:-1]
    first = np.maximum.accumulate(np.where(new, np.arange(len(mc)), 0))
    n_p = np.bincount(mark[mf], weights=np.arange(len(mc)) - first, minlength=nm).astype(np.int64)
    n_p -= np.bincount(mark[fp.exc_hi], minlength=nm)
    n_p += np.bincount(mark[fp.pw_hi], minlength=nm)
    flat = np.flatnonzero(fp.partner_len >= 0)
    w_p = np.bincount(mark[flat], minlength=nm)
    # I: equal marks (clean pairs never overlap), exceptions exactly
    _, hm, hc = class_histogram(mc, mark[mf])
    n_i = np.bincount(hm, weights=hc * (hc - 1) // 2, minlength=nm).astype(np.int64)
    eq = mark[fp.exc_lo] == mark[fp.exc_hi]
    n_i -= np.bincount(mark[fp.exc_hi][eq], minlength=nm)
    lo, hi = fp.pw_lo, fp.pw_hi
    inter = (mark[lo] == mark[hi]) & ~same_file_overlap(frags, lo, hi)
    n_i += np.bincount(mark[hi][inter], minlength=nm)
    n_g, w_g, n_flat_g = pgoldclus(frags, mark, nm, in_d2, mode)
    prec = math.nan if fp.npairs == 0 else weighted(w_p, len(flat), n_i, n_p)
    rec = math.nan if n_g.sum() == 0 else weighted(w_g, n_flat_g, n_i, n_g)
    return prec, rec


def pgoldclus(frags, mark: np.ndarray, nm: int, in_d2: np.ndarray, mode: str):
    """Pgoldclus over the distinct fragments of R2(D, F), counted per mark (0..nm-1): (nmatch,
    fragments of flat(Pgoldclus), |flat|)."""
    d2, n_g, deg = _gold_pairs(frags, mark, nm, in_d2, mode)
    flat_g = d2[deg[d2] > 0]
    w_g = np.bincount(mark[flat_g], minlength=nm)
    return n_g, w_g, len(flat_g)


def _gold_pairs(frags, mark: np.ndarray, nm: int, in_d2: np.ndarray, mode: str):
    """Pgoldclus over the distinct fragments d2 of R2(D, F): (d2, pairs per mark, gold
    partners per fragment)."""
    f, on, off = frags.file, frags.onset, frags.offset
    d2 = np.flatnonzero(in_d2)
    g = np.bincount(mark[d2], minlength=nm)
    i, j = overlapping_pairs(mark[d2], on[d2], off[d2])
    a, b = d2[i], d2[j]
    excl = ov(on[a], off[a], on[b], off[b], mode) | (f[a] == f[b])
    a, b = a[excl], b[excl]
    n_excl = np.bincount(mark[a], minlength=nm)
    n_g = g * (g - 1) // 2 - n_excl
    deg = np.zeros(len(frags), dtype=np.int64)
    deg[d2] = g[mark[d2]] - 1
    np.subtract.at(deg, a, 1)
    np.subtract.at(deg, b, 1)
    return d2, n_g, deg


def grouping_by_class(frags, fp: FoldPairs, in_d2: np.ndarray, mode: str, pw_cls: np.ndarray):
    """Per-class counts for the bootstrap's grouping surrogate (docs/uncertainty.md):
    (classes, same-transcription PW pairs, PW pairs, gold pairs allocated to the class). A
    fragment's gold pairs (half its gold partners) are shared equally among its classes, so
    the allocations add up to |Pgoldclus|; pw_cls = termeval.tde.zr2015.ned.pw_classes."""
    mark, nm = dense_codes(frags.mark, len(frags.marks))
    mc, mf = fp.mem_cls, fp.mem_frag
    hcls, hm, hc = class_histogram(mc, mark[mf])
    lo, hi = fp.pw_lo, fp.pw_hi
    eq = mark[fp.exc_lo] == mark[fp.exc_hi]
    inter = (mark[lo] == mark[hi]) & ~same_file_overlap(frags, lo, hi)
    _, _, deg = _gold_pairs(frags, mark, nm, in_d2, mode)
    nmem = np.bincount(mf, minlength=len(frags))
    uc, size = np.unique(mc, return_counts=True)
    allc = uniq(np.concatenate([uc, fp.exc_cls, pw_cls]).astype(np.int64))
    out = np.zeros((len(allc), 3))

    def at(c):
        return np.searchsorted(allc, c)
    np.add.at(out[:, 0], at(hcls), hc * (hc - 1) / 2)
    np.add.at(out[:, 0], at(fp.exc_cls[eq]), -1.0)
    np.add.at(out[:, 0], at(pw_cls[inter]), 1.0)
    np.add.at(out[:, 1], at(uc), size * (size - 1) / 2)
    np.add.at(out[:, 1], at(fp.exc_cls), -1.0)
    np.add.at(out[:, 1], at(pw_cls), 1.0)
    np.add.at(out[:, 2], at(mc), deg[mf] / 2 / np.maximum(nmem[mf], 1))
    return allc, out[:, 0], out[:, 1], out[:, 2]
