#!/usr/bin/env python3
"""Processing-load figures of MediaEval SWS 2013 (Rodriguez-Fuentes and Penagarikano 2013 §4.3, docs/std.md §5): ISF, SSF, PMU and PL.

Usage: python -m termeval.bin.score_resources [options] <kws-data-dir-or-ecf> <exp-dir>
 e.g.: python -m termeval.bin.score_resources --query-durations data/example_std/kws/query2dur data/example_std/kws exp/example_std

Phase figures come from <exp-dir>/resources/{index,search} (utils/measure_resources.sh), or
from --resources-file (docs/std.md §5.2 layout: [audio] t_omega_s/t_query_s, [index]/[search]
cpu_s or wall_s+cores and pmu_gb, [report] lambda/ssf_unit/hardware), which wins where it
gives a value. Command-line options win over both.
T_audio: the ECF's excerpt duration (overlaps merged) of <kws-data-dir-or-ecf> (a kws dir
with ecf.xml or *.ecf.xml, an ECF file, a data dir with reco2dur, or a reco2dur-style file);
t_omega_s in the resources file overrides it unless it says auto.
T_query (all query examples, seed eq. 47), first found of: --query-durations FILE
(`<example-id> <seconds>`, e.g. a query data dir's utt2dur), --query-duration SECONDS,
t_query_s in the resources file (a number or auto:FILE), <kws-data-dir>/query2dur, and a
term list whose every term has a `duration` attribute (terminfo/kwinfo, seconds).

ISF = index CPU / T_audio; SSF = search CPU / (T_query x T_audio), per hour (default) or per
second; PMU in GB (2^30 bytes); PL = lambda*ISF*PMU_i + (1-lambda)*SSF*PMU_s with SSF in the
chosen unit. Written to <exp-dir>/scores/resources and scores.json; the figures are printed on
stdout. The options: termeval/resources/options.py; the stage and its report:
termeval/resources/stage.py, termeval/resources/report.py.
"""
from __future__ import annotations

import argparse
from typing import Sequence

from termeval.resources.options import ResourcesOptions
from termeval.run.cli import parser_for, run, stage_main


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): ResourcesOptions."""
    return parser_for(ResourcesOptions, __doc__)


def stage_of(opts: ResourcesOptions) -> "termeval.core.stage.Stage":
    from termeval.resources.stage import ResourcesStage    # numpy: not for --help
    return ResourcesStage()


def main(argv: Sequence[str] | None = None) -> int:
    return stage_main(get_parser, stage_of, argv)


if __name__ == "__main__":
    run(main)
