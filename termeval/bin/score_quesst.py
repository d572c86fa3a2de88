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

from termeval.quesst.options import QuesstOptions
from termeval.run.cli import add_job_options, parser_for, run, stage_main


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): QuesstOptions, plus the driver's --job/--merge."""
    p = parser_for(QuesstOptions, __doc__)
    add_job_options(p, "queries")
    return p


def stage_of(opts: QuesstOptions) -> "termeval.core.stage.Stage":
    from termeval.quesst.stage import QuesstStage    # numpy, defusedxml: not for --help
    return QuesstStage()


def main(argv: Sequence[str] | None = None) -> int:
    return stage_main(get_parser, stage_of, argv)


if __name__ == "__main__":
    run(main)
