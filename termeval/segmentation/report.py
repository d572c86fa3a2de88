"""Merge job statistics into scores (exp/<sys>/scores/segmentation[_phone] + scores.json),
details (per utterance, per speaker, tolerance sweep + plot, cluster mappings)."""
from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from termeval.segmentation.options import stage_name_for
from termeval.core.plots import drawing, legend, new_figure, save_figure, tight_layout
from termeval.core.numbers import fmt_value
from termeval.core.scores import Metric, fscore, write_scores
from termeval.segmentation import compat
from termeval.segmentation import scorer_registry as scorers
from termeval.segmentation.clusters import Table, from_named_cells, quality
from termeval.segmentation.mappings import greedy_one_to_one, many_to_one, one_to_one
from termeval.segmentation.rvalue import over_segmentation, prf, r_value
from termeval.segmentation.rvalue import standard_values as scorer_values
from termeval.segmentation.stats import Settings
from termeval.segmentation.syllables import cluster_metrics
from termeval.core.textio import atomic_write


def stage_name(s: Settings) -> str:
    return stage_name_for(s.level)


def generic_purity_name(level: str) -> str:
    """The name of termeval's purity (segments in their cluster's majority label) at a level:
    `<level>_purity`, but `syllable_segment_purity` at the syllable level, where
    `syllable_purity` is SD-HuBERT's (termeval.segmentation.syllables)."""
    return "syllable_segment_purity" if level == "syllable" else f"{level}_purity"


def merge(jobs: list[dict], hungarian: bool = True) -> dict:
    """Add up job statistics (utterances of different jobs are disjoint); with labels, the
    cluster metrics of the merged table too (`clusters`: the table, its quality, the
    many-to-one mapping and, with `hungarian`, the one-to-one mapping; None without labels)."""
    rows = sorted((u, b, t, [sw[i] for sw in j["sweep"]])
                  for j in jobs for i, (u, b, t) in enumerate(zip(j["utts"], j["boundary"], j["token"])))
    cells: tuple[list, list, list] = ([], [], [])
    for j in jobs:
        for part, col in zip(cells, j["cells"]):
            part.extend(col)
    nsweep = len(jobs[0]["sweep"]) if jobs else 0
    bw = len(rows[0][1]) if rows else 3     # 4: [n_ref, n_pred, hits, reference hits] (a lenient scorer)
    clusters = None
    if jobs and jobs[0].get("has_labels"):
        table = from_named_cells(*cells)
        clusters = (table, quality(table), many_to_one(table), one_to_one(table) if hungarian else None)
    return {"utts": [r[0] for r in rows],
            "boundary": np.array([r[1] for r in rows], dtype=np.int64).reshape(-1, bw),
            "token": np.array([r[2] for r in rows], dtype=np.int64).reshape(-1, 3),
            "sweep": np.array([r[3] for r in rows], dtype=np.int64).reshape(len(rows), nsweep, bw),
            "utts_skipped": sum(j["utts_skipped"] for j in jobs),
            "cells": cells, "clusters": clusters,
            "syllable_cells": [sum((j["syllable_cells"][k] for j in jobs if "syllable_cells" in j), [])
                               for k in range(3)],
            "syllable_gold": [sum((j["syllable_gold"][k] for j in jobs if "syllable_gold" in j), [])
                              for k in range(2)],
            "syllable_labelled": any("syllable_cells" in j for j in jobs)}


def _f(x: float | None) -> str:
    return fmt_value(x)


def _prf_row(c: np.ndarray) -> list[str]:
    """Counts, P, R, F of [n_ref, n_pred, hits(, reference hits)] (recall from the last)."""
    p, r = prf(int(c[2]), int(c[1]), int(c[0]))[0], prf(int(c[-1]), int(c[1]), int(c[0]))[1]
    return [str(int(c[0])), str(int(c[1])), str(int(c[2])), _f(p), _f(r), _f(fscore(p, r))]


