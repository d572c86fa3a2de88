"""What a scored QUESST run writes (termeval.quesst.stage), into the directory `out` laid out
as an exp dir: scores/quesst, scores/quesst_operating, scores/scores.json (metrics, kit lines,
per-group headline values under "breakdowns" -> "quesst"), details/quesst/ (score.out: the
kit's five headline lines; per_query; ranking_per_query.tsv; breakdown_<kind>.tsv) and
units/units.quesst_query.npz.
"""
from __future__ import annotations

import os

import numpy as np

from termeval.bootstrap.engine import bootstrap_ci
from termeval.bootstrap.units import data_identity, save_units, units_path
from termeval.core.numbers import fmt_value
from termeval.core.scores import Metric, write_scores
from termeval.core.textio import atomic_write
from termeval.quesst import quesst
from termeval.quesst.quesst import score_trials, subset
from termeval.quesst.units import query_table
from termeval.std import breakdown, figures
from termeval.std.ranking import Ranking, ranking


def rankings_and_breakdowns(ctx, tr, whole=None) -> tuple[Ranking, dict]:
    """The ranked documents of each query (reported trials only) and each breakdown group of
    queries scored as its own task: metrics, computed in the stage's merge with the others
    (whole: score_trials of all the queries, reused by a group holding them all)."""
    a, ref = ctx.args, ctx.ref
    g = tr.n_given
    everyone = np.ones(tr.n_queries, bool)
    rk = ranking(tr.query[:g], tr.score[:g], tr.target[:g], tr.n_target, everyone, ctx.p_at)
    pos = {q: i for i, q in enumerate(ref.query_ids)}
    texts = [ref.query_texts[pos[q]] for q in tr.query_ids]
    attrs = [ref.query_attrs[pos[q]] for q in tr.query_ids]
    qtypes = breakdown.query_types(a.kws_dir, tr.query_ids, attrs)
    kinds = list(ctx.kinds)
    if a.breakdown.strip() == "" and qtypes is not None:
        kinds.append("qtype")
    rows = figures.breakdown_rows(
        kinds, lambda kind: breakdown.labels(kind, texts, attrs, tr.n_target, ctx.bins, ctx.lexicon, qtypes),
        lambda mask: quesst_group(tr, mask, ctx.p_tar, ctx.threshold, a.use_decisions, rk, whole),
        ctx.bins, everyone)
    return rk, rows


def write(out: str, ctx, tr, r, rk: Ranking, rows: dict) -> tuple[dict, list[str]]:
    """Every file of a scored run; returns the scores mapping and the kit's headline lines."""
    a, p_tar = ctx.args, ctx.p_tar
    c = r.counts
    lines = quesst.kit_lines(r)
    det_dir = os.path.join(out, "details", "quesst")
    os.makedirs(det_dir, exist_ok=True)
    with atomic_write(os.path.join(det_dir, "score.out")) as f:
        f.write("".join(x + "\n" for x in lines))
    with atomic_write(os.path.join(det_dir, "per_query")) as f:
        f.write("# query n_target_docs act_twv best_twv best_threshold\n")
        for i, q in enumerate(tr.query_ids):
            thr_i = float(r.per_query_threshold[i])
            f.write(f"{q} {int(tr.n_target[i])} {fmt_value(r.per_query_twv[i])} {fmt_value(r.per_query_best[i])} "
                    f"{fmt_value(thr_i) if np.isfinite(thr_i) else '-'}\n")

    act_support = ("decisions" if a.use_decisions else f"score >= {fmt_value(r.act_threshold)}")
    ci, more = quesst_intervals(out, a, tr, r)
    metrics = [
        Metric("act_twv", r.act_twv, act_support, ci.get("act_twv")),
        Metric("act_p_miss", r.act_p_miss), Metric("act_p_fa", r.act_p_fa),
        Metric("max_twv", r.max_twv, f"threshold {fmt_value(r.max_twv_threshold)}", ci.get("max_twv")),
        Metric("max_twv_threshold", r.max_twv_threshold),
        Metric("max_p_miss", r.max_p_miss), Metric("max_p_fa", r.max_p_fa),
        Metric("ub_twv", r.ub_twv, "per-query threshold offset", ci.get("ub_twv")),
        Metric("act_cnxe", r.act_cnxe, "", ci.get("act_cnxe")),
        Metric("min_cnxe", r.min_cnxe.cnxe, f"affine gamma {fmt_value(r.min_cnxe.gamma)} delta {fmt_value(r.min_cnxe.delta)}",
               ci.get("min_cnxe")),
        Metric("min_cnxe_gamma", r.min_cnxe.gamma), Metric("min_cnxe_delta", r.min_cnxe.delta),
        Metric("min_cnxe_pav", r.min_cnxe_pav, "global PAV lower bound"),
        Metric("lb_cnxe", r.lb_cnxe, "per-query PAV"),
        Metric("lb_min_cnxe", r.lb_min_cnxe.cnxe, "affine over the per-query PAV LLRs"),
        Metric("quesst_calibration_loss", _difference(r.act_cnxe, r.min_cnxe.cnxe), "act_cnxe - affine min_cnxe"),
        Metric("quesst_effective_prior", p_tar), Metric("quesst_beta", r.beta),
        Metric("default_score", c["default_score"]),
        Metric("n_queries", c["n_queries"]), Metric("n_unseen_queries", c["n_unseen_queries"]),
        Metric("n_documents", c["n_documents"]), Metric("n_trials", c["n_trials"]),
        Metric("n_target_trials", c["n_targets"], "target (query, document) pairs"), Metric("n_given", c["n_given"]),
        Metric("n_default", c["n_default"]), Metric("n_system_detections", c["n_detections"]),
        Metric("n_duplicates", c["n_duplicates"]),
        Metric("n_outside_documents", c["n_outside_documents"]),
    ]
    # ranked documents per query (reported trials only) and breakdowns by groups of queries
    figures.write_ranking_table(os.path.join(det_dir, "ranking_per_query.tsv"), tr.query_ids,
                                tr.n_target, rk, np.ones(tr.n_queries, bool))
    groups = figures.write_breakdowns(det_dir, rows, figures.QUESST_COLUMNS, figures.HEADLINE["quesst"])
    extra = {"breakdowns": figures.merged_breakdowns(out, "quesst", groups),
             "quesst": {"kit_lines": lines, "min_cnxe_separable": r.min_cnxe.separable,
                        "reference": ctx.ref.source, "detections_format": ctx.hyp.fmt}, **more}
    write_scores(out, "quesst", metrics, "quesst", extra, warnings=ctx.warnings)
    result: dict = {}
    write_scores(out, "quesst_operating", figures.ranking_metrics(rk, "quesst_"), None, into=result)
    return result, lines


