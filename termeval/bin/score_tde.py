#!/usr/bin/env python3
"""Score a discovered-class file with a ZeroSpeech term discovery benchmark, in one call.

Usage: python -m termeval.bin.score_tde [options] <data-dir> <class-file> <exp-dir>
 e.g.: python -m termeval.bin.score_tde data/zr17_mandarin downloads/zr17/kamper_mandarin.class exp/kamper

--benchmark zrc2020 (tdev2): the classes are prepared into <exp-dir>/classes (reused when the
class file, the data dir's reco2dur and the options are byte for byte those it was prepared
from), then statistics, merge and report: <exp-dir>/scores/{prepare,matching,clustering,
parsing,scores.json}, <exp-dir>/details/{clusters.txt,discarded}, <exp-dir>/units/.
--benchmark zr2015 / zr2017 (bootphon/tde): per-fold scores, <exp-dir>/scores/{matching,
clustering,parsing,tde15_input,scores.json}, <exp-dir>/details/tde15/, <exp-dir>/units/.
--benchmark zr2015-doc / lrec2014: the metrics as the seed documents define them
(shared/spec/seed-definitions.md, docs/tde.md), counted; classes prepared as for zrc2020;
<exp-dir>/scores/{prepare,matching,clustering,parsing,scores.json} with "definitions".
The score lines are printed on stdout. Scores, details and units are replaced whole by a
successful run and left as they were by a failed one. One process by default; --nj N --job J
computes one share (termeval/run/driver.py), --merge N reports from the N shares.
"""
from __future__ import annotations

import argparse
from typing import Any, Sequence

from termeval.run.cli import (add_bootstrap_options, add_check, add_job_options, make_parser, nonneg_float,
                              positive_int, run, str2bool)
from termeval.tde.registry import BENCHMARKS


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help)."""
    p = make_parser(__doc__)
    p.add_argument("--benchmark", choices=tuple(BENCHMARKS), default="zrc2020", help="default zrc2020")
    p.add_argument("--lenient", type=str2bool, default=False,
                   help="zrc2020: passed to the class preparation (termeval/classes/parse.py); zr2015/zr2017: "
                        "accept what the original tool silently accepted, with counts (default false)")
    p.add_argument("--end-tolerance", type=nonneg_float, default=0.01,
                   help="zrc2020: fragments ending at most this far past their file's end are clipped (default 0.01)")
    p.add_argument("--pairs-clustering", choices=("pairs", "components"), default="pairs",
                   help="zrc2020, zr2015-doc, lrec2014 with a pairs file: one class per pair (default) or "
                        "the connected components of the pairs as classes (as steps/prepare_classes.sh)")
    p.add_argument("--workers", type=positive_int, default=1, help="zrc2020: edit-distance threads (default 1)")
    p.add_argument("--folds", default="auto",
                   help="zr2015/zr2017: <prefix> of .split/.intervals.cross/.intervals.within[/.classes], "
                        "'none' (whole corpus; within = one fold per speaker) or 'auto' (default); "
                        "zr2015-doc: none|equal:N|auto (= equal:10); lrec2014: none|random:BxFRAC[:SEED]|auto "
                        "(= random:50x0.04:777)")
    p.add_argument("--measures", default="all", help="zr2015/zr2017: comma list of matching,ned,coverage,"
                                                     "grouping,token_type,boundary (default all)")
    add_bootstrap_options(p, "classes, recordings or speakers")
    p.add_argument("--bootstrap-unit", default="file", choices=("file", "speaker"),
                   help="resampling unit of the non-class metrics (default file)")
    p.add_argument("--prepare-only", action="store_true",
                   help="prepare what the jobs read (zrc2020, zr2015-doc, lrec2014: <exp-dir>/classes; zr2015, zr2017: <exp-dir>/tde/zr2015) and stop (run once before --job)")
    add_job_options(p, "classes (zrc2020) or folds (zr2015/zr2017)")
    p.add_argument("data_dir")
    p.add_argument("class_file")
    p.add_argument("exp_dir")
    from termeval.tde.registry import option_problem     # options the benchmark does not read
    add_check(p, lambda a: option_problem(a, {k: p.get_default(k) for k in vars(a)}))
    return p


def stage_of(args: argparse.Namespace) -> Any:
    from termeval.tde.registry import stage_for
    return stage_for(args.benchmark)


def main(argv: Sequence[str] | None = None) -> int:
    args = get_parser().parse_args(argv)
    from termeval.run import driver as jobs
    stage = stage_of(args)
    if args.prepare_only:
        if hasattr(stage, "prepare"):
            stage.prepare(args)
        return 0
    jobs.run_from_args(stage, args)
    return 0


if __name__ == "__main__":
    run(main)