def write_report(exp_dir: str, m: dict, s: Settings, speaker_of: dict[str, str],
                 all_clusters: list[str], has_labels: bool, extra_notes: list[str],
                 counts: dict[str, int], ci_hook: Callable | None = None,
                 system: str | None = None, warnings: list[str] | None = None,
                 into: dict | None = None, compare: list[dict] | None = None) -> list[Metric]:
    """Score files and details into `exp_dir` (the run's output directory; `system` names the
    curve of the tolerance plot, default the directory's name). ci_hook(values, context) -> (intervals by metric name, extra
    scores.json keys) is called before writing (termeval.segmentation.units); context:
    the one-to-one mapping by names and, for --compat vqwordseg, the clusters purity visits.
    Returns the metrics (their intervals included); `into` receives the scores.json mapping.
    `compare`: the rows of --compat all (termeval.segmentation.compare), kept in scores.json."""
    stage = stage_name(s)
    scorer = scorers.get(s.compat)
    notes = list(extra_notes)
    metrics, ctx, maps = metric_values(m, s, all_clusters, has_labels, notes)
    b, t = m["boundary"].sum(axis=0), m["token"].sum(axis=0)
    extra: dict[str, Any] = {}
    details = os.path.join(exp_dir, "details", stage)
    os.makedirs(details, exist_ok=True)
    if maps is not None:
        table, m2o_map, o2o_map = maps
        _write_mapping(os.path.join(details, "mapping_many_to_one"), m2o_map, table)
        _write_mapping(os.path.join(details, "mapping_one_to_one"), o2o_map, table)
    sweep_tols = s.sweep()
    sweep = m["sweep"].sum(axis=0) if len(m["sweep"]) else np.zeros((len(sweep_tols), 3), dtype=np.int64)
    extra[stage] = {"tolerance": s.tolerance, "frame_shift": s.frame_shift, "level": s.level,
                    "compat": s.compat, "tolerance_frames": s.tol_frames if s.framed else None,
                    "utterances_scored": len(m["utts"]), "utterances_skipped": m["utts_skipped"],
                    "counts": {"boundary_ref": int(b[0]), "boundary_pred": int(b[1]), "boundary_hits": int(b[2]),
                               "token_ref": int(t[0]), "token_pred": int(t[1]), "token_hits": int(t[2]),
                               **({"boundary_ref_hits": int(b[3])} if len(b) > 3 else {}), **counts},
                    "tolerance_sweep": [{"tolerance": tol, "ref": int(c[0]), "pred": int(c[1]), "hits": int(c[2]),
                                         "fscore": _fscore(scorer, c)}
                                        for tol, c in zip(sweep_tols, sweep)],
                    "definitions": definitions(s),
                    "notes": notes, "warnings": list(warnings or [])}
    if compare is not None:
        extra[stage].update(compat="all", compare=compare)
    if ci_hook is not None:
        ci, more = ci_hook({x.name: x.value for x in metrics}, ctx)
        metrics = [Metric(x.name, x.value, x.support, ci.get(x.name)) for x in metrics]
        extra.update(more)
    write_scores(exp_dir, stage, metrics, "segmentation", extra, into=into)
    _write_breakdowns(details, m, speaker_of)
    _write_sweep(details, sweep_tols, sweep, system or os.path.basename(os.path.normpath(exp_dir)))
    return metrics


def metric_values(m: dict, s: Settings, all_clusters: list[str], has_labels: bool,
                  notes: list[str]) -> tuple[list[Metric], dict[str, Any], tuple | None]:
    """The metrics of merged statistics `m` (merge()), without writing anything: the metrics,
    the context of the bootstrap hook (the one-to-one mapping by names; for --compat vqwordseg
    the clusters purity visits) and, with cluster metrics, (table, many-to-one mapping,
    one-to-one mapping) for the mapping files. `notes` receives what scores.json says about
    undefined values."""
    pre = s.level + "_"  # word_, phone_, syllable_: never the zrc2020 names (both may share an exp dir)
    scorer = scorers.get(s.compat)
    b, t = m["boundary"].sum(axis=0), m["token"].sum(axis=0)
    if scorer is not None:
        metrics = named_metrics(scorer, s, pre, b, t)
        has_labels = False
    else:
        metrics = default_metrics(s, pre, b, t, notes)
    ctx: dict[str, Any] = {"o2o": {}, "visit": None}
    maps = None
    if has_labels:
        table, q, (m2o_map, m2o_hits), o2o = m["clusters"]
        if s.compat == "vqwordseg":
            rank = compat.cluster_ranks(table.clusters, all_clusters)
            o2o_map, o2o_hits = greedy_one_to_one(table, rank)
            sizes = np.bincount(table.col, weights=table.count, minlength=len(table.clusters))
            cmax = np.zeros(len(table.clusters), dtype=np.int64)
            np.maximum.at(cmax, table.col, table.count)
            pur = compat.purity(cmax, sizes.astype(np.int64), rank)
            ctx["visit"] = {table.clusters[k] for k in np.flatnonzero((sizes > 0) & (rank < int((sizes > 0).sum())))}
        else:
            o2o_map, o2o_hits = o2o
            pur = q.purity
        n = q.segments
        metrics += [
            Metric(pre + "segments", n), Metric(pre + "clusters", q.clusters),
            Metric(generic_purity_name(s.level), pur), Metric(pre + "inverse_purity", q.inverse_purity),
            Metric(pre + "homogeneity", q.homogeneity), Metric(pre + "completeness", q.completeness),
            Metric(pre + "v_measure", q.v_measure), Metric(pre + "nmi", q.nmi),
            Metric(pre + "m2o_accuracy", m2o_hits / n if n else None, f"{m2o_hits}/{n}"),
            Metric(pre + "o2o_accuracy", o2o_hits / n if n else None,
                   f"{o2o_hits}/{n}, " + ("greedy" if s.compat == "vqwordseg" else "hungarian")),
        ]
        ctx["o2o"] = {table.clusters[k]: table.labels[lab] for k, lab in o2o_map.items()}
        maps = (table, m2o_map, o2o_map)
        if s.level == "syllable":   # SD-HuBERT's syllable_purity, cluster_purity, snmi
            metrics += cluster_metrics(m["syllable_cells"], trim=s.compat == "harwath", gold=m["syllable_gold"])
    elif scorer is not None:
        if scorer.syllable_clusters and s.level == "syllable" and m.get("syllable_labelled"):
            # SD-HuBERT's, its label trimming, its 0.0 purities without a matched pair
            metrics += cluster_metrics(m["syllable_cells"], trim=True, gold=m["syllable_gold"], empty=0.0)
    else:
        metrics.append(Metric(pre + "segments", int(t[1])))
        notes.append("the segmentation has no labels: no cluster metrics")
    return metrics, ctx, maps