def quesst_intervals(out: str, a, tr, r) -> tuple[dict, dict]:
    """Per-query table saved for compare_systems, intervals with --bootstrap, data identity."""
    accept = tr.decision if a.use_decisions else tr.score >= r.act_threshold
    us = query_table(tr, r, accept)
    save_units(units_path(out, "quesst_query"), us)
    ci = bootstrap_ci(us, a.bootstrap, a.seed, a.ci) if a.bootstrap > 0 else {}
    files = [f for f in (os.path.join(a.kws_dir, x) for x in sorted(os.listdir(a.kws_dir))) if os.path.isfile(f)]
    settings = {k: getattr(a, k) for k in ("p_target", "c_miss", "c_fa", "eff_prior", "use_decisions")}
    # a number or a word: the identity keeps the text these options had on the command line
    # ("-10", "min"), so data ids of runs before the typed options still match
    settings.update({k: _option_text(getattr(a, k)) for k in ("default_score", "act_threshold")})
    more = {"data_id": data_identity(files, settings),
            "bootstrap": {"n": a.bootstrap, "seed": a.seed, "level": a.ci, "unit": "query"}}
    return ci, more

def _difference(a, b):
    """a - b, None where either is undefined (None or NaN)."""
    if a is None or b is None or a != a or b != b:
        return None
    return float(a) - float(b)


def _option_text(value) -> str:
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)


def quesst_group(tr, mask: np.ndarray, p_tar: float, act_threshold, use_decisions: bool,
                 rk: Ranking, whole=None) -> dict:
    """QUESST figures of the queries in `mask` (indices of tr.query_ids) as their own task;
    `whole` (score_trials of tr with these settings) when the group is every query: the same
    trials, so the same figures."""
    sub = subset(tr, mask)
    if sub is None:
        return {"n_queries": 0, "n_target_trials": 0}
    same = whole is not None and sub.n_queries == tr.n_queries and sub.counts == tr.counts
    r = whole if same else score_trials(sub, p_tar, act_threshold, use_decisions)
    return {"n_queries": sub.n_queries, "n_target_trials": int(sub.n_target.sum()),
            "act_twv": r.act_twv, "max_twv": r.max_twv, "max_twv_threshold": r.max_twv_threshold,
            "ub_twv": r.ub_twv, "act_cnxe": r.act_cnxe, "min_cnxe": r.min_cnxe.cnxe,
            "map": figures.mean(rk.ap[mask])}
