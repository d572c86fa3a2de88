"""Per-term statistics of ATWV / MTWV / OTWV (STD, KWS) for termeval.bootstrap.

Terms are the resampling unit (the usual practice in keyword search). Per evaluated term:
  hit   1 - Pmiss(term) at the system's decisions (terms with targets), has_t its indicator
  pfa   Pfa(term) at the decisions, ev = 1
  otwv  the term's best TWV contribution times Kt (so that sum(otwv) / sum(has_t) = OTWV)
  h<j>, f<j>  1 - Pmiss and Pfa of the term when accepting scores >= the j-th threshold of a
        grid (every distinct trial score when there are at most GRID of them, otherwise GRID
        quantiles plus the MTWV threshold)
  ATWV = sum(hit)/sum(has_t) - beta sum(pfa)/sum(ev)        exact
  OTWV = sum(otwv)/sum(has_t)                               exact (per-term optima are fixed)
  MTWV = max_j [sum(h_j)/sum(has_t) - beta sum(f_j)/sum(ev)] exact on the full grid; on a
        quantile grid the resampled maximum is centred on the exact MTWV (engine docstring).
Built from the scoring result (StdResult.ali, .twv), so it needs no change of the scorer.
"""
from __future__ import annotations

import numpy as np

from termeval.bootstrap.engine import UnitStats

GRID = 256


def _grid(score: np.ndarray, mthr: float | None) -> np.ndarray:
    u = np.unique(score)
    if len(u) > GRID:
        u = np.unique(np.r_[u[np.linspace(0, len(u) - 1, GRID).round().astype(np.int64)],
                            [] if mthr is None else [mthr]])
    return u


def term_table(res, dets) -> UnitStats:
    """The per-term table of a termeval.std.score.StdResult and its detections."""
    ali, tw = res.ali, res.twv
    ev = np.asarray(res.evaluated, bool)
    ntrue = np.asarray(res.ntrue, np.float64)
    n_trials = float(res.extra["trials_per_term"])
    has_t = ev & (ntrue > 0)
    Kt, K = int(has_t.sum()), int(ev.sum())
    dterm = np.asarray(ali["det_term"], np.int64)
    keep = ev[dterm] if len(dterm) else np.zeros(0, bool)
    term = dterm[keep]
    score = np.asarray(dets.score, np.float64)[ali["det_index"]][keep] if len(dterm) else np.zeros(0)
    target = (np.asarray(ali["det_ref"]) >= 0)[keep] if len(dterm) else np.zeros(0, bool)
    Q = len(ev)
    grid = _grid(score, tw.mtwv_threshold)
    # fixed width GRID + 1 (repeating the last threshold): two systems' tables have the same
    # columns, as paired comparisons need, whatever their numbers of distinct scores
    grid = np.r_[grid, np.full(GRID + 1 - len(grid), grid[-1] if len(grid) else 0.0)]
    G = len(grid)
    pos = np.searchsorted(grid, score, side="right")          # thresholds 0..pos-1 accept it
    nt = np.maximum(ntrue, 1.0)
    # a term with as many references as trials (segment alignment) has no P_fa: out of its mean
    fa_def = ev & (n_trials - ntrue > 0)
    nn = np.where(fa_def, n_trials - ntrue, 1.0)

    def accepted(mask: np.ndarray) -> np.ndarray:
        c = np.bincount(term[mask] * (G + 1) + pos[mask], minlength=Q * (G + 1)).reshape(Q, G + 1)
        return np.cumsum(c[:, ::-1], axis=1)[:, ::-1][:, 1:].astype(np.float64)   # score >= grid[j]

    H = accepted(target) / nt[:, None] * has_t[:, None]
    F = accepted(~target) / nn[:, None] * fa_def[:, None]
    hit = np.where(has_t, 1.0 - np.nan_to_num(tw.term_pmiss), 0.0)
    pfa = np.where(ev, np.nan_to_num(tw.term_pfa), 0.0)
    tab = np.nan_to_num(np.asarray(tw.term_otwv, np.float64))
    otwv = np.where(has_t, tab, tab * Kt / max(K, 1))
    units = np.flatnonzero(ev)
    ids = [res.terms.ids[q] for q in units]
    order = np.argsort(np.asarray(ids, dtype=str), kind="stable")
    units = units[order]
    hc, fc = [f"h{j}" for j in range(G)], [f"f{j}" for j in range(G)]
    X = np.c_[hit, has_t, pfa, fa_def, otwv, H, F][units]
    b = float(res.beta)
    metrics = {"atwv": ("lincomb", ((1.0, "hit", "has_t"), (-b, "pfa", "ev"))),
               "mtwv": ("maxlincomb", ((1.0, tuple(hc), "has_t"), (-b, tuple(fc), "ev"))),
               "otwv": ("ratio", "otwv", "has_t")}
    exact = {k: res.metrics.get(k) for k in metrics}
    return UnitStats("term", [ids[i] for i in order], ["hit", "has_t", "pfa", "ev", "otwv"] + hc + fc,
                     X, metrics, exact)