def default_metrics(s: Settings, pre: str, b: np.ndarray, t: np.ndarray, notes: list[str]) -> list[Metric]:
    """Boundary and token metrics of the default and vqwordseg modes (vqwordseg's undefined
    values are said in `notes`)."""
    bp, br, bf = prf(int(b[2]), int(b[1]), int(b[0]))
    tp, tr, tf = prf(int(t[2]), int(t[1]), int(t[0]))
    if s.compat == "vqwordseg":
        for what, p, r in (("boundary", bp, br), ("token", tp, tr)):
            if p is None or r is None:
                notes.append(f"{what}: no predicted or no reference {what}s; vqwordseg raises "
                             "ZeroDivisionError here, the values are written as undefined")
            elif p + r == 0:
                notes.append(f"{what}: P + R = 0; vqwordseg prints F = -inf (and OS, R-value "
                             "-inf when P = 0), written here as F = 0 and OS, R-value undefined")
    tol_support = tolerance_support(s)
    return [
        Metric(pre + "boundary_precision", bp, f"{b[2]}/{b[1]}, {tol_support}"),
        Metric(pre + "boundary_recall", br, f"{b[2]}/{b[0]}"),
        Metric(pre + "boundary_fscore", bf),
        Metric(pre + "boundary_os", over_segmentation(bp, br)),
        Metric(pre + "boundary_rvalue", r_value(bp, br)),
        Metric(pre + "token_precision", tp, f"{t[2]}/{t[1]}, {tol_support}"),
        Metric(pre + "token_recall", tr, f"{t[2]}/{t[0]}"),
        Metric(pre + "token_fscore", tf),
    ]


def tolerance_support(s: Settings) -> str:
    """How the tolerance was applied, for the printed scores: seconds, and the frames and frame
    shift of a frame-based mode."""
    return f"tolerance {s.tolerance:g} s" + (f" = {s.tol_frames} frames of {s.frame_shift:g} s" if s.framed else "")


def named_metrics(scorer: scorers.Scorer, s: Settings, pre: str, b: np.ndarray, t: np.ndarray) -> list[Metric]:
    """The metrics a named scorer defines, from the summed boundary and token counts."""
    impl = scorer.impl()
    values = getattr(impl, "values", scorer_values)
    bv = values(b)
    support = {"precision": f"{b[2]}/{b[1]}, {tolerance_support(s)}", "recall": f"{b[-1]}/{b[0]}"}
    out = [Metric(f"{pre}boundary_{k}", bv[k], support.get(k)) for k in scorer.boundary]
    if scorer.token:
        tv = values(t)
        out += [Metric(f"{pre}token_{k}", tv[k]) for k in ("precision", "recall", "fscore")]
    return out


