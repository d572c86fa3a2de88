"""Normalised cross-entropy Cnxe, its affine minimum Cmin_nxe and the PAV bounds: the one
implementation used by STD (score.py) and QUESST (quesst.py). Rodriguez-Fuentes and Penagarikano 2013 §4.2.3-4.2.5, docs/std.md §4.

Trials are *weighted points* (score, is_target, count): a point stands for `count` trials
with that score, so the |Q| x N virtual non-target trials of SWS 2013 or the unreported
(query, document) pairs of QUESST cost one point each. Scores are natural-log LLRs.

* cnxe: Cxe of the scores divided by the prior entropy h2(P_tar).
* min_cnxe_affine: minimum over gamma*s + delta (prior-weighted logistic regression, convex),
  Newton's method with backtracking started at (0, 0) = Cnxe 1 (so the result is <= min(1,
  act)), or at the identity when some scores are infinite (PAV output).
* pav_llr / min_cnxe_pav: optimal monotone recalibration (PAV, equal scores pooled), per
  segment (e.g. per query) or global; the global one is a lower bound of the affine minimum.
* separable: min target score > max non-target score. Cmin_nxe is then an infimum (0, not
  attained by any finite gamma): a property of the data, not of an iteration cut-off.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from termeval.core.errors import InputError

LN2 = math.log(2.0)
GAMMA_GUARD = 1e8  # Newton stops when |gamma| (standardised scores) exceeds this: separated data


def softplus(x: np.ndarray) -> np.ndarray:
    """ln(1 + e^x), stable for any x including +-inf."""
    return np.logaddexp(0.0, np.asarray(x, dtype=np.float64))


def sigmoid(x: np.ndarray) -> np.ndarray:
    """Stable logistic: e^(-|x|) never overflows."""
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def logit(p: float) -> float:
    return math.log(p) - math.log1p(-p)


def h2(p: float) -> float:
    """Binary entropy in bits: the Cxe of the all-zero-LLR system (Cxe_prior)."""
    return -(p * math.log2(p) + (1.0 - p) * math.log2(1.0 - p))


def points(tar: np.ndarray, tar_n: np.ndarray, non: np.ndarray, non_n: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(score, target, count) from per-class (scores, counts); zero counts are dropped."""
    s = np.r_[np.asarray(tar, np.float64), np.asarray(non, np.float64)]
    y = np.r_[np.ones(len(tar), bool), np.zeros(len(non), bool)]
    c = np.r_[np.asarray(tar_n, np.float64), np.asarray(non_n, np.float64)]
    keep = c > 0
    return s[keep], y[keep], c[keep]


def class_weights(target: np.ndarray, count: np.ndarray, p_tar: float) -> np.ndarray:
    """Weight of each point: P_tar/N_tar per target trial, (1-P_tar)/N_non per non-target."""
    nt = count[target].sum()
    nn = count[~target].sum()
    if nt == 0 or nn == 0:
        raise InputError("Cnxe needs both target and non-target trials")
    return np.where(target, p_tar / nt, (1.0 - p_tar) / nn) * count


def cnxe(score: np.ndarray, target: np.ndarray, count: np.ndarray, p_tar: float) -> float:
    """Normalised cross-entropy of scores read as natural-log LLRs (seed eq. 43)."""
    w = class_weights(target, count, p_tar)
    z = np.asarray(score, np.float64) + logit(p_tar)
    cost = np.where(target, softplus(-z), softplus(z))
    cost = np.where(w > 0, cost, 0.0)  # skip empty points (0*inf)
    return float(np.sum(w * cost) / LN2 / h2(p_tar))


def separable(score: np.ndarray, target: np.ndarray, count: np.ndarray) -> bool:
    """Strictly separated finite scores: every target above every non-target."""
    ok = (np.asarray(count) > 0) & np.isfinite(score)
    st, sn = score[ok & target], score[ok & ~target]
    return bool(len(st) and len(sn) and st.min() > sn.max())


