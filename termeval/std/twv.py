"""TWV family from one sort plus prefix sums (docs/std.md §3): ATWV, MTWV, OTWV, STWV and the
term-weighted DET points.

Trials are the scored detections of the evaluated terms: targets (aligned to a reference)
and non-targets (unaligned). With Kt terms that have targets and K evaluated terms (K = Kt
unless no-target terms are included, F4DE -inc), accepting a trial of term q adds
+1/(Kt*Ntrue(q)) (one miss fewer) or -beta/(K*(N-Ntrue(q))) (one false alarm more) to
TWV(theta) = 1 - mean Pmiss - beta * mean Pfa; accepting nothing gives 0. So a single sort
by score and prefix sums give TWV at every distinct score threshold (YES iff score >= theta).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import numpy as np

from termeval.core.errors import InputError

TIE = 1e-12  # TWV values this close are ties; F4DE keeps the lowest threshold among ties


@dataclass
class TwvResult:
    atwv: Optional[float]
    p_miss: Optional[float]
    p_fa: Optional[float]
    mtwv: Optional[float]
    mtwv_threshold: Optional[float]
    p_miss_at_mtwv: Optional[float]
    p_fa_at_mtwv: Optional[float]
    otwv: Optional[float]
    stwv: Optional[float]
    actual_threshold: Optional[float]
    decisions_consistent: bool
    n_terms: int            # evaluated terms (K)
    n_terms_with_targets: int  # Kt
    det_thr: np.ndarray     # DET / TWV curve, thresholds in decreasing order
    det_pmiss: np.ndarray
    det_pfa: np.ndarray
    det_twv: np.ndarray
    term_twv: np.ndarray    # per-term actual TWV contribution form: 1 - Pmiss - beta*Pfa
    term_pmiss: np.ndarray
    term_pfa: np.ndarray
    term_otwv: np.ndarray   # per-term best TWV over the global thresholds


# Trials per term beyond this cannot be counted exactly in float64 (and overflow int64 counts):
# 2**53 one-second trials are 285 million years of audio, so only a wrong unit gets here.
MAX_TRIALS = 2 ** 53


def trials_per_term(t_audio: float, trials_per_sec: float = 1.0, f4de_divide: bool = False,
                    source: str | None = None) -> int:
    """N = round(n_tps * T_audio); F4DE computes round(T_audio / n_tps) (compat). A total
    duration (each excerpt finite, their sum not necessarily) whose N is not finite or beyond
    MAX_TRIALS is an input error naming `source` (the ECF or durations file)."""
    x = t_audio / trials_per_sec if f4de_divide else t_audio * trials_per_sec
    if not math.isfinite(x) or x > MAX_TRIALS:
        raise InputError(f"the total audio duration {t_audio:g} s gives {x:g} trials per term, more "
                         f"than 2^53 (durations in the wrong unit?)", source)
    return int(round(x))


def beta_from(p_target: float, c_miss: float, c_fa: float) -> float:
    return c_fa * (1.0 - p_target) / (c_miss * p_target)


def detection_cost(p_miss: float | None, p_fa: float | None, p_target: float, c_miss: float,
                   c_fa: float) -> tuple[float | None, float, float | None]:
    """(C_Det, C_Default, C_Norm) of MediaEval 2013 SWS §2.4 ([SEED] eqs. 8-10, docs/std-metrics.md, "Detection cost").

    C_Det = C_miss P_miss P_target + C_fa P_fa (1 - P_target) at the actual decisions (the
    term-averaged rates of ATWV); C_Default = min(C_miss P_target, C_fa (1 - P_target)), the
    cost of the better trivial system (reject all, or accept all); C_Norm = C_Det / C_Default.
    With beta = C_fa (1 - P_target) / (C_miss P_target) >= 1, C_Default is the reject-all cost
    and C_Norm = P_miss + beta P_fa = 1 - ATWV; with beta < 1 it is the accept-all cost and
    C_Norm = P_miss / beta + P_fa. C_Det and C_Norm are None when P_miss is undefined.

    >>> detection_cost(0.5, 0.01, 0.5, 1.0, 1.0)   # beta = 1
    (0.255, 0.5, 0.51)
    """
    c_default = min(c_miss * p_target, c_fa * (1.0 - p_target))
    if p_miss is None or p_fa is None:
        return None, c_default, None
    c_det = c_miss * p_miss * p_target + c_fa * p_fa * (1.0 - p_target)
    return c_det, c_default, c_det / c_default


def sweep(score: np.ndarray, weight: np.ndarray, asc: np.ndarray | None = None
          ) -> tuple[np.ndarray, np.ndarray]:
    """(distinct thresholds, decreasing; sum of `weight` over the trials scoring >= each).

    The TWV sweep of STD and QUESST: with weight = TWV gain of accepting a trial, the sums are
    TWV(theta) at every distinct score (YES iff score >= theta: equal scores are accepted
    together). `weight` may be 2-D (one column per quantity). `asc`: a precomputed ascending
    argsort of the scores.
    """
    order = np.argsort(-score, kind="stable") if asc is None else asc[::-1]
    s = score[order]
    cum = np.cumsum(weight[order], axis=0)
    end = np.ones(len(s), dtype=bool)
    end[:-1] = s[1:] != s[:-1]  # within a tie group only the group end is read
    return s[end], cum[end]


def best_index(val: np.ndarray) -> int:
    """Index of the maximum of a sweep (thresholds decreasing); among values within TIE of the
    maximum the lowest threshold (the last index) wins, as in F4DE."""
    best = float(val.max())
    return int(np.flatnonzero(val >= best - TIE * max(1.0, abs(best)))[-1])


def segment_best(seg: np.ndarray, score: np.ndarray, weight: np.ndarray, n_seg: int,
                 reject_ok: np.ndarray | bool = True, order: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Per segment (term, query): the best sum of `weight` over score >= theta_s with theta_s
    among the segment's own scores, or 0 (theta_s = +inf, reject all) where `reject_ok`.

    Returns (best, threshold); ties keep the lowest threshold; empty segments give (0, inf).
    Points are visited in (segment, score) ascending order (`order`: a precomputed
    lexsort((score, seg))); the value at a score group is the within-segment suffix sum.
    """
    reject = np.broadcast_to(np.asarray(reject_ok, bool), (n_seg,))
    best = np.full(n_seg, -np.inf)
    thr = np.full(n_seg, np.inf)
    if len(seg):
        o = np.lexsort((score, seg)) if order is None else order
        q, s, wo = seg[o], score[o], weight[o]
        total = np.bincount(q, weights=wo, minlength=n_seg)
        cum = np.cumsum(wo)
        qstart = np.searchsorted(q, np.arange(n_seg))
        before = np.concatenate([[0.0], cum])[qstart]
        suffix = total[q] - (cum - before[q]) + wo  # this point and every higher one
        first = np.ones(len(q), dtype=bool)
        first[1:] = (s[1:] != s[:-1]) | (q[1:] != q[:-1])
        qf, sf, vf = q[first], s[first], suffix[first]
        starts = np.flatnonzero(np.r_[True, qf[1:] != qf[:-1]])
        best[qf[starts]] = np.maximum.reduceat(vf, starts)
        bq = best[qf]
        hit = (vf >= bq - TIE * np.maximum(1.0, np.abs(bq))) & ~(reject[qf] & (vf <= 0))
        hq = qf[hit]
        firsthit = np.r_[True, hq[1:] != hq[:-1]] if len(hq) else np.zeros(0, bool)
        thr[hq[firsthit]] = sf[hit][firsthit]  # scores ascend: the first hit is the lowest
    best = np.where(reject, np.maximum(best, 0.0), best)
    best[~np.isfinite(best)] = 0.0
    return best, thr


