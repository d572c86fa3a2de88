"""Ranked-retrieval and operating figures of a detection list (issue 14 §4; docs/std-metrics.md).

Each term's (query's) trials are ranked by score, highest first. Relevant = target trials
(detections aligned to a reference for STD, documents the query occurs in for QUESST); R =
the term's number of references, so references the system never reported count as relevant
items that were not retrieved. Equal scores are ranked non-targets first (the pessimistic
order, which is also what F4DE's stable sort does).

* AP = (1/R) * sum over the ranks k of the targets of P@k; MAP = mean AP over terms with R > 0.
* P@N = (#targets in the top N) / N (a list shorter than N is padded with non-relevant items).
* R-precision = P@R.
* F4DE's MAP (KWSEval -zG MAP, DETCurve.pm): the same AP, but F4DE sorts the scores as
  *strings* (Perl `cmp`, descending) and averages over every evaluated block (terms without
  references, scored under -inc, count with AP 0). We compare the shortest round-trip text of
  each score, which equals F4DE's order when the detection file writes scores that way; it
  differs from MAP when scores are negative or have different numbers of digits.
* FA/hour at recall r: pooled over terms, one global threshold, the lowest number of false
  alarms per hour of audio among the thresholds whose pooled recall (hits / references) is
  >= r; recall at FA/hour f: the highest pooled recall among the thresholds with at most f
  false alarms per hour (0 if even the highest threshold has more).
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import numpy as np

from termeval.std.twv import sweep

EPS = 1e-12  # recall / FA-rate comparisons are made with this slack (sums of 1/n)


@dataclass
class Ranking:
    """Per-term ranked-retrieval figures (NaN where R = 0) and their means."""
    ap: np.ndarray
    ap_f4de: np.ndarray
    r_precision: np.ndarray
    p_at: dict = field(default_factory=dict)      # N -> per-term P@N
    n_ranked: np.ndarray = field(default_factory=lambda: np.zeros(0))
    map: float | None = None
    map_f4de: float | None = None
    mean_r_precision: float | None = None
    mean_p_at: dict = field(default_factory=dict)  # N -> mean P@N
    ap_f4de_pct: np.ndarray | None = None   # ap_f4de in percent as F4DE sums it (x 100 per rank)


def _ranks(term: np.ndarray, key: np.ndarray, target: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Order by (term, key descending, non-targets first); returns (order, rank within term
    starting at 1, targets up to and including each position within term)."""
    o = np.lexsort((target, -key, term))
    t, y = term[o], target[o].astype(np.int64)
    n = len(t)
    start = np.flatnonzero(np.r_[True, t[1:] != t[:-1]]) if n else np.zeros(0, np.int64)
    seg_len = np.diff(np.r_[start, n])
    first = np.repeat(start, seg_len)
    rank = np.arange(n) - first + 1
    cy = np.cumsum(y)
    before = np.r_[0, cy][first]
    return o, rank, cy - before


def _ap(term, key, target, R, n_terms, ranks=None, scale: float = 1.0) -> np.ndarray:
    """Per-term AP: the precisions at the targets summed in rank order (bincount adds in input
    order), over R; `scale` multiplies each precision before the sum (F4DE's APpct)."""
    o, rank, hits = ranks if ranks is not None else _ranks(term, key, target)
    tg = target[o]
    prec = hits[tg] / rank[tg]
    s = np.bincount(term[o][tg], weights=prec * scale if scale != 1.0 else prec, minlength=n_terms)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(R > 0, s / np.where(R > 0, R, 1), np.nan)


def _top(term, key, target, cutoff: np.ndarray, n_terms, ranks=None) -> np.ndarray:
    """#targets ranked within each term's cutoff (per-term array)."""
    o, rank, _ = ranks if ranks is not None else _ranks(term, key, target)
    tq = term[o]
    ok = target[o] & (rank <= cutoff[tq])
    return np.bincount(tq[ok], minlength=n_terms).astype(np.float64)


def _plain(score: np.ndarray) -> np.ndarray:
    """Scores whose shortest text is fixed notation with one integer digit: +0.0 or [1e-4, 10)."""
    return ((score >= 1e-4) & (score < 10)) | (score.view(np.int64) == 0)