@dataclass(frozen=True)
class AffineFit:
    cnxe: float
    gamma: float
    delta: float
    iterations: int
    separable: bool


def min_cnxe_affine(score: np.ndarray, target: np.ndarray, count: np.ndarray,
                    p_tar: float, max_iter: int = 100, compress: bool = False) -> AffineFit:
    """min over (gamma, delta) of Cnxe(gamma*s + delta).

    Scores are standardised for conditioning and mapped back. Points with infinite scores (PAV
    output) cost 0 for any gamma > 0 and are left out of the fit (their class mass still
    counts in the normalisation); gamma is then kept positive and the start is the identity.
    compress=True first merges equal (score, class) points (PAV output has few values).
    """
    score = np.asarray(score, np.float64)
    target = np.asarray(target, bool)
    L = logit(p_tar)
    w_all = class_weights(target, count, p_tar)
    sep = separable(score, target, count)
    norm = LN2 * h2(p_tar)
    if compress:
        u, inv = np.unique(score, return_inverse=True)
        wt = np.bincount(inv, weights=np.where(target, w_all, 0.0), minlength=len(u))
        wn = np.bincount(inv, weights=np.where(target, 0.0, w_all), minlength=len(u))
        score = np.concatenate([u, u])
        target = np.concatenate([np.ones(len(u), bool), np.zeros(len(u), bool)])
        w_all = np.concatenate([wt, wn])
    nz = w_all > 0
    score, target, w_all = score[nz], target[nz], w_all[nz]
    fin = np.isfinite(score)
    has_inf = not fin.all()
    s, y, w = score[fin], target[fin].astype(np.float64), w_all[fin]
    if len(s) == 0:
        return AffineFit(0.0, 1.0, 0.0, 0, True)
    mu = float(np.average(s, weights=w))
    sd = float(np.sqrt(np.average((s - mu) ** 2, weights=w))) or 1.0
    x = (s - mu) / sd
    sign = np.where(y > 0, -1.0, 1.0)

    def f(a: float, b: float) -> float:
        return float(np.sum(w * softplus(sign * (a * x + b))))  # pairwise summation

    # standardised space: z = a*x + b = (a/sd)*s + (b - a*mu/sd)
    a, b = (sd, L + mu) if has_inf else (0.0, L)
    fx = f(a, b)
    it = 0
    for it in range(1, max_iter + 1):
        p = sigmoid(a * x + b)
        r = w * (p - y)
        v = w * p * (1.0 - p)
        g = np.array([np.dot(r, x), r.sum()])
        H = np.array([[np.dot(v, x * x), np.dot(v, x)], [np.dot(v, x), v.sum()]])
        H += 1e-12 * np.eye(2) * max(1.0, np.trace(H))
        try:
            step = -np.linalg.solve(H, g)
        except np.linalg.LinAlgError:
            break
        t = 1.0
        gs = float(g @ step)
        while True:
            na, nb = a + t * step[0], b + t * step[1]
            if (not has_inf or na > 0) and f(na, nb) <= fx + 1e-4 * t * gs:
                break
            t *= 0.5
            if t < 1e-12:
                break
        if t < 1e-12:
            break
        fn = f(na, nb)
        done = abs(fx - fn) <= 1e-15 * max(1.0, abs(fx)) or np.hypot(*(t * step)) < 1e-12
        a, b, fx = na, nb, fn
        if done or abs(a) > GAMMA_GUARD:
            break
    gamma = a / sd
    delta = (b - a * mu / sd) - L
    return AffineFit(float(fx / norm), float(gamma), float(delta), it, sep)


