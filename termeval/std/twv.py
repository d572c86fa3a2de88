"""TWV family from one sort plus prefix sums (spec §3): ATWV, MTWV, OTWV, STWV and the
term-weighted DET points.

Trials are the scored detections of the evaluated terms: targets (aligned to a reference)
and non-targets (unaligned). With Kt terms that have targets and K evaluated terms (K = Kt
unless no-target terms are included, F4DE -inc), accepting a trial of term q adds
+1/(Kt*Ntrue(q)) (one miss fewer) or -beta/(K*(N-Ntrue(q))) (one false alarm more) to
TWV(theta) = 1 - mean Pmiss - beta * mean Pfa; accepting nothing gives 0. So a single sort
by score and prefix sums give TWV at every distinct score threshold (YES iff score >= theta).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

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


def trials_per_term(t_audio: float, trials_per_sec: float = 1.0, f4de_divide: bool = False) -> int:
    """N = round(n_tps * T_audio); F4DE computes round(T_audio / n_tps) (compat)."""
    x = t_audio / trials_per_sec if f4de_divide else t_audio * trials_per_sec
    return int(round(x))


def beta_from(p_target: float, c_miss: float, c_fa: float) -> float:
    return c_fa * (1.0 - p_target) / (c_miss * p_target)


def compute_twv(n_terms_total: int, ntrue: np.ndarray, evaluated: np.ndarray, n_trials: int,
                beta: float, term: np.ndarray, score: np.ndarray, yes: np.ndarray,
                target: np.ndarray) -> TwvResult:
    """All TWV figures.

    ntrue[q]: reference occurrences of term q (after ECF filtering); evaluated[q]: whether q
    is evaluated (Ntrue > 0, or every listed term under -inc). term/score/yes/target: the
    scored trials (aligned detections are targets, unaligned ones non-targets) of evaluated
    terms. Unaligned references are implicit (always misses).
    """
    ntrue = np.asarray(ntrue, dtype=np.float64)
    evaluated = np.asarray(evaluated, dtype=bool)
    has_t = evaluated & (ntrue > 0)
    K = int(evaluated.sum())
    Kt = int(has_t.sum())
    N = float(n_trials)
    nt = N - ntrue
    if np.any(evaluated & (nt <= 0)):
        from termeval.errors import InputError
        raise InputError(f"a term has at least as many references as trials (N={n_trials}); "
                         "check --trials-per-sec and the ECF durations")
    Q = n_terms_total
    # per-term weights
    wt = np.zeros(Q)
    wt[has_t] = 1.0 / (Kt * ntrue[has_t])
    wn = np.zeros(Q)
    if K:
        wn[evaluated] = 1.0 / (K * nt[evaluated])
    tgt = target.astype(bool)
    y = yes.astype(bool)
    hits = np.bincount(term[tgt & y], minlength=Q).astype(np.float64)
    fas = np.bincount(term[~tgt & y], minlength=Q).astype(np.float64)
    aligned = np.bincount(term[tgt], minlength=Q).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        term_pmiss = np.where(has_t, 1.0 - hits / np.where(ntrue > 0, ntrue, 1), np.nan)
        term_pfa = np.where(evaluated, fas / np.where(nt > 0, nt, 1), np.nan)
    term_twv = np.where(has_t, 1.0 - term_pmiss - beta * term_pfa,
                        np.where(evaluated, -beta * term_pfa, np.nan))
    if Kt == 0:
        atwv = p_miss = p_fa = None
    else:
        p_miss = float(np.sum(term_pmiss[has_t]) / Kt)
        p_fa = float(np.sum(term_pfa[evaluated]) / K)
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
    # sweep
    w_t = np.where(tgt, wt[term], 0.0)
    w_n = np.where(tgt, 0.0, wn[term])
    o = np.argsort(-score, kind="stable")
    s_sorted = score[o]
    cum_t = np.cumsum(w_t[o])
    cum_n = np.cumsum(w_n[o])
    ends = np.flatnonzero(np.r_[s_sorted[1:] != s_sorted[:-1], True]) if len(o) else np.zeros(0, np.int64)
    det_thr = s_sorted[ends]
    det_pmiss = 1.0 - cum_t[ends] if Kt else np.full(len(ends), np.nan)
    det_pfa = cum_n[ends]
    det_twv = cum_t[ends] - beta * cum_n[ends]
    if Kt == 0:
        mtwv = mthr = pm_m = pf_m = None
    elif len(ends) == 0:
        mtwv, mthr, pm_m, pf_m = 0.0, None, 1.0, 0.0  # nothing detected: reject-all value
    else:
        best = det_twv.max()
        k = int(np.flatnonzero(det_twv >= best - TIE * max(1.0, abs(best)))[-1])  # lowest theta
        mtwv, mthr = float(det_twv[k]), float(det_thr[k])
        pm_m, pf_m = float(det_pmiss[k]), float(det_pfa[k])
    # OTWV: per-term best over the global thresholds (per-term prefix sums)
    term_otwv = np.zeros(Q)
    if len(o):
        w = w_t - beta * w_n
        oq = o[np.argsort(term[o], kind="stable")]  # by term, then score descending
        tq, sq = term[oq], score[oq]
        cw = np.cumsum(w[oq])
        qstart = np.flatnonzero(np.r_[True, tq[1:] != tq[:-1]])
        base = np.repeat(np.r_[0.0, cw[qstart[1:] - 1]] if len(qstart) > 1 else np.zeros(1),
                         np.diff(np.r_[qstart, len(tq)]))
        local = cw - base
        gend = np.flatnonzero(np.r_[(tq[1:] != tq[:-1]) | (sq[1:] != sq[:-1]), True])
        best_q = np.full(Q, -np.inf)
        np.maximum.at(best_q, tq[gend], local[gend])
        qmax = np.full(Q, -np.inf)
        np.maximum.at(qmax, tq, sq)
        reject_ok = qmax < s_sorted[0]  # a global threshold above the term's best score exists
        best_q = np.where(reject_ok, np.maximum(best_q, 0.0), best_q)
        best_q[~np.isfinite(best_q)] = 0.0
        term_otwv = best_q
    otwv = float(np.sum(term_otwv[evaluated])) if Kt else None
    # per-term OTWV in TWV units (1 - Pmiss - beta Pfa) for the table
    with np.errstate(divide="ignore", invalid="ignore"):
        term_otwv_tab = np.where(has_t, term_otwv * Kt, np.where(evaluated, term_otwv * K, np.nan))
    return TwvResult(atwv, p_miss, p_fa, mtwv, mthr, pm_m, pf_m, otwv, stwv,
                     None if act_thr is None else float(act_thr), consistent, K, Kt,
                     det_thr, det_pmiss, det_pfa, det_twv, term_twv, term_pmiss, term_pfa,
                     term_otwv_tab)
