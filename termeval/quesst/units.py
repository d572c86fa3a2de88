"""Per-query statistics of the QUESST figures (score_quesst) for termeval.bootstrap.

Queries are the resampling unit. Every query has the same trials (one per document), so the
per-query rates are averaged with equal weights (`one` = 1 per query). Per query:
  hit, pfa   1 - Pmiss and Pfa at the actual decisions  -> act_twv = sum(hit)/U - beta sum(pfa)/U
  h<j>, f<j> 1 - Pmiss and Pfa accepting scores >= the j-th threshold of a grid (every
             distinct trial score when there are at most GRID, else GRID quantiles plus the
             maxTWV threshold; padded to GRID + 1 columns so that any two systems have the
             same columns and can be compared) -> max_twv, exact on the full grid
  ub         the query's best TWV over its own thresholds -> ub_twv = sum(ub)/U, exact
  ct, nt     sum over its target trials of ln(1 + e^-(s + L)), its number of targets
  cn, nn     the same over its non-target trials with ln(1 + e^(s + L))
             -> act_cnxe = [P_tar sum(ct)/sum(nt) + (1 - P_tar) sum(cn)/sum(nn)] / (ln 2 h2(P_tar))
  mct, mcn   ct, cn of the recalibrated scores gamma s + delta, with the full-sample affine
             calibration (gamma, delta) kept fixed -> min_cnxe. A resample's own optimum
             would be lower: the interval describes the sampling variability of the cross-
             entropy at the fitted calibration, not the refitting (docs/uncertainty.md).
"""
from __future__ import annotations

import math

import numpy as np

from termeval.bootstrap.engine import UnitStats
from termeval.std.units import GRID, _grid   # the STD threshold grid, shared
from termeval.std.cnxe import h2, logit, softplus

METRICS = ("act_twv", "max_twv", "ub_twv", "act_cnxe", "min_cnxe")


def _per_query(tr, values: np.ndarray) -> np.ndarray:
    return np.bincount(tr.query, weights=values, minlength=tr.n_queries)


def query_table(tr, r, accept: np.ndarray) -> UnitStats:
    """The per-query table of termeval.quesst.quesst Trials `tr`, their QuesstResult `r` and
    the actual decisions `accept` (one per trial point)."""
    K = tr.n_queries
    nt = tr.n_target.astype(np.float64)
    nn = tr.n_nontarget.astype(np.float64)
    nn1 = np.maximum(nn, 1.0)    # a query in every document has no false alarms (Pfa 0)
    c = tr.count.astype(np.float64)
    tgt = np.asarray(tr.target, bool)
    hit = _per_query(tr, c * (accept & tgt)) / nt
    pfa = _per_query(tr, c * (accept & ~tgt)) / nn1
    grid = _grid(tr.score, r.max_twv_threshold)
    grid = np.r_[grid, np.full(GRID + 1 - len(grid), grid[-1])]    # fixed width (see above), as STD
    G = len(grid)
    pos = np.searchsorted(grid, tr.score, side="right")             # thresholds 0..pos-1 accept

    def accepted(mask: np.ndarray) -> np.ndarray:
        cnt = np.bincount(tr.query[mask] * (G + 1) + pos[mask], weights=c[mask],
                          minlength=K * (G + 1)).reshape(K, G + 1)
        return np.cumsum(cnt[:, ::-1], axis=1)[:, ::-1][:, 1:]     # score >= grid[j]

    H = accepted(tgt) / nt[:, None]
    F = accepted(~tgt) / nn1[:, None]
    L = logit(r.p_tar)

    def xent(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        z = s + L
        return _per_query(tr, np.where(tgt, c * softplus(-z), 0.0)), _per_query(tr, np.where(tgt, 0.0, c * softplus(z)))

    defined = math.isfinite(r.act_cnxe)
    ct, cn = xent(tr.score) if defined else (np.zeros(K), np.zeros(K))
    g, d = r.min_cnxe.gamma, r.min_cnxe.delta
    mct, mcn = xent(g * tr.score + d) if math.isfinite(g) and math.isfinite(d) else (np.zeros(K), np.zeros(K))
    hc, fc = [f"h{j}" for j in range(G)], [f"f{j}" for j in range(G)]
    cols = ["one", "hit", "pfa", "ub", "ct", "nt", "cn", "nn", "mct", "mcn"] + hc + fc
    X = np.c_[np.ones(K), hit, pfa, r.per_query_best, ct, nt, cn, nn, mct, mcn, H, F]
    order = np.argsort(np.asarray(tr.query_ids, dtype=str), kind="stable")
    b = float(r.beta)
    k = 1.0 / (math.log(2.0) * h2(r.p_tar))
    wt, wn = r.p_tar * k, (1.0 - r.p_tar) * k
    metrics = {"act_twv": ("lincomb", ((1.0, "hit", "one"), (-b, "pfa", "one"))),
               "max_twv": ("maxlincomb", ((1.0, tuple(hc), "one"), (-b, tuple(fc), "one"))),
               "ub_twv": ("ratio", "ub", "one"),
               "act_cnxe": ("lincomb", ((wt, "ct", "nt"), (wn, "cn", "nn"))),
               "min_cnxe": ("lincomb", ((wt, "mct", "nt"), (wn, "mcn", "nn")))}
    exact = {"act_twv": r.act_twv, "max_twv": r.max_twv, "ub_twv": r.ub_twv, "act_cnxe": r.act_cnxe,
             "min_cnxe": r.min_cnxe.cnxe}
    exact = {m: (None if v is None or not math.isfinite(v) else float(v)) for m, v in exact.items()}
    return UnitStats("query", [tr.query_ids[i] for i in order], cols, X[order], metrics, exact)