def pav_llr(seg: np.ndarray, score: np.ndarray, target: np.ndarray, count: np.ndarray,
            prior_conversion: str = "segment", order: np.ndarray | None = None) -> np.ndarray:
    """PAV-calibrated LLR of each point, isotonic within each segment (e.g. query).

    Points are sorted by (segment, score); equal scores are pooled (pessimistic tie rule);
    consecutive score groups of one class are merged before the PAV loop (an optimal isotonic
    fit is constant over a run of equal labels), so the Python loop visits ~2 x #targets
    points. Each block's posterior t/(t+n) becomes llr = logit - ln(Nt/Nn), with Nt/Nn the
    segment's own counts ('segment') or the global ones ('global'); +-inf at pure blocks.
    `order`: a precomputed lexsort((score, seg)).
    """
    if order is None:
        order = np.lexsort((score, seg))
    sg, sc = seg[order], score[order]
    ct = np.where(target[order], count[order], 0).astype(np.float64)
    cn = np.where(target[order], 0, count[order]).astype(np.float64)
    n = len(sc)
    newgrp = np.ones(n, bool)
    newgrp[1:] = (sg[1:] != sg[:-1]) | (sc[1:] != sc[:-1])
    gid = np.cumsum(newgrp) - 1
    gt = np.bincount(gid, weights=ct)
    gn = np.bincount(gid, weights=cn)
    gseg = sg[newgrp]
    cls = np.where(gn == 0, 1, np.where(gt == 0, 0, 2))  # pure target / pure non-target / mixed
    newrun = np.ones(len(gt), bool)
    newrun[1:] = (gseg[1:] != gseg[:-1]) | (cls[1:] != cls[:-1]) | (cls[1:] == 2)
    rid = np.cumsum(newrun) - 1
    rt = np.bincount(rid, weights=gt).tolist()
    rn = np.bincount(rid, weights=gn).tolist()
    rseg = gseg[newrun].tolist()
    bt: list[float] = []
    bn: list[float] = []
    blen: list[int] = []
    bseg: list[int] = []
    for i in range(len(rt)):  # stack-based PAV over the runs, restarted at each segment
        t, nn_, ln_, sgi = rt[i], rn[i], 1, rseg[i]
        while bseg and bseg[-1] == sgi and bt[-1] * (t + nn_) >= t * (bt[-1] + bn[-1]):
            t += bt.pop()  # previous block's rate >= this one's: pool (ties too)
            nn_ += bn.pop()
            ln_ += blen.pop()
            bseg.pop()
        bt.append(t)
        bn.append(nn_)
        blen.append(ln_)
        bseg.append(sgi)
    bt_a, bn_a = np.array(bt), np.array(bn)
    run_block = np.repeat(np.arange(len(bt)), blen)
    with np.errstate(divide="ignore", invalid="ignore"):
        lg = np.log(bt_a) - np.log(bn_a)
    bseg_a = np.array(bseg, dtype=np.int64)
    if prior_conversion == "global":
        llr_b = lg - math.log(ct.sum() / cn.sum())
    else:
        st = np.bincount(bseg_a, weights=bt_a, minlength=int(bseg_a.max()) + 1)
        sn = np.bincount(bseg_a, weights=bn_a, minlength=int(bseg_a.max()) + 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            llr_b = lg - (np.log(st) - np.log(sn))[bseg_a]
    # pure blocks are certain whatever the prior (a segment may have no non-targets), never inf-inf
    llr_b = np.where(bn_a == 0, np.inf, np.where(bt_a == 0, -np.inf, llr_b))
    out = np.empty(n)
    out[order] = llr_b[run_block][rid][gid]
    return out


def min_cnxe_pav(score: np.ndarray, target: np.ndarray, count: np.ndarray, p_tar: float,
                 asc: np.ndarray | None = None) -> float:
    """PAV lower bound: Cnxe after the optimal monotone recalibration (<= affine minimum).
    `asc`: a precomputed ascending sort of the scores."""
    llr = pav_llr(np.zeros(len(score), np.int64), score, target, count, "global", asc)
    return cnxe(llr, target, count, p_tar)
