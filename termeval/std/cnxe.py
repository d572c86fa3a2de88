"""Normalised cross-entropy Cnxe and its minimum Cmin_nxe (seed §4.2.3-4.2.5, spec §4).

Trials are weighted points (score, count) per class, so the |Q| x N virtual non-target
trials of SWS 2013 cost nothing. Scores are natural-log likelihood ratios.
Cmin_nxe: minimum over affine recalibrations gamma*s + delta, found by Newton's method on
the prior-weighted logistic regression (convex), started from (0, logit P_tar) = Cnxe 1,
with backtracking and a stable log-sigmoid; `cmin_pav` gives the PAV lower bound.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import numpy as np


def softplus(x: np.ndarray) -> np.ndarray:
    """log(1 + e^x), stable for any x."""
    x = np.asarray(x, dtype=np.float64)
    return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))


def sigmoid(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def logit(p: float) -> float:
    return math.log(p) - math.log1p(-p)


def h2(p: float) -> float:
    """Binary entropy in bits (the prior entropy Cxe_prior)."""
    return -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


@dataclass
class Trials:
    """Weighted trial points: scores and counts of targets and non-targets."""
    tar: np.ndarray
    tar_n: np.ndarray
    non: np.ndarray
    non_n: np.ndarray

    @property
    def n_tar(self) -> float:
        return float(self.tar_n.sum())

    @property
    def n_non(self) -> float:
        return float(self.non_n.sum())


def compact(scores: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merge equal scores (sums their counts); drops zero counts."""
    keep = counts > 0
    u, inv = np.unique(scores[keep], return_inverse=True)
    return u, np.bincount(inv, weights=counts[keep], minlength=len(u))


def cxe(t: Trials, p_tar: float, gamma: float = 1.0, delta: float = 0.0) -> float:
    """Empirical cross-entropy in bits (seed eq. 38/43) of gamma*s + delta."""
    L = logit(p_tar)
    ct = np.dot(t.tar_n, softplus(-(gamma * t.tar + delta + L))) / t.n_tar
    cn = np.dot(t.non_n, softplus(gamma * t.non + delta + L)) / t.n_non
    return float((p_tar * ct + (1 - p_tar) * cn) / math.log(2))


def cnxe(t: Trials, p_tar: float) -> Optional[float]:
    if t.n_tar == 0 or t.n_non == 0:
        return None
    return cxe(t, p_tar) / h2(p_tar)


def cmin_newton(t: Trials, p_tar: float, max_iter: int = 100) -> tuple[Optional[float], float, float, bool]:
    """min over (gamma, delta) of Cnxe(gamma*s + delta). Returns (cmin, gamma, delta, separable)."""
    if t.n_tar == 0 or t.n_non == 0:
        return None, float("nan"), float("nan"), False
    L = logit(p_tar)
    s = np.r_[t.tar, t.non]
    y = np.r_[np.ones(len(t.tar)), np.zeros(len(t.non))]
    w = np.r_[t.tar_n * (p_tar / t.n_tar), t.non_n * ((1 - p_tar) / t.n_non)]
    # centre/scale the scores for conditioning; map back at the end
    mu = float(np.average(s, weights=w))
    sd = float(np.sqrt(np.average((s - mu) ** 2, weights=w))) or 1.0
    x = (s - mu) / sd

    def f(a: float, b: float) -> float:
        z = a * x + b
        return float(np.dot(w, np.where(y > 0, softplus(-z), softplus(z))))

    a, b = 0.0, L
    fx = f(a, b)
    separable = False
    for _ in range(max_iter):
        z = a * x + b
        p = sigmoid(z)
        r = w * (p - y)
        v = w * p * (1 - p)
        g = np.array([np.dot(r, x), r.sum()])
        H = np.array([[np.dot(v, x * x), np.dot(v, x)], [np.dot(v, x), v.sum()]])
        H[0, 0] += 1e-12
        H[1, 1] += 1e-12
        det = H[0, 0] * H[1, 1] - H[0, 1] ** 2
        if det <= 1e-300:
            step = -g  # degenerate Hessian: gradient step
        else:
            step = -np.linalg.solve(H, g)
        gs = float(g @ step)
        lam = 1.0
        while True:
            na, nb = a + lam * step[0], b + lam * step[1]
            nf = f(na, nb)
            if nf <= fx + 1e-4 * lam * gs or lam < 1e-12:
                break
            lam /= 2
        if nf > fx:
            break
        done = abs(lam) * np.hypot(*step) < 1e-12 or fx - nf < 1e-16 * max(1.0, fx)
        a, b, fx = na, nb, nf
        if done:
            break
        if abs(a) > 1e8:
            separable = True
            break
    cmin = fx / (math.log(2) * h2(p_tar))
    gamma = a / sd
    delta = b - a * mu / sd - L
    if fx < 1e-9:
        separable = True
    return cmin, gamma, delta, separable


def cmin_pav(t: Trials, p_tar: float) -> Optional[float]:
    """PAV lower bound: Cnxe after the optimal monotone recalibration (ties pooled)."""
    if t.n_tar == 0 or t.n_non == 0:
        return None
    s = np.r_[t.tar, t.non]
    nt = np.r_[t.tar_n, np.zeros(len(t.non))]
    nn = np.r_[np.zeros(len(t.tar)), t.non_n]
    u, inv = np.unique(s, return_inverse=True)  # equal scores always pool (targets first)
    bt = np.bincount(inv, weights=nt, minlength=len(u))
    bn = np.bincount(inv, weights=nn, minlength=len(u))
    # stack-based PAV on (targets, total) blocks, fitting y = target rate non-decreasing
    st_t: list[float] = []
    st_n: list[float] = []
    for a, b in zip(bt.tolist(), bn.tolist()):
        st_t.append(a)
        st_n.append(b)
        while len(st_t) > 1 and st_t[-2] * (st_t[-1] + st_n[-1]) >= st_t[-1] * (st_t[-2] + st_n[-2]):
            a2, b2 = st_t.pop(), st_n.pop()
            st_t[-1] += a2
            st_n[-1] += b2
    kt = np.asarray(st_t)
    kn = np.asarray(st_n)
    L = logit(p_tar)
    prior_odds = math.log(t.n_tar / t.n_non)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        llr = np.log(kt) - np.log(kn) - prior_odds
        ct = np.where(kt > 0, kt * softplus(-(llr + L)), 0.0).sum() / t.n_tar
        cn = np.where(kn > 0, kn * softplus(llr + L), 0.0).sum() / t.n_non
    return float((p_tar * ct + (1 - p_tar) * cn) / (math.log(2) * h2(p_tar)))
