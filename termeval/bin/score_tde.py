#!/usr/bin/env python3
"""The entry point of score_tde (`python -m termeval.bin.score_tde --help`), built from its
declaration: termeval/steps/tde.py SCORE_TDE."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import SCORE_TDE as STEP

get_parser, main = entry(STEP)
stage_of = STEP.stage_of          # the stage of its options (termeval/steps)

if __name__ == "__main__":
    run(main)
