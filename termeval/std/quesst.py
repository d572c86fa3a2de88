"""QUESST-style per-document scoring (MediaEval QUESST 2014/2015 kit; std-spec §1.7, §4.2b).

Every (query, document) pair is a trial. A query's target trials are the documents it occurs
in. The system's detections are reduced to one score per trial (the maximum over the
detections of that pair), and a trial the system did not report takes a user-given default
score (s3prl/SUPERB pass -10; the kit counts these as "default(null)"). Queries that occur in
no document are removed ("Removing unseen models"), as the kit does.

Everything is computed on *weighted points* `(query, score, is_target, count)`: a reported
trial is a point of count 1, and the unreported trials of a query are at most two points
(targets and non-targets at the default score) whose count is the number of such trials, so
a 500 x 10,000 task with sparse output costs memory in the number of detections only.

Measures (P_tar = effective prior, beta = (1 - P_tar) / P_tar, L = logit(P_tar)):
  * TWV(theta) = 1 - mean_q Pmiss(q, theta) - beta * mean_q Pfa(q, theta), YES iff
    score >= theta, Pfa over the `#documents - Ntrue(q)` non-target trials of q.
    act_twv uses `act_threshold` (default ln(beta): the Bayes threshold for LLR scores at
    P_tar), or the YES/NO decisions when asked. max_twv sweeps every distinct trial score
    (default-score trials included); on ties the lowest threshold wins; the "reject all"
    point is not evaluated (as in F4DE), so max_twv can be negative.
  * ub_twv ("Upper-bound TWV (model-dependent offset)"): each query's scores get their own
    offset s - theta_q, theta_q = that query's best threshold (or above all its scores when
    rejecting everything, TWV_q = 0, is best), and the shifted scores are thresholded at 0;
    its act and max values coincide by construction and its threshold is 0.0, as the kit
    prints it.
  * act_cnxe: pooled normalised cross-entropy of the scores read as natural-log LLRs.
  * min_cnxe: minimum over affine recalibration gamma*s + delta (Newton, seed eq. 44-45).
  * min_cnxe_pav: global PAV lower bound (optimal monotone recalibration); PAV <= affine.
  * lb_cnxe ("Lower-bound Cnxe (model-dependent PAV)"): PAV per query, each query's PAV
    posteriors turned into LLRs with that query's own empirical prior, pooled; the kit's
    "minCnxe" on that line is the affine minimum over those pooled LLRs (lb_min_cnxe).
    (Converting with the global prior instead would make the pooled LLRs optimal, so an
    affine recalibration could not improve them; the kit's README example shows minCnxe <
    actCnxe on this line, which fits the per-query conversion.)

The five headline lines (`kit_lines`) copy the kit's layout, numbers formatted like Java's
Float.toString (the kit prints float32 values).

Not verifiable without the kit's jar (MediaEvalQUESST2015.jar, distributed only inside the
dataset tarballs, source not public): whether actTWV uses the Bayes threshold on the scores
(our default), a different one, or the YES/NO decisions (--use-decisions); how the jar
treats several entries for one (query, document) (we keep the maximum); whether its minCnxe
is affine (ours) or PAV (ours: min_cnxe_pav); its exact PAV tie rule and the conversion in
the lower-bound line; whether its maxTWV sweep evaluates "reject all"; its float32
arithmetic (values may differ in the last printed digits). Checked here instead: std-spec
§6.4 vectors to 1e-6, hand-computed TWV cases, PAV <= affine <= min(1, act), the PAV run
compression against a textbook PAV, and agreement with termeval/std/cnxe.py (an
independent implementation) to 1e-8.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from termeval.errors import InputError

LN2 = math.log(2.0)


# ----------------------------------------------------------------------------- parameters

def effective_prior(p_target: float, c_miss: float, c_fa: float) -> float:
    """P_tar = C_miss*P_target / (C_miss*P_target + C_fa*(1-P_target)) (seed eq. 21-23)."""
    num = c_miss * p_target
    p = num / (num + c_fa * (1.0 - p_target))
    if not 0.0 < p < 1.0:
        raise InputError(f"effective prior {p} must lie strictly between 0 and 1")
    return p


def beta_from_prior(p_tar: float) -> float:
    return (1.0 - p_tar) / p_tar


def h2(p: float) -> float:
    """Binary entropy in bits: the Cxe of the all-zero-LLR system."""
    return -(p * math.log2(p) + (1.0 - p) * math.log2(1.0 - p))


def softplus(x: np.ndarray) -> np.ndarray:
    """ln(1 + e^x), stable for any x including +-inf (never -log(sigmoid(.)))."""
    return np.logaddexp(0.0, x)


def sigmoid(x: np.ndarray) -> np.ndarray:
    """Stable logistic: branch on the sign so e^(-x) never overflows."""
    x = np.asarray(x, dtype=np.float64)
    out = np.empty_like(x)
    pos = x >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-x[pos]))
    ex = np.exp(x[~pos])
    out[~pos] = ex / (1.0 + ex)
    return out


# ----------------------------------------------------------------------------- trials

@dataclass
class Trials:
    """Weighted trial points of a per-document task (queries without targets removed).

    Point i: query `query[i]` (index into `query_ids`), `score[i]`, `target[i]`,
    `count[i]` trials, `decision[i]` (YES) -- default-score points are NO.
    `n_target[k]` = number of documents query k occurs in; every query has `n_docs` trials.
    """
    query: np.ndarray
    score: np.ndarray
    target: np.ndarray
    count: np.ndarray
    decision: np.ndarray
    n_target: np.ndarray
    n_docs: int
    query_ids: list[str]
    counts: dict = field(default_factory=dict)

    @property
    def n_queries(self) -> int:
        return len(self.query_ids)

    @property
    def n_nontarget(self) -> np.ndarray:
        return self.n_docs - self.n_target


def reduce_max(keys: np.ndarray, scores: np.ndarray, decisions: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One entry per key: the maximum score and the decision of that entry (YES on ties)."""
    order = np.argsort(keys, kind="stable")
    k = keys[order]
    if len(k) < 2 or (k[1:] != k[:-1]).all():  # no duplicates (e.g. a complete list)
        return k, scores[order], decisions[order]
    order = np.lexsort((decisions, scores, keys))
    k = keys[order]
    last = np.ones(len(k), dtype=bool)
    last[:-1] = k[1:] != k[:-1]
    return k[last], scores[order][last], decisions[order][last]


