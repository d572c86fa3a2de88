"""Breakdown tables and operating figures of a scored STD or QUESST run (issue 14 §4): glue
between the scorers (score.score_std, quesst.score_trials), the group labels (breakdown.py)
and the ranking/operating kernels (ranking.py). Definitions: docs/std-metrics.md.
"""
from __future__ import annotations

import json
import os

import numpy as np

from termeval.core.numbers import fmt_value
from termeval.core.scores import Metric
from termeval.std import breakdown
from termeval.std.ranking import Ranking, operating_curve, ranking
from termeval.std.twv import compute_twv
from termeval.core.textio import atomic_write

STD_COLUMNS = ["n_terms", "n_terms_with_targets", "n_targets", "n_detections", "atwv", "mtwv",
               "mtwv_threshold", "p_miss", "p_fa", "p_miss_at_mtwv", "p_fa_at_mtwv", "otwv",
               "stwv", "map"]
QUESST_COLUMNS = ["n_queries", "n_target_trials", "act_twv", "max_twv", "max_twv_threshold",
                  "ub_twv", "act_cnxe", "min_cnxe", "map"]
HEADLINE = {"std": ("n_terms", "n_targets", "atwv", "mtwv", "p_miss", "p_fa", "map"),
            "quesst": ("n_queries", "n_target_trials", "act_twv", "max_twv", "act_cnxe", "min_cnxe", "map")}


def mean(a: np.ndarray) -> float | None:
    a = a[np.isfinite(a)]
    return float(a.mean()) if len(a) else None


def std_ranking(res, p_at: tuple[int, ...]) -> Ranking:
    t = res.trials
    return ranking(t["term"], t["score"], t["target"], res.ntrue, res.evaluated, p_at)


def std_condition(res, p_at: tuple[int, ...]) -> dict:
    """The headline figures of one F4DE condition (scores.json "conditions"); a condition with
    no reference occurrence has them all undefined (None), MAP included."""
    m = res.metrics
    rk = std_ranking(res, p_at)
    return {"n_terms": m["n_terms"], "n_targets": m["n_targets"], "n_detections": m["n_detections"],
            "atwv": m["atwv"], "mtwv": m["mtwv"], "mtwv_threshold": m["mtwv_threshold"], "p_miss": m["p_miss"],
            "p_fa": m["p_fa"], "map": rk.map, "map_f4de": rk.map_f4de}


def std_group(res, mask: np.ndarray, rk: Ranking) -> dict:
    """The TWV family (and MAP) of the terms in `mask`, scored as their own term list."""
    t = res.trials
    ev = res.evaluated & mask
    k = mask[t["term"]]
    if k.all() and np.array_equal(ev, res.evaluated):
        tw = res.twv   # the group is the whole run (one n-gram order, one frequency bin): same inputs
    else:
        tw = compute_twv(len(mask), res.ntrue, ev, t["n_trials"], res.beta, t["term"][k],
                         t["score"][k], t["yes"][k], t["target"][k],
                         fa_undefined_ok=getattr(res, "extra", {}).get("alignment") == "segment")
    return {"n_terms": int(ev.sum()), "n_terms_with_targets": tw.n_terms_with_targets,
            "n_targets": int(res.ntrue[ev].sum()), "n_detections": int(k.sum()),
            "atwv": tw.atwv, "mtwv": tw.mtwv, "mtwv_threshold": tw.mtwv_threshold,
            "p_miss": tw.p_miss, "p_fa": tw.p_fa, "p_miss_at_mtwv": tw.p_miss_at_mtwv,
            "p_fa_at_mtwv": tw.p_fa_at_mtwv, "otwv": tw.otwv, "stwv": tw.stwv,
            "map": mean(rk.ap[ev])}