def compute_twv(n_terms_total: int, ntrue: np.ndarray, evaluated: np.ndarray, n_trials: int,
                beta: float, term: np.ndarray, score: np.ndarray, yes: np.ndarray,
                target: np.ndarray, fa_undefined_ok: bool = False) -> TwvResult:
    """All TWV figures.

    ntrue[q]: reference occurrences of term q (after ECF filtering); evaluated[q]: whether q
    is evaluated (Ntrue > 0, or every listed term under -inc). term/score/yes/target: the
    scored trials (aligned detections are targets, unaligned ones non-targets) of evaluated
    terms. Unaligned references are implicit (always misses). fa_undefined_ok (segment
    alignment): a term with as many references as trials has no P_fa (nor TWV) and leaves the
    P_fa mean, as in F4DE, instead of being an error.
    """
    ntrue = np.asarray(ntrue, dtype=np.float64)
    evaluated = np.asarray(evaluated, dtype=bool)
    has_t = evaluated & (ntrue > 0)
    K = int(evaluated.sum())
    Kt = int(has_t.sum())
    N = float(n_trials)
    nt = N - ntrue
    fa_def = evaluated & (nt > 0)
    if np.any(evaluated & (nt <= 0)) and not fa_undefined_ok:
        raise InputError(f"a term has at least as many references as trials (N={n_trials}); "
                         "check --trials-per-sec and the ECF durations")
    Q = n_terms_total
    # per-term weights
    wt = np.zeros(Q)
    wt[has_t] = 1.0 / (Kt * ntrue[has_t])
    wn = np.zeros(Q)
    Kf = int(fa_def.sum())
    if Kf:
        wn[fa_def] = 1.0 / (Kf * nt[fa_def])
    tgt = target.astype(bool)
    y = yes.astype(bool)
    hits = np.bincount(term[tgt & y], minlength=Q).astype(np.float64)
    fas = np.bincount(term[~tgt & y], minlength=Q).astype(np.float64)
    aligned = np.bincount(term[tgt], minlength=Q).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        term_pmiss = np.where(has_t, 1.0 - hits / np.where(ntrue > 0, ntrue, 1), np.nan)
        term_pfa = np.where(fa_def, fas / np.where(nt > 0, nt, 1), np.nan)
    term_twv = np.where(has_t, 1.0 - term_pmiss - beta * term_pfa,
                        np.where(evaluated, -beta * term_pfa, np.nan))
    if Kt == 0:
        atwv = p_miss = p_fa = None
    else:
        p_miss = float(np.sum(term_pmiss[has_t]) / Kt)
        p_fa = float(np.sum(term_pfa[fa_def]) / Kf) if Kf else 0.0
        atwv = 1.0 - p_miss - beta * p_fa
    stwv = float(np.sum(aligned[has_t] / ntrue[has_t]) / Kt) if Kt else None
    # actual decision threshold and consistency (F4DE: one global threshold)
    ys, ns = score[y], score[~y]
    consistent = not (len(ys) and len(ns) and ns.max() > ys.min())
    if len(ys) and len(ns):
        act_thr = (ys.min() + ns.max()) / 2 if consistent else None
    elif len(ys):
        act_thr = float(ys.min())
    elif len(ns):
        act_thr = float(ns.max())
    else:
        act_thr = None
    # sweep (one kernel for STD and QUESST, see sweep())
    w_t = np.where(tgt, wt[term], 0.0)
    w_n = np.where(tgt, 0.0, wn[term])
    det_thr, cum = sweep(score, np.column_stack([w_t, w_n]))
    cum_t, cum_n = cum[:, 0], cum[:, 1]
    det_pmiss = 1.0 - cum_t if Kt else np.full(len(det_thr), np.nan)
    det_pfa = cum_n
    det_twv = cum_t - beta * cum_n
    if Kt == 0:
        mtwv = mthr = pm_m = pf_m = None
    elif len(det_thr) == 0:
        mtwv, mthr, pm_m, pf_m = 0.0, None, 1.0, 0.0  # nothing detected: reject-all value
    else:
        k = best_index(det_twv)
        mtwv, mthr = float(det_twv[k]), float(det_thr[k])
        pm_m, pf_m = float(det_pmiss[k]), float(det_pfa[k])
    # OTWV: per-term best over the global thresholds; rejecting all of a term's detections is
    # possible only if some global threshold lies above its best score
    term_otwv = np.zeros(Q)
    if len(score):
        qmax = np.full(Q, -np.inf)
        np.maximum.at(qmax, term, score)
        term_otwv, _ = segment_best(term, score, w_t - beta * w_n, Q, qmax < det_thr[0])
    otwv = float(np.sum(term_otwv[evaluated])) if Kt else None
    if K and not Kf:     # no term has a P_fa (segment alignment): its mean, and every TWV, undefined
        atwv = p_fa = mtwv = mthr = pm_m = pf_m = None
    # per-term OTWV in TWV units (1 - Pmiss - beta Pfa) for the table
    with np.errstate(divide="ignore", invalid="ignore"):
        term_otwv_tab = np.where(has_t, term_otwv * Kt, np.where(evaluated, term_otwv * K, np.nan))
    return TwvResult(atwv, p_miss, p_fa, mtwv, mthr, pm_m, pf_m, otwv, stwv,
                     None if act_thr is None else float(act_thr), consistent, K, Kt,
                     det_thr, det_pmiss, det_pfa, det_twv, term_twv, term_pmiss, term_pfa,
                     term_otwv_tab)
