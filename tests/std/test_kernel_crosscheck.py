"""One kernel per quantity (issue 14 §3): the Cnxe/Cmin_nxe/PAV kernel (termeval/std/cnxe.py)
and the TWV sweep (termeval/std/twv.py) are used by both STD and QUESST. The second
implementations they replaced -- the STD scorer's own Newton/PAV (separable cut-off |a| > 1e8)
and QUESST's own TWV sweep and per-query best (exact-equality ties) -- are kept here, verbatim
in substance, as independent cross-checks."""
from __future__ import annotations

import math
from typing import Optional
from dataclasses import dataclass

import numpy as np
import pytest

from termeval.std import cnxe as cx
from termeval.quesst import quesst as Q
from termeval.std.twv import compute_twv, segment_best



# the retired implementations' elementary functions, written here from their definitions (not
# termeval.std.cnxe's): softplus(x) = ln(1 + e^x), sigmoid(x) = 1 / (1 + e^-x), logit(p) =
# ln(p / (1 - p)), h2(p) = the binary entropy in bits
def softplus(x):
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(over="ignore"):
        return np.where(x > 0, x + np.log1p(np.exp(-np.abs(x))), np.log1p(np.exp(np.minimum(x, 0.0))))


def sigmoid(x):
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(over="ignore"):
        return np.where(x >= 0, 1.0 / (1.0 + np.exp(-np.abs(x))), np.exp(np.minimum(x, 0.0)) / (1.0 + np.exp(np.minimum(x, 0.0))))


def logit(p: float) -> float:
    return math.log(p / (1.0 - p))


def h2(p: float) -> float:
    return -(p * math.log(p) + (1.0 - p) * math.log(1.0 - p)) / math.log(2.0)


def test_elementary_functions_agree():
    x = np.array([-np.inf, -800.0, -30.0, -1.0, 0.0, 1e-300, 2.5, 40.0, 800.0, np.inf])
    assert np.allclose(softplus(x), cx.softplus(x), rtol=1e-14, atol=1e-300)
    assert np.allclose(sigmoid(x), cx.sigmoid(x), rtol=1e-14, atol=1e-300)
    for p in (1e-6, 0.01, 0.3, 0.5, 0.9, 1 - 1e-9):
        assert logit(p) == pytest.approx(cx.logit(p), rel=1e-9, abs=1e-12)
        assert h2(p) == pytest.approx(cx.h2(p), rel=1e-12)


@dataclass
class _Trials:
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


# ---------------------------------------------------------------- retired STD Cnxe implementation

def newton_std(t: _Trials, p_tar: float, max_iter: int = 100) -> tuple[Optional[float], float, float, bool]:
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


def pav_std(t: _Trials, p_tar: float) -> Optional[float]:
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


# ---------------------------------------------------------------- retired QUESST TWV sweep

def _sweep(score: np.ndarray, w: np.ndarray, asc: np.ndarray | None = None
           ) -> tuple[np.ndarray, np.ndarray]:
    """(thresholds descending, TWV at each): TWV(theta) = sum of w over score >= theta."""
    # within a tie group the order does not matter (only group ends are read)
    order = np.argsort(-score, kind="stable") if asc is None else asc[::-1]
    s = score[order]
    cum = np.cumsum(w[order])
    end = np.ones(len(s), dtype=bool)
    end[:-1] = s[1:] != s[:-1]  # equal scores are accepted together
    return s[end], cum[end]


def max_twv_quesst(tr: Q.Trials, beta: float, asc: np.ndarray | None = None) -> tuple[float, float]:
    """(MTWV, threshold): maximum over every distinct score; lowest threshold on ties."""
    thr, val = _sweep(tr.score, Q.twv_weights(tr, beta), asc)
    best = val.max()
    i = len(val) - 1 - int(np.argmax(val[::-1] == best))  # last = lowest threshold
    return float(val[i]), float(thr[i])