def breakdown_rows(kinds: list[str], labels_of, score_group, bins: list[int], keep: np.ndarray) -> dict:
    """{kind: [(group, figures)]}: each group of the terms in `keep` (the evaluated ones) scored
    as its own task (the stage's merge: these are metrics, computed with the others)."""
    out: dict = {}
    for kind in kinds:
        lab = [x if k else None for x, k in zip(labels_of(kind), keep)]
        out[kind] = [(g, score_group(m)) for g, m in breakdown.groups(kind, lab, bins)]
    return out


def write_breakdowns(details: str, rows_by_kind: dict, columns: list[str], headline: tuple[str, ...]) -> dict:
    """One table per kind in details/breakdown_<kind>.tsv; returns {kind: {group: headline
    values}} for scores.json."""
    out: dict = {}
    for kind, rows in rows_by_kind.items():
        breakdown.write_table(os.path.join(details, breakdown.file_name(kind)), columns, rows)
        out[kind] = {g: {c: r.get(c) for c in headline} for g, r in rows}
    return out


def merged_breakdowns(exp_dir: str, stage: str, groups: dict) -> dict:
    """scores.json "breakdowns" with this stage's entry replaced (STD and QUESST share a file)."""
    path = os.path.join(exp_dir, "scores", "scores.json")
    old: dict = {}
    try:
        with open(path, encoding="utf-8") as f:
            old = json.load(f).get("breakdowns") or {}
    except (OSError, ValueError, AttributeError, RecursionError):
        old = {}
    old = dict(old) if isinstance(old, dict) else {}
    old[stage] = groups
    return old


def label(x: float) -> str:
    """Metric-name form of an option value: 0.5 -> '0.5', 10.0 -> '10'."""
    return f"{x:g}"


def std_operating(res, fa_per_hour: list[float], recall: list[float], rk: Ranking) -> list[Metric]:
    """scores/std_operating: FA/hour at recall, recall at FA/hour, MAP (ours and F4DE's),
    mean P@N and mean R-precision."""
    t = res.trials
    n_targets = int(res.ntrue[res.evaluated].sum())
    hours = t["t_audio"] / 3600.0
    oc = operating_curve(t["score"], t["target"], n_targets, hours)
    out = []
    for r in recall:
        v, thr = oc.fa_per_hour_at_recall(r)
        out.append(Metric(f"fa_per_hour_at_recall_{label(r)}", v,
                          f"threshold {fmt_value(thr)}" if thr is not None else "recall never reached"))
    for f in fa_per_hour:
        v, thr = oc.recall_at_fa_per_hour(f)
        out.append(Metric(f"recall_at_fa_per_hour_{label(f)}", v,
                          f"threshold {fmt_value(thr)}" if thr is not None else "nothing accepted"))
    return out + ranking_metrics(rk, "")


def ranking_metrics(rk: Ranking, prefix: str) -> list[Metric]:
    out = [Metric(prefix + "map", rk.map, "mean AP over terms with references"),
           Metric(prefix + "map_f4de", rk.map_f4de, "F4DE -zG MAP: string-sorted scores")]
    out += [Metric(f"{prefix}mean_p_at_{n}", v) for n, v in rk.mean_p_at.items()]
    out.append(Metric(prefix + "mean_r_precision", rk.mean_r_precision))
    return out


def write_ranking_table(path: str, ids: list[str], ntrue: np.ndarray, rk: Ranking,
                        keep: np.ndarray) -> None:
    """Per-term AP (ours and F4DE's), R-precision and P@N for the terms in `keep`."""
    ns = list(rk.p_at)
    with atomic_write(path) as f:
        f.write("\t".join(["termid", "n_targ", "n_ranked", "ap", "ap_f4de", "r_precision"]
                          + [f"p_at_{n}" for n in ns]) + "\n")
        for q in np.flatnonzero(keep):
            vals = [rk.ap[q], rk.ap_f4de[q], rk.r_precision[q]] + [rk.p_at[n][q] for n in ns]
            f.write("\t".join([ids[q], str(int(ntrue[q])), str(int(rk.n_ranked[q]))]
                              + [fmt_value(v, "NA") for v in vals]) + "\n")
