#!/usr/bin/env python3
"""The entry point of score_text_segmentation (`python -m termeval.bin.score_text_segmentation --help`), built from its
declaration: termeval/steps/segmentation.py SCORE_TEXT_SEGMENTATION."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import SCORE_TEXT_SEGMENTATION as STEP

get_parser, main = entry(STEP)
stage_of = STEP.stage_of          # the stage of its options (termeval/steps)

if __name__ == "__main__":
    run(main)
