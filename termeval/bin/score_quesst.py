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
See termeval/quesst/quesst.py and docs/std-metrics.md for the definitions. Keys that score_std.py also writes
(effective_prior, n_targets, n_detections) are named quesst_effective_prior, n_target_trials
and n_system_detections here, so both stages can share one exp dir and scores.json.
Per-query statistics: <exp-dir>/units/units.quesst_query.npz (steps/compare_systems.sh); with
--bootstrap N, percentile intervals of act_twv, max_twv, ub_twv, act_cnxe, min_cnxe over
queries (docs/uncertainty.md). Jobs (steps/score_quesst.sh --nj N; termeval.run.driver): `--nj N
--job J` reduces job J's range of queries to one score per (query, document) into
<exp-dir>/jobs/quesst.J.npz; `--merge N` scores from them, identically to a single run.
The stage and its report: termeval/quesst/stage.py, termeval/quesst/report.py.
"""
from __future__ import annotations

import argparse
from typing import Sequence

from termeval.run.cli import (
    add_bootstrap_options, add_job_options, float_or, make_parser, number_list, open_prob,
    positive_float, run, stage_main, str2bool)


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
    add_job_options(p, "queries")
    p.add_argument("kws_dir")
    p.add_argument("detections")
    p.add_argument("exp_dir")
    return p


def stage_of(args: argparse.Namespace) -> "termeval.run.driver.Stage":
    from termeval.quesst.stage import QuesstStage
    return QuesstStage()


def main(argv: Sequence[str] | None = None) -> int:
    return stage_main(get_parser, stage_of, argv)


if __name__ == "__main__":
    run(main)
