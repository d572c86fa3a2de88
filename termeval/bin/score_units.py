#!/usr/bin/env python3
"""Score discrete speech units against gold phones: PNMI, phone and cluster purity, PER after
mapping the units to phones, boundary precision/recall/F and R-value (discophon 0.2.0's
definitions; --compat fairseq: fairseq's measure_teacher_quality.py numbers and table).

Usage (normally through steps/score_units.sh):
  python -m termeval.bin.score_units [options] <data-dir> <units> <exp-dir>
      everything in one process
  ... --job J --nj N <data-dir> <units> <exp-dir>
      co-occurrence counts of the J-th share of the files -> <exp-dir>/jobs/units.J.npz
  ... --merge N <data-dir> <units> <exp-dir>
      add up the N shards, map the units, score -> <exp-dir>/scores/units, scores.json, details/units/
The gold is a data dir of steps/prepare_gold.sh (any --format; --format discophon reads
discophon's alignment files); the units a Kaldi text archive `<utt> u1 u2 ...`, a Kaldi binary
archive (kaldiio), discophon's .jsonl or a directory of <utt>.npy, one unit per --frame-shift
seconds. Definitions, the two compat modes and where they differ: docs/units.md. The stage:
termeval/units/stage.py.
"""
from __future__ import annotations

import argparse
from typing import Sequence

from termeval.run.cli import add_job_options, parser_for, run, stage_main
from termeval.units.options import UnitsOptions


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): UnitsOptions, plus the driver's --job/--merge."""
    p = parser_for(UnitsOptions, __doc__, prog="score_units.py")
    add_job_options(p, "files")
    p.add_argument("--print-stage-name", action="store_true",
                   help="print the stage's name (units: the name of its logs and shards) and stop")
    return p


def stage_of(opts: UnitsOptions) -> "termeval.core.stage.Stage":
    from termeval.units.stage import UnitsStage, settings_of   # numpy, scipy: not for --help
    return UnitsStage(settings_of(opts))


def main(argv: Sequence[str] | None = None) -> int:
    return stage_main(get_parser, stage_of, argv)


if __name__ == "__main__":
    run(main)
