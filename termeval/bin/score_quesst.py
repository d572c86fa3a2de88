#!/usr/bin/env python3
"""QUESST-style per-document scoring: every (query, document) pair is a trial.

Usage: python -m termeval.bin.score_quesst [options] <kws-data-dir> <detections> <exp-dir>
 e.g.: python -m termeval.bin.score_quesst --default-score -10 data/example_std/kws exp/example_std/detections.xml exp/example_std

<kws-data-dir>: ECF + RTTM + term list (a Kaldi kws dir or a QUESST groundtruth_* dir), or
the simple lists `documents`, `queries`, `targets` (`<query> <document>`).
<detections>: STDLIST, KWSLIST, Kaldi `kwid utt start end score`, or `<query> <document>
<score> [YES|NO]` lines. Detections are reduced to the maximum score per (query, document);
unreported trials take --default-score. Queries that occur nowhere are removed.

Writes <exp-dir>/scores/quesst (+ scores.json), <exp-dir>/details/quesst/score.out (the
kit's five headline lines, also printed on stdout) and <exp-dir>/details/quesst/per_query.
Also writes <exp-dir>/scores/quesst_operating (quesst_map, quesst_map_f4de,
quesst_mean_p_at_N, quesst_mean_r_precision over the ranked documents of each query),
details/quesst/ranking_per_query.tsv, details/quesst/breakdown_<kind>.tsv and the per-group
headline values in scores.json under "breakdowns" -> "quesst".
See termeval/std/quesst.py and docs/std-metrics.md for the definitions. Keys that score_std.py also writes
(effective_prior, n_targets, n_detections) are named quesst_effective_prior, n_target_trials
and n_system_detections here, so both stages can share one exp dir and scores.json.
Per-query statistics: <exp-dir>/units/units.quesst_query.npz (steps/compare_systems.sh); with
--bootstrap N, percentile intervals of act_twv, max_twv, ub_twv, act_cnxe, min_cnxe over
queries (docs/uncertainty.md). Jobs (steps/score_quesst.sh --nj N): `--nj N --job J` reduces
job J's range of queries to one score per (query, document) into
<exp-dir>/quesst/pairs.J.npz; `--merge N` scores from them, identically to a single run.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Sequence

import numpy as np

from termeval.cli import (
    add_bootstrap_options, add_job_options, float_or, make_parser, number_list, open_prob,
    positive_float, run, str2bool)
from termeval.errors import InputError
from termeval.scores import Metric, write_scores
from termeval.std import quesst
from termeval.std import quesst_io
from termeval.std.ranking import ranking
from termeval.textio import atomic_write


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help)."""
    p = make_parser(__doc__)
    p.add_argument("--p-target", type=open_prob, default=0.0008, help="default %(default)s (QUESST kit)")
    p.add_argument("--c-miss", type=positive_float, default=100.0, help="default %(default)s")
    p.add_argument("--c-fa", type=positive_float, default=1.0, help="default %(default)s")
    p.add_argument("--eff-prior", type=open_prob, default=None,
                   help="use this effective prior instead (the kit passes bc's 0.0741289)")
    p.add_argument("--default-score", type=float_or("min"), default="min",
                   help="score of unreported trials: a number (SUPERB: -10) or 'min' (the "
                        "minimum submitted score, seed eq. 42); default %(default)s")
    p.add_argument("--act-threshold", type=float_or("bayes"), default="bayes",
                   help="actTWV threshold: 'bayes' = ln((1-P_tar)/P_tar) for LLR scores, or a number")
    p.add_argument("--use-decisions", type=str2bool, default=False,
                   help="actTWV from the YES/NO decisions of the detections instead (default false)")
    p.add_argument("--format", choices=("auto", "xml", "kaldi", "pairs"), default="auto")
    p.add_argument("--breakdown", default="",
                   help="comma list of attr:NAME, ngram, freq, oov, qtype; 'none' for none (default: "
                        "ngram,freq, + oov with --lexicon, + qtype when query types are known)")
    p.add_argument("--lexicon", default=None, help="words.txt: queries with a word not in it are OOV")
    p.add_argument("--freq-bins", default="1,2,5,10", help="lower edges of the target-document-count bins")
    p.add_argument("--p-at", default="10", type=number_list(1, integer=True), help="mean precision at these ranks (comma list)")
    add_bootstrap_options(p, "queries")
    add_job_options(p, "queries", "<exp-dir>/quesst/pairs.J.npz")
    p.add_argument("kws_dir")
    p.add_argument("detections")
    p.add_argument("exp_dir")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    a = get_parser().parse_args(argv)
    if not os.path.isfile(a.detections):
        raise InputError("no such detection file", a.detections)
    if a.default_score != "min":
        try:
            ds = float(a.default_score)
        except ValueError:
            raise InputError(f"--default-score must be a number or 'min', got '{a.default_score}'") from None
        if not math.isfinite(ds):
            raise InputError("--default-score must be finite (Cnxe is infinite otherwise)")
    p_tar = a.eff_prior if a.eff_prior is not None else quesst.effective_prior(a.p_target, a.c_miss, a.c_fa)
    if not 0 < p_tar < 1:
        raise InputError(f"effective prior {p_tar} must lie strictly between 0 and 1")
    if a.bootstrap < 0 or not 0 < a.ci < 1:
        raise InputError(f"--bootstrap must be >= 0 and --ci in (0, 1), got {a.bootstrap} and {a.ci}")
    if a.job is not None and a.merge is not None:
        raise InputError("--job and --merge exclude each other")
    if a.nj < 1 or (a.merge is not None and a.merge < 1):
        raise InputError("--nj and --merge must be >= 1")
    thr = None
    if a.act_threshold != "bayes":
        try:
            thr = float(a.act_threshold)
        except ValueError:
            raise InputError(f"--act-threshold must be 'bayes' or a number, got '{a.act_threshold}'") from None

    from termeval.std import breakdown, figures
    kinds = breakdown.parse_kinds(a.breakdown, a.lexicon is not None, quesst=True)
    bins = breakdown.parse_bins(a.freq_bins)
    lexicon = breakdown.read_lexicon(a.lexicon) if a.lexicon else None
    try:
        p_at = tuple(int(x) for x in a.p_at.split(",") if x.strip())
    except ValueError:
        raise InputError(f"--p-at must be a comma list of ranks, got '{a.p_at}'") from None
    if not p_at or min(p_at) < 1:
        raise InputError(f"--p-at must be a comma list of ranks >= 1, got '{a.p_at}'")
    ref = quesst_io.load_reference(a.kws_dir)
    breakdown.check_attributes(kinds, ref.query_attrs, a.kws_dir)
    hyp = quesst_io.read_pair_scores(a.detections, a.format)
    if a.use_decisions and hyp.decision is None:
        raise InputError("--use-decisions true, but the detections carry no YES/NO decisions", a.detections)
    from termeval.std import jobs
    mapped = quesst_io.map_detections(ref, hyp, "min" if a.default_score == "min" else float(a.default_score))
    if a.job is not None:     # one job of score_quesst.sh --nj: reduce a query range, no output
        jobs.run_quesst_job(ref, mapped, a.exp_dir, a.nj, a.job)
        return 0
    pairs = jobs.merge_quesst_jobs(ref, mapped, a.exp_dir, a.merge) if a.merge else None
    tr, warnings = quesst_io.trials_from_mapped(ref, mapped, pairs)
    for w in warnings:
        print(f"{os.path.basename(sys.argv[0])}: warning: {w}", file=sys.stderr)
    r = quesst.score_trials(tr, p_tar, thr, a.use_decisions)
    c = r.counts

    lines = quesst.kit_lines(r)
    det_dir = os.path.join(a.exp_dir, "details", "quesst")
    os.makedirs(det_dir, exist_ok=True)
    with atomic_write(os.path.join(det_dir, "score.out")) as f:
        f.write("".join(x + "\n" for x in lines))
    with atomic_write(os.path.join(det_dir, "per_query")) as f:
        f.write("# query n_target_docs act_twv best_twv best_threshold\n")
        for i, q in enumerate(tr.query_ids):
            f.write(f"{q} {int(tr.n_target[i])} {r.per_query_twv[i]:.6f} {r.per_query_best[i]:.6f} "
                    f"{'-' if not np.isfinite(r.per_query_threshold[i]) else repr(float(r.per_query_threshold[i]))}\n")

    act_support = ("decisions" if a.use_decisions else f"score >= {r.act_threshold:.6g}")
    ci, more = quesst_intervals(a, tr, r)
    metrics = [
        Metric("act_twv", r.act_twv, act_support, ci.get("act_twv")),
        Metric("act_p_miss", r.act_p_miss), Metric("act_p_fa", r.act_p_fa),
        Metric("max_twv", r.max_twv, f"threshold {r.max_twv_threshold:.6g}", ci.get("max_twv")),
        Metric("max_twv_threshold", r.max_twv_threshold),
        Metric("max_p_miss", r.max_p_miss), Metric("max_p_fa", r.max_p_fa),
        Metric("ub_twv", r.ub_twv, "per-query threshold offset", ci.get("ub_twv")),
        Metric("act_cnxe", r.act_cnxe, "", ci.get("act_cnxe")),
        Metric("min_cnxe", r.min_cnxe.cnxe, f"affine gamma {r.min_cnxe.gamma:.6g} delta {r.min_cnxe.delta:.6g}",
               ci.get("min_cnxe")),
        Metric("min_cnxe_gamma", r.min_cnxe.gamma), Metric("min_cnxe_delta", r.min_cnxe.delta),
        Metric("min_cnxe_pav", r.min_cnxe_pav, "global PAV lower bound"),
        Metric("lb_cnxe", r.lb_cnxe, "per-query PAV"),
        Metric("lb_min_cnxe", r.lb_min_cnxe.cnxe, "affine over the per-query PAV LLRs"),
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
    g = tr.n_given
    rk = ranking(tr.query[:g], tr.score[:g], tr.target[:g], tr.n_target,
                 np.ones(tr.n_queries, bool), p_at)
    figures.write_ranking_table(os.path.join(det_dir, "ranking_per_query.tsv"), tr.query_ids,
                                tr.n_target, rk, np.ones(tr.n_queries, bool))
    pos = {q: i for i, q in enumerate(ref.query_ids)}
    texts = [ref.query_texts[pos[q]] for q in tr.query_ids]
    attrs = [ref.query_attrs[pos[q]] for q in tr.query_ids]
    qtypes = breakdown.query_types(a.kws_dir, tr.query_ids, attrs)
    if a.breakdown.strip() == "" and qtypes is not None:
        kinds.append("qtype")
    groups = figures.write_breakdowns(
        det_dir, kinds,
        lambda kind: breakdown.labels(kind, texts, attrs, tr.n_target, bins, lexicon, qtypes),
        lambda mask: figures.quesst_group(tr, mask, p_tar, thr, a.use_decisions, rk),
        figures.QUESST_COLUMNS, figures.HEADLINE["quesst"], bins, np.ones(tr.n_queries, bool))
    extra = {"breakdowns": figures.merged_breakdowns(a.exp_dir, "quesst", groups), "quesst": {"kit_lines": lines, "min_cnxe_separable": r.min_cnxe.separable,
                        "reference": ref.source, "detections_format": hyp.fmt}, **more}
    path = write_scores(a.exp_dir, "quesst", metrics, "quesst", extra, warnings=warnings)
    write_scores(a.exp_dir, "quesst_operating", figures.ranking_metrics(rk, "quesst_"), None)
    print("\n".join(lines))
    print(f"{os.path.basename(sys.argv[0])}: wrote {path} and {det_dir}/score.out", file=sys.stderr)
    return 0


def quesst_intervals(a, tr, r) -> tuple[dict, dict]:
    """Per-query table saved for compare_systems, intervals with --bootstrap, data identity."""
    from termeval.bootstrap.engine import bootstrap_ci
    from termeval.bootstrap.quesst import query_table
    from termeval.bootstrap.units import data_identity, save_units, units_path
    accept = tr.decision if a.use_decisions else tr.score >= r.act_threshold
    us = query_table(tr, r, accept)
    save_units(units_path(a.exp_dir, "quesst_query"), us)
    ci = bootstrap_ci(us, a.bootstrap, a.seed, a.ci) if a.bootstrap > 0 else {}
    files = [f for f in (os.path.join(a.kws_dir, x) for x in sorted(os.listdir(a.kws_dir))) if os.path.isfile(f)]
    settings = {k: getattr(a, k) for k in ("p_target", "c_miss", "c_fa", "eff_prior", "default_score",
                                           "act_threshold", "use_decisions")}
    more = {"data_id": data_identity(files, settings),
            "bootstrap": {"n": a.bootstrap, "seed": a.seed, "level": a.ci, "unit": "query"}}
    return ci, more


if __name__ == "__main__":
    run(main)