def _string_key(score: np.ndarray) -> np.ndarray | None:
    """Lexicographic rank of each score's shortest round-trip text (F4DE sorts with Perl cmp),
    or None when that is the order of the values.

    A score that is +0.0 or lies in [1e-4, 10) prints in fixed notation with one integer digit
    and no trailing zeros ('0.0001' ... '9.99'), so comparing such texts digit by digit compares
    the values. Only the other distinct values (exponent notation, negative, >= 10: few in
    practice) are printed, and each is placed among the plain ones by a binary search on text.
    """
    bits, inv = np.unique(np.asarray(score, np.float64).view(np.int64), return_inverse=True)
    vals = bits.view(np.float64)      # distinct bit patterns: 0.0 and -0.0 print apart
    plain = _plain(vals)
    if plain.all():
        return None
    plain_idx = np.flatnonzero(plain)          # ascending bits = ascending values = text order
    inner = vals[plain_idx].tolist()
    other_idx = np.flatnonzero(~plain)
    texts = [repr(v) for v in vals[other_idx].tolist()]
    order = sorted(range(len(texts)), key=texts.__getitem__)
    pos = np.asarray([bisect.bisect_left(inner, texts[j], key=repr) for j in order], np.int64)
    rank = np.empty(len(vals), np.int64)
    k = np.arange(len(inner))
    rank[plain_idx] = k + np.searchsorted(pos, k, side="right")   # + the others placed before
    rank[other_idx[order]] = pos + np.arange(len(order))
    return rank[inv.reshape(-1)].astype(np.float64)


def ranking(term: np.ndarray, score: np.ndarray, target: np.ndarray, ntrue: np.ndarray,
            evaluated: np.ndarray, p_at: tuple[int, ...] = (10,)) -> Ranking:
    """Ranked-retrieval figures of the trials (term, score, target) of `len(ntrue)` terms.

    ntrue[q] = R of term q; evaluated[q]: whether q counts (F4DE's MAP also averages the
    evaluated terms with R = 0, as AP 0).
    """
    term = np.asarray(term, np.int64)
    score = np.asarray(score, np.float64)
    target = np.asarray(target, bool)
    R = np.asarray(ntrue, np.float64)
    ev = np.asarray(evaluated, bool)
    Q = len(R)
    by_score = _ranks(term, score, target)
    ap = _ap(term, score, target, R, Q, by_score)
    apf, apf_pct = _ap_text_order(term, score, target, R, Q, by_score, ap)
    has = ev & (R > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        rprec = np.where(R > 0, _top(term, score, target, R, Q, by_score) / np.where(R > 0, R, 1), np.nan)
    pat = {}
    for n in p_at:
        pat[n] = np.where(R > 0, _top(term, score, target, np.full(Q, n), Q, by_score) / n, np.nan)
    mean = (lambda a: float(np.mean(a[has])) if has.any() else None)
    apf_ev = np.where(R > 0, apf, 0.0)[ev]
    return Ranking(ap, apf, rprec, pat, np.bincount(term, minlength=Q), mean(ap),
                   float(np.mean(apf_ev)) if ev.any() else None, mean(rprec),
                   {n: mean(v) for n, v in pat.items()}, apf_pct)


def _ap_text_order(term, score, target, R, Q, by_score, ap) -> tuple[np.ndarray, np.ndarray]:
    """(AP, AP in percent) with the scores ranked as F4DE sorts them (Perl cmp on their texts)."""
    apf, apf_pct = ap.copy(), _ap(term, score, target, R, Q, by_score, scale=100.0)
    text_key = _string_key(score)     # None: the text order is the score order, same ranks
    if text_key is not None:          # only a term with a score outside the plain ones can differ
        odd = np.unique(term[~_plain(score)])
        sel = np.isin(term, odd)
        apf[odd] = _ap(term[sel], text_key[sel], target[sel], R, Q)[odd]
        apf_pct[odd] = _ap(term[sel], text_key[sel], target[sel], R, Q, scale=100.0)[odd]
    return apf, apf_pct


@dataclass
class Operating:
    """Pooled operating curve: thresholds (decreasing), recall and false alarms per hour."""
    threshold: np.ndarray
    recall: np.ndarray
    fa_per_hour: np.ndarray

    def fa_per_hour_at_recall(self, r: float) -> tuple[float | None, float | None]:
        """(FA/hour, threshold) at the highest threshold reaching recall r; None if never."""
        k = np.flatnonzero(self.recall >= r - EPS)
        if not len(k):
            return None, None
        return float(self.fa_per_hour[k[0]]), float(self.threshold[k[0]])

    def recall_at_fa_per_hour(self, f: float) -> tuple[float, float | None]:
        """(recall, threshold) at the lowest threshold with at most f FA/hour; (0, None) if
        even the highest threshold has more (accepting nothing)."""
        k = np.flatnonzero(self.fa_per_hour <= f * (1 + EPS) + EPS)
        if not len(k):
            return 0.0, None
        return float(self.recall[k[-1]]), float(self.threshold[k[-1]])


def operating_curve(score: np.ndarray, target: np.ndarray, n_targets: int, hours: float) -> Operating:
    """Pooled recall and FA/hour at every distinct score (YES iff score >= threshold)."""
    target = np.asarray(target, bool)
    thr, cum = sweep(np.asarray(score, np.float64),
                     np.column_stack([target, ~target]).astype(np.float64))
    rec = cum[:, 0] / n_targets if n_targets else np.full(len(thr), np.nan)
    return Operating(thr, rec, cum[:, 1] / hours)
