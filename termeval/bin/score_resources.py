#!/usr/bin/env python3
"""The entry point of score_resources (`python -m termeval.bin.score_resources --help`), built from its
declaration: termeval/steps/std.py SCORE_RESOURCES."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import SCORE_RESOURCES as STEP

get_parser, main = entry(STEP)
stage_of = STEP.stage_of          # the stage of its options (termeval/steps)

if __name__ == "__main__":
    run(main)
