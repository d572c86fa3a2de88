#!/usr/bin/env python3
"""Score a DiscoPhon phoneme discovery submission as `python -m discophon.benchmark <dataset>
<predictions> <output> --benchmark discovery` (discophon 0.2.0): PNMI, PER, boundary F1 and
R-value of every (language, split) with units.

Usage (normally through steps/score_discophon.sh):
  python -m termeval.bin.score_discophon [options] <dataset-dir> <predictions-dir> <output-dir>
      everything in one process
  ... --job J --nj N ...   the J-th share of the (language, split) pairs -> <output-dir>/jobs/discophon.J.npz
  ... --merge N ...        gather the N shards -> <output-dir>/scores.jsonl, scores/, details/discophon/
The predictions are units-<code>-<split>.jsonl files ({"file", "units"} lines); the gold is
read from <dataset-dir>/alignment/alignment-<code>-<split>.txt only (no audio tree needed).
<output-dir>/scores.jsonl holds discophon's rows, written whole (not appended); scores/ holds
one file per pair (scores/discophon_<code>_<split>) and scores.json. docs/units.md.
"""
from __future__ import annotations

import argparse
from typing import Sequence

from termeval.run.cli import add_job_options, parser_for, run, stage_main
from termeval.units.options import DiscophonOptions


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): DiscophonOptions, plus the driver's --job/--merge."""
    p = parser_for(DiscophonOptions, __doc__, prog="score_discophon.py")
    add_job_options(p, "(language, split) pairs")
    p.add_argument("--print-stage-name", action="store_true",
                   help="print the stage's name (discophon: the name of its logs and shards) and stop")
    return p


def stage_of(opts: DiscophonOptions) -> "termeval.core.stage.Stage":
    from termeval.units.stage import DiscophonStage   # numpy, scipy: not for --help
    return DiscophonStage(opts)


def main(argv: Sequence[str] | None = None) -> int:
    return stage_main(get_parser, stage_of, argv)


if __name__ == "__main__":
    run(main)