def build_trials(query_ids: list[str], n_docs: int,
                 target_q: np.ndarray, target_d: np.ndarray,
                 det_q: np.ndarray, det_d: np.ndarray, det_score: np.ndarray,
                 default_score: float, det_decision: np.ndarray | None = None) -> Trials:
    """Trial points from index arrays (queries 0..len(query_ids)-1, documents 0..n_docs-1).

    target_q/target_d: the (query, document) pairs where the query occurs (duplicates
    allowed). det_*: detections, any number per pair (reduced to the max score).
    """
    if not math.isfinite(default_score):
        raise InputError(f"the default score must be finite, got {default_score}")
    nq = len(query_ids)
    D = int(n_docs)
    if D <= 0:
        raise InputError("no documents to score")
    tkeys = np.unique(np.asarray(target_q, np.int64) * D + np.asarray(target_d, np.int64))
    n_target_all = np.bincount(tkeys // D, minlength=nq)
    keep = n_target_all > 0
    newidx = np.cumsum(keep) - 1
    kept_ids = [q for q, k in zip(query_ids, keep) if k]
    K = len(kept_ids)
    if K == 0:
        raise InputError("no query occurs in any document: nothing to score")
    n_target = n_target_all[keep].astype(np.int64)

    det_q = np.asarray(det_q, np.int64)
    det_d = np.asarray(det_d, np.int64)
    det_score = np.asarray(det_score, np.float64)
    dec = (np.ones(len(det_q), bool) if det_decision is None
           else np.asarray(det_decision, bool))
    n_det = len(det_q)
    keys, sc, dc = reduce_max(det_q * D + det_d, det_score, dec)
    n_duplicates = n_det - len(keys)
    gq = keys // D
    seen = keep[gq]
    n_unseen_query_trials = int((~seen).sum())
    keys, sc, dc, gq = keys[seen], sc[seen], dc[seen], newidx[gq[seen]]
    # map the kept keys to the renumbered queries for the target lookup
    gd = keys % D
    tq = tkeys // D
    tkeys_new = newidx[tq] * D + tkeys % D  # tq always kept (it has a target)
    gkeys_new = gq * D + gd
    pos = np.searchsorted(tkeys_new, gkeys_new)
    pos[pos >= len(tkeys_new)] = 0
    is_t = tkeys_new[pos] == gkeys_new

    given = np.bincount(gq, minlength=K)
    given_t = np.bincount(gq[is_t], minlength=K)
    miss_t = n_target - given_t
    miss_n = (D - n_target) - (given - given_t)
    qt = np.flatnonzero(miss_t > 0)
    qn = np.flatnonzero(miss_n > 0)
    query = np.concatenate([gq, qt, qn])
    score = np.concatenate([sc, np.full(len(qt) + len(qn), float(default_score))])
    target = np.concatenate([is_t, np.ones(len(qt), bool), np.zeros(len(qn), bool)])
    count = np.concatenate([np.ones(len(gq), np.int64), miss_t[qt], miss_n[qn]])
    decision = np.concatenate([dc, np.zeros(len(qt) + len(qn), bool)])
    counts = {
        "n_queries": K, "n_unseen_queries": int(nq - K), "n_documents": D,
        "n_trials": int(K * D), "n_targets": int(n_target.sum()),
        "n_given": int(len(gq)), "n_default": int(K * D - len(gq)),
        "n_detections": int(n_det), "n_duplicates": int(n_duplicates),
        "n_unseen_query_trials": n_unseen_query_trials,
        "min_given_score": float(sc.min()) if len(sc) else None,
        "max_given_score": float(sc.max()) if len(sc) else None,
    }
    return Trials(query, score, target, count, decision, n_target, D, kept_ids, counts)


# ----------------------------------------------------------------------------- TWV

def twv_weights(tr: Trials, beta: float, per_query: bool = False) -> np.ndarray:
    """TWV gain of accepting each point: +1/(K*Ntrue) per target, -beta/(K*Nnon) per non-target.

    per_query=True leaves out the 1/K (the weights then sum to that query's TWV).
    """
    K = 1.0 if per_query else float(tr.n_queries)
    nt = tr.n_target[tr.query].astype(np.float64)
    nn = tr.n_nontarget[tr.query].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(tr.target, 1.0 / (K * nt), -beta / (K * np.maximum(nn, 1.0)))
    return w * tr.count


def sort_orders(tr: Trials) -> tuple[np.ndarray, np.ndarray]:
    """(by score ascending, by (query, score) ascending): the two sorts every measure shares."""
    n = len(tr.score)
    asc = np.argsort(tr.score, kind="stable")
    rank = np.empty(n, np.int64)
    rank[asc] = np.arange(n)
    qasc = np.argsort(tr.query.astype(np.int64) * n + rank)  # unique keys: any sort is exact
    return asc, qasc


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


def max_twv(tr: Trials, beta: float, asc: np.ndarray | None = None) -> tuple[float, float]:
    """(MTWV, threshold): maximum over every distinct score; lowest threshold on ties."""
    thr, val = _sweep(tr.score, twv_weights(tr, beta), asc)
    best = val.max()
    i = len(val) - 1 - int(np.argmax(val[::-1] == best))  # last = lowest threshold
    return float(val[i]), float(thr[i])


def twv_at(tr: Trials, beta: float, accept: np.ndarray) -> tuple[float, float, float]:
    """(TWV, mean Pmiss, mean Pfa) accepting the points where `accept` is true."""
    K = tr.n_queries
    hits = np.bincount(tr.query, weights=(tr.count * (accept & tr.target)), minlength=K)
    fas = np.bincount(tr.query, weights=(tr.count * (accept & ~tr.target)), minlength=K)
    pmiss = 1.0 - hits / tr.n_target
    nn = tr.n_nontarget
    pfa = np.where(nn > 0, fas / np.maximum(nn, 1), 0.0)
    pm, pf = float(pmiss.mean()), float(pfa.mean())
    return 1.0 - pm - beta * pf, pm, pf


def per_query_best(tr: Trials, beta: float, qasc: np.ndarray | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Each query's best TWV over its own thresholds, including rejecting all (TWV_q = 0).

    Returns (best TWV_q, threshold_q); the threshold is +inf where rejecting all is best
    (ties: the lowest threshold, as for the global sweep). Points are visited in (query,
    score) ascending order; TWV_q(theta) is the within-query suffix sum of the weights at
    the first point of each group of equal scores.
    """
    K = tr.n_queries
    w = twv_weights(tr, beta, per_query=True)
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


# ----------------------------------------------------------------------------- Cnxe

def _class_weights(target: np.ndarray, count: np.ndarray, p_tar: float) -> np.ndarray:
    nt = count[target].sum()
    nn = count[~target].sum()
    if nt == 0 or nn == 0:
        raise InputError("Cnxe needs both target and non-target trials")
    return np.where(target, p_tar / nt, (1.0 - p_tar) / nn) * count


def cnxe(score: np.ndarray, target: np.ndarray, count: np.ndarray, p_tar: float) -> float:
    """Pooled normalised cross-entropy of scores read as natural-log LLRs (seed eq. 43)."""
    L = math.log(p_tar / (1.0 - p_tar))
    w = _class_weights(target, count, p_tar)
    z = score + L
    cost = np.where(target, softplus(-z), softplus(z))
    cost = np.where(w > 0, cost, 0.0)  # skip empty points (0*inf)
    return float(np.sum(w * cost) / LN2 / h2(p_tar))


@dataclass(frozen=True)
class AffineFit:
    cnxe: float
    gamma: float
    delta: float
    iterations: int
    separable: bool


def min_cnxe_affine(score: np.ndarray, target: np.ndarray, count: np.ndarray,
                    p_tar: float, max_iter: int = 100, compress: bool = False) -> AffineFit:
    """min over (gamma, delta) of Cnxe(gamma*s + delta): prior-weighted logistic regression.

    Newton's method with backtracking from gamma = 0, delta = 0 (Cnxe = 1), so the result is
    <= min(1, act). Scores are standardised for conditioning and mapped back. Points with
    infinite scores (PAV output) cost 0 for any gamma > 0 and are left out of the fit (their
    class mass still counts in the normalisation); gamma is then kept positive and the start
    is gamma = 1 (the identity).
    """
    L = math.log(p_tar / (1.0 - p_tar))
    w_all = _class_weights(target, count, p_tar)
    norm = LN2 * h2(p_tar)
    if compress:  # equal (score, class) points merge: PAV output has few distinct values
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
    mu = float(np.average(s, weights=w)) if w.sum() > 0 else 0.0
    sd = float(np.sqrt(np.average((s - mu) ** 2, weights=w))) if w.sum() > 0 else 1.0
    sd = sd if sd > 0 else 1.0
    x = (s - mu) / sd
    sign = np.where(y > 0, -1.0, 1.0)

    def f(a: float, b: float) -> float:
        return float(np.sum(w * softplus(sign * (a * x + b))))  # pairwise summation

    # parameters in standardised space: z = a*x + b = (a/sd)*s + (b - a*mu/sd)
    if has_inf:
        a, b = sd, L + mu  # identity: z = s + L
    else:
        a, b = 0.0, L
    fx = f(a, b)
    it = 0
    for it in range(1, max_iter + 1):
        z = a * x + b
        p = sigmoid(z)
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
        if done:
            break
    gamma = a / sd
    delta = (b - a * mu / sd) - L
    val = fx / norm
    return AffineFit(float(val), float(gamma), float(delta), it, bool(val < 1e-9 or abs(gamma) > 1e6))


def _pav_llr(seg: np.ndarray, score: np.ndarray, target: np.ndarray, count: np.ndarray,
             prior_conversion: str = "segment", order: np.ndarray | None = None) -> np.ndarray:
    """PAV-calibrated LLR of each point, isotonic within each segment (e.g. query).

    Points are sorted by (segment, score); equal scores are pooled (the pessimistic tie rule);
    consecutive score groups of one class are merged before the PAV loop, because an optimal
    isotonic fit is constant over a run of equal labels, so the Python loop only visits
    ~2 x #targets points. Each block's posterior p = t/(t+n) becomes
    llr = logit(p) - ln(Nt/Nn), with Nt/Nn the segment's own counts (prior_conversion
    'segment') or the global ones ('global'); +-inf at pure blocks.
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
    # class of each score group: 1 pure target, 0 pure non-target, 2 mixed
    cls = np.where(gn == 0, 1, np.where(gt == 0, 0, 2))
    newrun = np.ones(len(gt), bool)
    newrun[1:] = (gseg[1:] != gseg[:-1]) | (cls[1:] != cls[:-1]) | (cls[1:] == 2)
    rid = np.cumsum(newrun) - 1
    rt = np.bincount(rid, weights=gt).tolist()
    rn = np.bincount(rid, weights=gn).tolist()
    rseg = gseg[newrun].tolist()
    # stack-based PAV over the runs, restarted at each segment
    bt: list[float] = []
    bn: list[float] = []
    blen: list[int] = []
    bseg: list[int] = []
    for i in range(len(rt)):
        t, nn_, ln_, sgi = rt[i], rn[i], 1, rseg[i]
        while bseg and bseg[-1] == sgi and bt[-1] * (t + nn_) >= t * (bt[-1] + bn[-1]):
            # previous block's rate >= this one's: violation (or tie), pool them
            t += bt.pop()
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
        logit = np.log(bt_a) - np.log(bn_a)
    bseg_a = np.array(bseg, dtype=np.int64)
    if prior_conversion == "global":
        off = math.log(ct.sum() / cn.sum())
        llr_b = logit - off
    else:
        st = np.bincount(bseg_a, weights=bt_a, minlength=int(bseg_a.max()) + 1)
        sn = np.bincount(bseg_a, weights=bn_a, minlength=int(bseg_a.max()) + 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            off = np.log(st) - np.log(sn)
            llr_b = logit - off[bseg_a]
    # pure blocks are certain whatever the prior (a segment may have no non-targets at all:
    # a query occurring in every document), so never inf - inf
    llr_b = np.where(bn_a == 0, np.inf, np.where(bt_a == 0, -np.inf, llr_b))
    llr_sorted = llr_b[run_block][rid][gid]
    out = np.empty(n)
    out[order] = llr_sorted
    return out


def min_cnxe_pav(score: np.ndarray, target: np.ndarray, count: np.ndarray, p_tar: float,
                 asc: np.ndarray | None = None) -> float:
    """PAV lower bound: Cnxe after the optimal monotone recalibration (<= affine minimum)."""
    llr = _pav_llr(np.zeros(len(score), np.int64), score, target, count, "global", asc)
    return cnxe(llr, target, count, p_tar)


def per_query_pav_llr(tr: Trials, prior_conversion: str = "segment",
                      qasc: np.ndarray | None = None) -> np.ndarray:
    """LLRs after PAV run separately on each query ("model-dependent PAV")."""
    return _pav_llr(tr.query, tr.score, tr.target, tr.count, prior_conversion, qasc)


# ----------------------------------------------------------------------------- report

@dataclass
class QuesstResult:
    p_tar: float
    beta: float
    act_threshold: float | None
    act_twv: float
    act_p_miss: float
    act_p_fa: float
    max_twv: float
    max_twv_threshold: float
    max_p_miss: float
    max_p_fa: float
    ub_twv: float
    ub_threshold: float
    act_cnxe: float
    min_cnxe: AffineFit
    min_cnxe_pav: float
    lb_cnxe: float
    lb_min_cnxe: AffineFit
    per_query_twv: np.ndarray
    per_query_best: np.ndarray
    per_query_threshold: np.ndarray
    counts: dict


def score_trials(tr: Trials, p_tar: float, act_threshold: float | None = None,
                 use_decisions: bool = False) -> QuesstResult:
    """All QUESST figures from trial points. act_threshold None = ln(beta) (Bayes, LLRs)."""
    beta = beta_from_prior(p_tar)
    if use_decisions:
        accept = tr.decision
        thr = None
    else:
        thr = math.log(beta) if act_threshold is None else float(act_threshold)
        accept = tr.score >= thr
    asc, qasc = sort_orders(tr)
    act, pm, pf = twv_at(tr, beta, accept)
    mtwv, mthr = max_twv(tr, beta, asc)
    _, mpm, mpf = twv_at(tr, beta, tr.score >= mthr)
    best, qthr = per_query_best(tr, beta, qasc)
    hits = np.bincount(tr.query, weights=tr.count * (accept & tr.target), minlength=tr.n_queries)
    fas = np.bincount(tr.query, weights=tr.count * (accept & ~tr.target), minlength=tr.n_queries)
    nn = tr.n_nontarget
    q_twv = 1.0 - (1.0 - hits / tr.n_target) - beta * np.where(nn > 0, fas / np.maximum(nn, 1), 0.0)
    ub = float(best.mean())
    if (tr.count * ~tr.target).sum() == 0:  # every query occurs in every document
        nan = float("nan")
        act_c = pav = lb = nan
        aff = lb_aff = AffineFit(nan, nan, nan, 0, False)
    else:
        act_c = cnxe(tr.score, tr.target, tr.count, p_tar)
        aff = min_cnxe_affine(tr.score, tr.target, tr.count, p_tar)
        pav = min_cnxe_pav(tr.score, tr.target, tr.count, p_tar, asc)
        lb_llr = per_query_pav_llr(tr, qasc=qasc)
        lb = cnxe(lb_llr, tr.target, tr.count, p_tar)
        lb_aff = min_cnxe_affine(lb_llr, tr.target, tr.count, p_tar, compress=True)
    return QuesstResult(p_tar, beta, thr, act, pm, pf, mtwv, mthr, mpm, mpf, ub, 0.0,
                        act_c, aff, pav, lb, lb_aff, q_twv, best, qthr, dict(tr.counts))


def java_float(x: float | None) -> str:
    """Text of Java's Float.toString (the kit prints float32 values): 0.0, 5.2125, 1.0E-4."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "NaN"
    f = np.float32(x)
    if np.isinf(f):
        return "Infinity" if f > 0 else "-Infinity"
    if f == 0:
        return "-0.0" if math.copysign(1.0, float(f)) < 0 else "0.0"
    a = abs(float(f))
    if 1e-3 <= a < 1e7:
        s = np.format_float_positional(f, unique=True, trim="-")
        return s if "." in s else s + ".0"
    s = np.format_float_scientific(f, unique=True, trim="-", exp_digits=1)
    mant, exp = s.split("e")
    if "." not in mant:
        mant += ".0"
    return f"{mant}E{int(exp)}"


def kit_lines(r: QuesstResult) -> list[str]:
    """The five headline lines in the QUESST 2015 kit's layout (std-spec §3.8)."""
    c = r.counts
    return [
        f"Scores: {c['n_trials']} ({c['n_queries']} model x {c['n_documents']} test)  "
        f"given: {c['n_given']}  default(null): {c['n_default']}  "
        f"minScore: {java_float(c['min_given_score'])}  maxScore: {java_float(c['max_given_score'])}",
        f"actTWV: {java_float(r.act_twv)}  maxTWV: {java_float(r.max_twv)}  "
        f"Threshold: {java_float(r.max_twv_threshold)}",
        f"actCnxe: {java_float(r.act_cnxe)}  minCnxe: {java_float(r.min_cnxe.cnxe)}",
        f"Upper-bound TWV (model-dependent offset)  -  actTWV: {java_float(r.ub_twv)}  "
        f"maxTWV: {java_float(r.ub_twv)}  Threshold: {java_float(r.ub_threshold)}",
        f"Lower-bound Cnxe (model-dependent PAV)    -  actCnxe: {java_float(r.lb_cnxe)}  "
        f"minCnxe: {java_float(r.lb_min_cnxe.cnxe)}",
    ]


# ----------------------------------------------------------------------------- inputs

@dataclass
class Reference:
    """Per-document ground truth: query ids, document ids, (query, document) target pairs."""
    query_ids: list[str]
    doc_ids: list[str]
    target_q: np.ndarray
    target_d: np.ndarray
    source: str = ""
    notes: list[str] = field(default_factory=list)


def _find(d: str, names: tuple[str, ...], suffixes: tuple[str, ...]) -> str | None:
    import glob
    import os
    for n in names:
        p = os.path.join(d, n)
        if os.path.isfile(p):
            return p
    for s in suffixes:
        hits = sorted(glob.glob(os.path.join(d, "*" + s)))
        if len(hits) > 1:
            raise InputError(f"several *{s} files; keep one per directory", d)
        if hits:
            return hits[0]
    return None


def _read_id_list(path: str) -> list[str]:
    from termeval.textio import iter_lines
    out, seen = [], set()
    for lineno, line in iter_lines(path):
        f = line.split()
        if not f:
            continue
        if f[0] in seen:
            raise InputError(f"duplicate id '{f[0]}'", path, lineno)
        seen.add(f[0])
        out.append(f[0])
    return out


def load_reference(kws_dir: str) -> Reference:
    """Ground truth from a kws data dir or a QUESST ground-truth dir, or the simple layout.

    1. ECF + RTTM + term list (`ecf.xml`|`*.ecf.xml`, `rttm`|`*.rttm`,
       `tlist.xml`|`kwlist.xml`|`*.tlist.xml`|`*.kwlist.xml`), or a Kaldi hitlist kws dir,
       read with termeval.std.score.load_kws_dir: documents = the ECF's files, a query is a
       target of a document iff the reference has an occurrence of it (F4DE term matching)
       in that file;
    2. simple lists: `documents` and `queries` (an id per line, extra fields ignored) and
       `targets` (`<query> <document>` per line).
    """
    import os
    from termeval.std.ecf import file_id
    if not os.path.isdir(kws_dir):
        raise InputError("not a directory", kws_dir)
    ecf_p = _find(kws_dir, ("ecf.xml", "ecf"), (".ecf.xml",))
    rttm_p = _find(kws_dir, ("rttm", "ref.rttm", "reference.rttm"), (".rttm",))
    tl_p = _find(kws_dir, ("tlist.xml", "kwlist.xml", "termlist.xml", "keywords.xml"),
                 (".tlist.xml", ".kwlist.xml"))
    if rttm_p is not None or os.path.isfile(os.path.join(kws_dir, "hitlist")):
        # the STD engineer's loader: ECF + RTTM + term list, or Kaldi hitlist + utt.map ...
        from termeval.std.score import load_kws_dir
        kws = load_kws_dir(kws_dir, ecf=ecf_p, rttm=rttm_p, termlist=tl_p)
        if kws.ecf is None:
            raise InputError("per-document scoring needs the list of documents: an ECF, or "
                             "utt2dur/reco2dur beside the hitlist", kws_dir)
        docs = list(dict.fromkeys(kws.ecf.file.tolist()))
        occ = kws.occ
        dindex = {d: i for i, d in enumerate(docs)}
        d = np.fromiter((dindex.get(f, -1) for f in occ.file), np.int64, len(occ))
        notes = []
        n_out = int((d < 0).sum())
        if n_out:
            notes.append(f"{n_out} reference occurrence(s) in files not in the ECF were ignored")
        ok = d >= 0
        return Reference(list(kws.terms.ids), docs, np.asarray(occ.term, np.int64)[ok], d[ok],
                         " ".join(x for x in (ecf_p, rttm_p, tl_p) if x), notes)
    docs_p, q_p, t_p = (os.path.join(kws_dir, n) for n in ("documents", "queries", "targets"))
    if not all(os.path.isfile(p) for p in (docs_p, q_p, t_p)):
        raise InputError("expected an ECF + RTTM + term list, or the files documents, queries "
                         "and targets", kws_dir)
    from termeval.textio import read_archive
    docs = [file_id(x) for x in _read_id_list(docs_p)]
    queries = _read_id_list(q_p)
    dindex = {x: i for i, x in enumerate(docs)}
    qindex = {x: i for i, x in enumerate(queries)}
    tq, td = [], []
    for lineno, f in read_archive(t_p, min_fields=2):
        if f[0] not in qindex:
            raise InputError(f"unknown query '{f[0]}' (not in {q_p})", t_p, lineno)
        dd = file_id(f[1])
        if dd not in dindex:
            raise InputError(f"unknown document '{f[1]}' (not in {docs_p})", t_p, lineno)
        tq.append(qindex[f[0]])
        td.append(dindex[dd])
    return Reference(queries, docs, np.asarray(tq, np.int64), np.asarray(td, np.int64), kws_dir, [])


@dataclass
class PairScores:
    """System output as (query id, document id) codes + score + YES decision."""
    query_ids: list[str]
    doc_ids: list[str]
    query: np.ndarray
    doc: np.ndarray
    score: np.ndarray
    decision: np.ndarray | None
    fmt: str
    path: str | None = None  # the detection file, named by errors about its content


def _read_pairs_text(path: str) -> PairScores:
    """`<query> <document> <score> [YES|NO]` lines (the per-document plain-text layout)."""
    from termeval.std.ecf import file_id
    from termeval.textio import iter_lines, parse_float, read_text
    # fast path: three fields on every line, all scores finite numbers
    text = read_text(path)
    tok = text.split()
    nlines = sum(1 for line in text.splitlines() if line.strip())
    if len(tok) == 3 * nlines and nlines:
        try:
            sc = np.asarray(tok[2::3], dtype=np.float64)
        except ValueError:
            sc = None
        if sc is not None and np.isfinite(sc).all():
            qmap: dict[str, int] = {}
            dmap: dict[str, int] = {}
            qc = np.fromiter((qmap.setdefault(x, len(qmap)) for x in tok[0::3]), np.int64, nlines)
            draw: dict[str, int] = {}
            dc = np.fromiter((draw.setdefault(x, len(draw)) for x in tok[1::3]), np.int64, nlines)
            remap = np.array([dmap.setdefault(file_id(x), len(dmap)) for x in draw], np.int64)
            return PairScores(list(qmap), list(dmap), qc, remap[dc], sc, None, "pairs")
    del text, tok
    qmap: dict[str, int] = {}
    dmap: dict[str, int] = {}
    q, d, s, dec = [], [], [], []
    has_dec = None
    for lineno, line in iter_lines(path):
        f = line.split()
        if not f:
            continue
        if len(f) not in (3, 4):
            raise InputError(f"expected '<query> <document> <score> [YES|NO]', got {len(f)} fields",
                             path, lineno)
        if has_dec is None:
            has_dec = len(f) == 4
        elif has_dec != (len(f) == 4):
            raise InputError("either every line or no line has a YES/NO decision", path, lineno)
        q.append(qmap.setdefault(f[0], len(qmap)))
        d.append(dmap.setdefault(file_id(f[1]), len(dmap)))
        s.append(parse_float(f[2], path, lineno, "score"))
        if has_dec:
            v = f[3].upper()
            if v not in ("YES", "NO"):
                raise InputError(f"decision '{f[3]}' is neither YES nor NO", path, lineno)
            dec.append(v == "YES")
    return PairScores(list(qmap), list(dmap), np.asarray(q, np.int64), np.asarray(d, np.int64),
                      np.asarray(s, np.float64), np.asarray(dec, bool) if has_dec else None, "pairs")


def read_pair_scores(path: str, fmt: str = "auto") -> PairScores:
    """Detections in any STD format (STDLIST, KWSLIST, Kaldi `kwid utt start end score`) or
    the 3/4-column `<query> <document> <score> [YES|NO]` layout; times are not used."""
    from termeval.std import xmlsafe
    from termeval.std.detections import YES, read_detections
    if fmt == "auto":
        if xmlsafe.sniff_root(path) is None:
            from termeval.textio import iter_lines
            nf = next((len(line.split()) for _, line in iter_lines(path) if line.split()), 3)
            fmt = "pairs" if nf in (3, 4) else "kaldi"
        else:
            fmt = "xml"
    if fmt == "pairs":
        out = _read_pairs_text(path)
        out.path = path
        return out
    det = read_detections(path, "auto" if fmt == "xml" else fmt)
    dec = None
    if len(det) and (det.decision >= 0).all():
        dec = det.decision == YES
    return PairScores(list(det.term_ids), list(det.file_ids), np.asarray(det.term, np.int64),
                      np.asarray(det.file, np.int64), det.score, dec, det.fmt, path)


def trials_from_inputs(ref: Reference, hyp: PairScores, default_score: float | str = "min"
                       ) -> tuple[Trials, list[str]]:
    """Map the system's ids onto the reference and build the trial points.

    Unknown query ids are an error (as in F4DE); detections in documents outside the reference
    are dropped, counted and reported. default_score 'min' = the minimum submitted score
    (seed eq. 42). Returns (trials, warnings).
    """
    warnings = list(ref.notes)
    qindex = {q: i for i, q in enumerate(ref.query_ids)}
    dindex = {d: i for i, d in enumerate(ref.doc_ids)}
    qmap = np.array([qindex.get(q, -1) for q in hyp.query_ids], np.int64)
    unknown = [q for q, m in zip(hyp.query_ids, qmap) if m < 0]
    if unknown:
        raise InputError(f"{len(unknown)} query id(s) of the system output are not in the "
                         f"reference term list, e.g. '{unknown[0]}'", hyp.path)
    dmap = np.array([dindex.get(d, -1) for d in hyp.doc_ids], np.int64)
    q = qmap[hyp.query] if len(hyp.query) else np.zeros(0, np.int64)
    d = dmap[hyp.doc] if len(hyp.doc) else np.zeros(0, np.int64)
    out = d < 0
    if out.any():
        ex = hyp.doc_ids[int(hyp.doc[np.flatnonzero(out)[0]])]
        warnings.append(f"{int(out.sum())} detection(s) in documents not in the reference "
                        f"(e.g. '{ex}') were dropped")
    keep = ~out
    if default_score == "min":
        if not keep.any():
            raise InputError("no detections: give --default-score explicitly")
        default = float(hyp.score[keep].min())
    else:
        default = float(default_score)
    dec = hyp.decision[keep] if hyp.decision is not None else None
    tr = build_trials(ref.query_ids, len(ref.doc_ids), ref.target_q, ref.target_d,
                      q[keep], d[keep], hyp.score[keep], default, dec)
    tr.counts["default_score"] = default
    tr.counts["n_outside_documents"] = int(out.sum())
    if tr.counts["n_duplicates"]:
        warnings.append(f"{int(keep.sum())} detections reduced to {tr.counts['n_given'] + tr.counts['n_unseen_query_trials']} "
                        "(query, document) trials: the maximum score of each pair was kept")
    if tr.counts["n_unseen_queries"]:
        warnings.append(f"Removing unseen models: {tr.counts['n_unseen_queries']} query(ies) "
                        "with no occurrence in any document")
    return tr, warnings
