"""Grouping precision/recall (tdev2, tde-spec §4.4) by counting tokens, not pairs.

tdev2 builds found pairs (all 2-combinations inside each cluster list), gold pairs (pairs of
distinct kept fragments with the same phone string, except same-file pairs with a positive
overlap) and their intersection, then counts, per phone string t, the *distinct token keys*
(`token_ngram`: phone times and labels, no file id) of the fragments taking part in each set:

    P = sum_t (cF[t]/NF) * cI[t] / cF[t]   over t in found types
    R = sum_t (cG[t]/NG) * cI[t] / cG[t]   over t in gold types

A fragment x takes part in
  found pairs  iff x is in a cluster list of length >= 2                   (flag F, per cluster)
  gold pairs   iff some distinct kept y has its string and (another file or
               no positive overlap: y.off <= x.on or y.on >= x.off)         (flag G, global)
  both         iff such a y is in a cluster together with x                 (flag I, per cluster)
so shards emit F and I per distinct fragment, the merge ORs them over shards, computes G
on the union and counts distinct token keys. The terms are evaluated with the reference's
float operations and summed with math.fsum, so the result is the reference's value up to
its own hash-order summation noise, and independent of --nj.
"""
from __future__ import annotations

import math

import numpy as np

from termeval.core.distinct import distinct


def partner_flags(group: np.ndarray, file: np.ndarray, on: np.ndarray, off: np.ndarray) -> np.ndarray:
    """For distinct fragments with a group id (e.g. (cluster, string) or string): does each
    have another member of its group in another file or not overlapping it?
    (Temporaries are dropped as soon as used: the merge's peak at millions of fragments.)"""
    n = len(group)
    flag = np.zeros(n, dtype=bool)
    if n == 0:
        return flag
    order = np.lexsort((file, group))
    g = group[order]
    gstart = np.r_[True, g[1:] != g[:-1]]
    del g
    f = file[order]
    fstart = gstart | np.r_[True, f[1:] != f[:-1]]
    del f
    small = np.int32 if n < 2 ** 31 else np.int64
    gi = np.cumsum(gstart, dtype=small) - 1
    del gstart
    res = (np.bincount(gi, weights=fstart) >= 2)[gi]     # the group spans >= 2 files
    del gi
    fi = np.cumsum(fstart, dtype=small) - 1
    fpos = np.flatnonzero(fstart)
    del fstart
    a = on[order]
    res |= np.minimum.reduceat(off[order], fpos)[fi] <= a
    del a
    b = off[order]
    res |= np.maximum.reduceat(on[order], fpos)[fi] >= b
    del b, fi
    flag[order] = res
    return flag


def count_tokens(flag: np.ndarray, ngram: np.ndarray, tok: np.ndarray, n_ngrams: int) -> tuple[np.ndarray, int]:
    """Per string: number of distinct token keys among flagged fragments; and their total.
    (A token key fixes the phone labels, hence the string: distinct (token, string) pairs.)"""
    width = max(int(n_ngrams), 1)
    pairs = distinct(tok[flag].astype(np.int64) * width + ngram[flag])
    per = np.bincount(pairs % width, minlength=n_ngrams).astype(np.int64)
    return per, len(pairs)


def weighted_sum(types: np.ndarray, c: np.ndarray, N: int, ci: np.ndarray) -> float:
    """sum over types of (c/N) * ci / c with the reference's float operations; NaN if none."""
    if not len(types) or N == 0:
        return math.nan
    cc = c[types].astype(np.float64)
    terms = (cc / N) * ci[types] / cc
    return math.fsum(terms.tolist())


def grouping(F: np.ndarray, I: np.ndarray, G: np.ndarray, ngram: np.ndarray, tok: np.ndarray,
             n_ngrams: int) -> tuple[float, float, dict]:
    """Grouping precision and recall from the flags of the distinct kept fragments."""
    cF, NF = count_tokens(F, ngram, tok, n_ngrams)
    cG, NG = count_tokens(G, ngram, tok, n_ngrams)
    cI, _ = count_tokens(I, ngram, tok, n_ngrams)
    found_types = np.flatnonzero(cF)
    gold_types = np.flatnonzero(cG)
    P = weighted_sum(found_types, cF, NF, cI)
    R = weighted_sum(gold_types, cG, NG, cI)
    info = {"found_tokens": NF, "gold_tokens": NG, "found_types": len(found_types),
            "gold_types": len(gold_types), "found_gold_tokens": int(cI.sum())}
    return P, R, info
