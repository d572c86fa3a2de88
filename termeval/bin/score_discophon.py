#!/usr/bin/env python3
"""The entry point of score_discophon (`python -m termeval.bin.score_discophon --help`), built from its
declaration: termeval/steps/units.py SCORE_DISCOPHON."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import SCORE_DISCOPHON as STEP

get_parser, main = entry(STEP)
stage_of = STEP.stage_of          # the stage of its options (termeval/steps)

if __name__ == "__main__":
    run(main)