def per_query_best_quesst(tr: Q.Trials, beta: float, qasc: np.ndarray | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Each query's best TWV over its own thresholds, including rejecting all (TWV_q = 0).

    Returns (best TWV_q, threshold_q); the threshold is +inf where rejecting all is best
    (ties: the lowest threshold, as for the global sweep). Points are visited in (query,
    score) ascending order; TWV_q(theta) is the within-query suffix sum of the weights at
    the first point of each group of equal scores.
    """
    K = tr.n_queries
    w = Q.twv_weights(tr, beta, per_query=True)
    order = np.lexsort((tr.score, tr.query)) if qasc is None else qasc
    q, s, wo = tr.query[order], tr.score[order], w[order]
    total = np.bincount(q, weights=wo, minlength=K)
    cum = np.cumsum(wo)
    qstart = np.searchsorted(q, np.arange(K))  # every kept query has >= 1 point
    before = np.concatenate([[0.0], cum])[qstart]
    suffix = total[q] - (cum - before[q]) + wo  # sum over this point and the higher ones
    first = np.ones(len(q), dtype=bool)
    first[1:] = (s[1:] != s[:-1]) | (q[1:] != q[:-1])
    qf, sf, vf = q[first], s[first], suffix[first]
    seg = np.searchsorted(qf, np.arange(K))
    best = np.maximum(np.maximum.reduceat(vf, seg), 0.0)
    thr = np.full(K, np.inf)
    hit = np.flatnonzero((vf == best[qf]) & (vf > 0))
    # lowest threshold among a query's maxima: scores ascend within a query, take the first
    qh = qf[hit]
    firsthit = np.ones(len(hit), dtype=bool)
    firsthit[1:] = qh[1:] != qh[:-1]
    thr[qh[firsthit]] = sf[hit[firsthit]]
    return best, thr




def _random_trials(seed: int, nq: int = 7, nd: int = 30, frac: float = 0.5) -> Q.Trials:
    rng = np.random.default_rng(seed)
    tq, td = [], []
    for q in range(nq):
        for d in rng.choice(nd, size=int(rng.integers(1, 5)), replace=False):
            tq.append(q)
            td.append(d)
    tq, td = np.array(tq), np.array(td)
    is_t = np.zeros((nq, nd), bool)
    is_t[tq, td] = True
    qq, dd = np.meshgrid(np.arange(nq), np.arange(nd), indexing="ij")
    keep = rng.random((nq, nd)) < frac
    s = np.round(rng.normal(size=(nq, nd)) + 2.0 * is_t + rng.normal(size=(nq, 1)), 1)  # ties
    return Q.build_trials([f"q{i}" for i in range(nq)], nd, tq, td, qq[keep], dd[keep], s[keep], -3.0)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("p_tar", [0.5, 0.0741289844, 0.0147805])
def test_cnxe_kernel_matches_retired_std_implementation(seed, p_tar):
    tr = _random_trials(seed)
    t = _Trials(tr.score[tr.target], tr.count[tr.target].astype(float),
                tr.score[~tr.target], tr.count[~tr.target].astype(float))
    pts = (tr.score, tr.target, tr.count)
    fit = cx.min_cnxe_affine(*pts, p_tar)
    cmin, gamma, delta, _ = newton_std(t, p_tar)
    assert cmin == pytest.approx(fit.cnxe, abs=1e-8)
    assert gamma == pytest.approx(fit.gamma, abs=1e-5) and delta == pytest.approx(fit.delta, abs=1e-5)
    assert pav_std(t, p_tar) == pytest.approx(cx.min_cnxe_pav(*pts, p_tar), abs=1e-10)
    # and the QUESST report uses exactly these kernels
    r = Q.score_trials(tr, p_tar)
    assert (r.min_cnxe.cnxe, r.min_cnxe_pav) == (fit.cnxe, cx.min_cnxe_pav(*pts, p_tar))


def test_separable_flag_agrees_with_the_retired_cutoff_on_separated_data():
    t = _Trials(np.array([3.0, 4.0]), np.ones(2), np.array([0.0, 1.0]), np.array([1.0, 50.0]))
    pts = cx.points(t.tar, t.tar_n, t.non, t.non_n)
    fit = cx.min_cnxe_affine(*pts, 0.1)
    c, _, _, sep = newton_std(t, 0.1)
    assert sep and fit.separable and fit.cnxe == pytest.approx(c, abs=1e-8) and fit.cnxe < 1e-6


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("beta", [1.0, 12.49, 66.656667])
def test_twv_sweep_matches_retired_quesst_sweep(seed, beta):
    tr = _random_trials(seed)
    asc, qasc = Q.sort_orders(tr)
    assert Q.max_twv(tr, beta, asc) == max_twv_quesst(tr, beta, asc)
    b0, t0 = per_query_best_quesst(tr, beta, qasc)
    b1, t1 = Q.per_query_best(tr, beta, qasc)
    np.testing.assert_array_equal(b0, b1)
    np.testing.assert_array_equal(t0, t1)


def _otwv_std(term, score, w, Q_, s_top):
    """The STD scorer's own per-term OTWV (global thresholds, descending prefix sums)."""
    o = np.argsort(-score, kind="stable")
    oq = o[np.argsort(term[o], kind="stable")]
    tq, sq = term[oq], score[oq]
    cw = np.cumsum(w[oq])
    qstart = np.flatnonzero(np.r_[True, tq[1:] != tq[:-1]])
    base = np.repeat(np.r_[0.0, cw[qstart[1:] - 1]] if len(qstart) > 1 else np.zeros(1),
                     np.diff(np.r_[qstart, len(tq)]))
    local = cw - base
    gend = np.flatnonzero(np.r_[(tq[1:] != tq[:-1]) | (sq[1:] != sq[:-1]), True])
    best_q = np.full(Q_, -np.inf)
    np.maximum.at(best_q, tq[gend], local[gend])
    qmax = np.full(Q_, -np.inf)
    np.maximum.at(qmax, tq, sq)
    best_q = np.where(qmax < s_top, np.maximum(best_q, 0.0), best_q)
    best_q[~np.isfinite(best_q)] = 0.0
    return best_q


@pytest.mark.parametrize("seed", range(6))
def test_segment_best_matches_retired_std_otwv(seed):
    rng = np.random.default_rng(seed)
    Q_, n = 9, 200
    term = rng.integers(0, Q_ - 1, n)  # the last term has no detections
    score = np.round(rng.uniform(0, 1, n), 2)
    w = np.where(rng.random(n) < 0.3, 0.05, -0.02)
    qmax = np.full(Q_, -np.inf)
    np.maximum.at(qmax, term, score)
    best, _ = segment_best(term, score, w, Q_, qmax < score.max())
    np.testing.assert_allclose(best, _otwv_std(term, score, w, Q_, score.max()), rtol=0, atol=1e-15)
    # compute_twv reports it in TWV units per term
    ntrue = np.full(Q_, 5)
    r = compute_twv(Q_, ntrue, np.ones(Q_, bool), 1000, 10.0, term, score, score >= 0.5,
                    rng.random(n) < 0.2)
    assert np.isfinite(r.term_otwv).all()