def _fscore(scorer: scorers.Scorer | None, c: np.ndarray) -> float | None:
    if scorer is None:
        return prf(int(c[2]), int(c[1]), int(c[0]))[2]
    return getattr(scorer.impl(), "values", scorer_values)(c)["fscore"]


def definitions(s: Settings) -> dict:
    """The rule and its parameters (scores.json `definitions`)."""
    scorer = scorers.get(s.compat)
    if scorer is not None:
        return scorer.impl().definitions(s)
    if s.compat == "vqwordseg":
        return {"scorer": "vqwordseg", "reproduces": "kamperh/vqwordseg eval_segmentation.py (commit d062717)",
                "tolerance_frames": s.tol_frames, "frame_shift": s.frame_shift, "rules": "docs/segmentation.md"}
    return {"scorer": "none", "matching": "maximum one-to-one matching within the tolerance, integer microseconds",
            "reference_boundaries": "distinct onsets and offsets farther than the tolerance from the utterance edges",
            "tolerance": s.tolerance, "rules": "docs/segmentation.md"}


HEADER = "# utt ref_boundaries pred_boundaries hits precision recall fscore ref_tokens pred_tokens token_hits token_precision token_recall token_fscore\n"


def _write_breakdowns(details: str, m: dict, speaker_of: dict[str, str]) -> None:
    with atomic_write(os.path.join(details, "per_utterance")) as f:
        f.write(HEADER)
        for u, b, t in zip(m["utts"], m["boundary"], m["token"]):
            f.write(" ".join([u] + _prf_row(b) + _prf_row(t)) + "\n")
    spk: dict[str, list[np.ndarray]] = {}
    for u, b, t in zip(m["utts"], m["boundary"], m["token"]):
        spk.setdefault(speaker_of[u], []).append(np.concatenate((b, t)))
    with atomic_write(os.path.join(details, "per_speaker")) as f:
        f.write(HEADER.replace("# utt", "# speaker"))
        for k in sorted(spk):
            c = np.sum(spk[k], axis=0)
            nb = m["boundary"].shape[1]
            f.write(" ".join([k] + _prf_row(c[:nb]) + _prf_row(c[nb:])) + "\n")


def _write_mapping(path: str, mapping: dict[int, int], t: Table) -> None:
    size = np.bincount(t.col, weights=t.count, minlength=len(t.clusters)).astype(np.int64)
    ks = sorted(mapping, key=lambda c: t.clusters[c])
    nc = max(len(t.clusters), 1)
    code = t.row.astype(np.int64) * nc + t.col                  # the table's cells, one code each
    order = np.argsort(code, kind="stable")
    want = np.asarray([mapping[k] for k in ks], dtype=np.int64) * nc + np.asarray(ks, dtype=np.int64)
    at = np.minimum(np.searchsorted(code[order], want), max(len(code) - 1, 0))
    found = (code[order][at] == want) if len(code) else np.zeros(len(want), dtype=bool)
    correct = np.where(found, t.count[order][at] if len(code) else 0, 0).tolist()
    with atomic_write(path) as f:
        f.write("# cluster label correct cluster_size\n")
        f.write("".join(f"{t.clusters[k]} {t.labels[mapping[k]]} {c} {n}\n"
                        for k, c, n in zip(ks, correct, size[ks].tolist())))


def _write_sweep(details: str, tols: list[float], sweep: np.ndarray, name: str) -> None:
    with atomic_write(os.path.join(details, "tolerance_sweep")) as f:
        f.write("# tolerance_s ref_boundaries pred_boundaries hits precision recall fscore\n")
        for tol, c in zip(tols, sweep):
            f.write(f"{tol:g} " + " ".join(_prf_row(c)) + "\n")
    plot_sweeps({name: (tols, [prf(int(c[2]), int(c[1]), int(c[0]))[2] for c in sweep])},
                os.path.join(details, "tolerance_sweep"))


@drawing
def plot_sweeps(systems: dict[str, tuple[list[float], list[float | None]]], out_base: str) -> list[str]:
    """Boundary F against the tolerance, one line per system -> out_base.png and .pdf (the paths)."""
    fig, ax = new_figure((5, 3.5))
    for name, (tols, fs) in systems.items():
        ax.plot([t * 1000 for t in tols], [np.nan if f is None else 100 * f for f in fs], marker="o", label=name)
    ax.set_xlabel("tolerance (ms)")
    ax.set_ylabel("boundary F (%)")
    ax.grid(True, alpha=0.3)
    legend(ax, fontsize="small")
    tight_layout(fig)
    return save_figure(fig, out_base)
