"""QUESST-style per-document scoring (MediaEval QUESST 2014/2015 kit; docs/std.md §1.7, §4.2b).

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
    Cnxe, min_cnxe, PAV and the TWV sweeps are the kernels shared with STD (cnxe.py, twv.py).
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
arithmetic (values may differ in the last printed digits). Checked here instead: docs/std.md
§6.4 vectors to 1e-6, hand-computed TWV cases, PAV <= affine <= min(1, act), the PAV run
compression against a textbook PAV, and agreement with the second (retired)
implementations kept as cross-checks in tests/std/test_kernel_crosscheck.py.
Reading the inputs (reference dirs, pair scores) is in quesst_io.py.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from termeval.core.errors import InputError
from termeval.std import cnxe
from termeval.std.cnxe import AffineFit
from termeval.std.twv import best_index, segment_best, sweep


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
    def n_given(self) -> int:
        """The reported trials are the first n_given points (build_trials puts them first)."""
        return int(self.counts["n_given"])

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
    keys, sc, dc = reduce_pairs(det_q, det_d, det_score, det_decision, n_docs)
    return trials_from_pairs(query_ids, n_docs, target_q, target_d, keys, sc, dc, len(det_q), default_score)


def reduce_pairs(det_q: np.ndarray, det_d: np.ndarray, det_score: np.ndarray,
                 det_decision: np.ndarray | None, n_docs: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pair keys query * n_docs + document ascending, max score, its decision): the per-pair
    reduction, independent per query (score_quesst.sh --nj splits it by query ranges)."""
    det_q = np.asarray(det_q, np.int64)
    det_d = np.asarray(det_d, np.int64)
    det_score = np.asarray(det_score, np.float64)
    dec = (np.ones(len(det_q), bool) if det_decision is None
           else np.asarray(det_decision, bool))
    return reduce_max(det_q * max(int(n_docs), 1) + det_d, det_score, dec)


def trials_from_pairs(query_ids: list[str], n_docs: int, target_q: np.ndarray, target_d: np.ndarray,
                      keys: np.ndarray, sc: np.ndarray, dc: np.ndarray, n_det: int,
                      default_score: float) -> Trials:
    """Trial points from the reduced pairs (reduce_pairs) of n_det detections."""
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


def subset(tr: Trials, keep: np.ndarray) -> Trials | None:
    """The trial points of the queries where `keep` (per query) is true, renumbered: a
    breakdown group scored as its own task. None if no query is kept."""
    keep = np.asarray(keep, bool)
    if not keep.any():
        return None
    new = np.cumsum(keep) - 1
    m = keep[tr.query]
    c = dict(tr.counts)
    K = int(keep.sum())
    c.update(n_queries=K, n_trials=K * tr.n_docs, n_targets=int(tr.n_target[keep].sum()),
             n_given=int(m[:tr.n_given].sum()))
    c["n_default"] = c["n_trials"] - c["n_given"]
    return Trials(new[tr.query[m]], tr.score[m], tr.target[m], tr.count[m], tr.decision[m],
                  tr.n_target[keep], tr.n_docs, [q for q, k in zip(tr.query_ids, keep) if k], c)


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


def max_twv(tr: Trials, beta: float, asc: np.ndarray | None = None) -> tuple[float, float]:
    """(MTWV, threshold): maximum over every distinct score; lowest threshold on ties."""
    thr, val = sweep(tr.score, twv_weights(tr, beta), asc)
    i = best_index(val)
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
    (ties: the lowest threshold, as for the global sweep).
    """
    w = twv_weights(tr, beta, per_query=True)
    return segment_best(tr.query, tr.score, w, tr.n_queries, True, qasc)


def per_query_pav_llr(tr: Trials, prior_conversion: str = "segment",
                      qasc: np.ndarray | None = None) -> np.ndarray:
    """LLRs after PAV run separately on each query ("model-dependent PAV")."""
    return cnxe.pav_llr(tr.query, tr.score, tr.target, tr.count, prior_conversion, qasc)


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
        act_c = cnxe.cnxe(tr.score, tr.target, tr.count, p_tar)
        aff = cnxe.min_cnxe_affine(tr.score, tr.target, tr.count, p_tar)
        pav = cnxe.min_cnxe_pav(tr.score, tr.target, tr.count, p_tar, asc)
        lb_llr = per_query_pav_llr(tr, qasc=qasc)
        lb = cnxe.cnxe(lb_llr, tr.target, tr.count, p_tar)
        lb_aff = cnxe.min_cnxe_affine(lb_llr, tr.target, tr.count, p_tar, compress=True)
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
    """The five headline lines in the QUESST 2015 kit's layout (docs/std.md §3.8)."""
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
