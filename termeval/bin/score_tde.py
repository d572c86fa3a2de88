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
An option the chosen benchmark does not read keeps its default (another value is refused).
The options: termeval/tde/options.py (TdeOptions); the stages: termeval/tde/registry.py.
"""
from __future__ import annotations

import argparse
from typing import Sequence

from termeval.run.cli import add_job_options, options_of, parser_for, run
from termeval.tde.options import TdeOptions
from termeval.tde.registry import stage_for


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): TdeOptions, --prepare-only and the driver's --job/--merge."""
    p = parser_for(TdeOptions, __doc__)
    p.add_argument("--prepare-only", action="store_true",
                   help="prepare what the jobs read (zrc2020, zr2015-doc, lrec2014: <exp-dir>/classes; zr2015, "
                        "zr2017: <exp-dir>/tde/zr2015) and stop (run once before --job)")
    add_job_options(p, "classes (zrc2020) or folds (zr2015/zr2017)")
    return p


def stage_of(opts: TdeOptions) -> "termeval.core.stage.Stage":
    return stage_for(opts.benchmark)


def main(argv: Sequence[str] | None = None) -> int:
    parser = get_parser()
    args = parser.parse_args(argv)
    opts = options_of(parser, args)
    stage = stage_of(opts)
    from termeval.run import driver    # numpy: not for --help
    if args.prepare_only:
        driver.check_io(stage, opts, opts.exp_dir)     # the output guard, before the classes are written
        stage.prepare(opts)
        return 0
    driver.run(stage, opts, opts.exp_dir, nj=opts.nj, job=opts.job, merge=opts.merge, run_id=args.run_id)
    return 0


if __name__ == "__main__":
    run(main)
