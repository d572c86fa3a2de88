#!/usr/bin/env python3
"""The entry point of score_zrc_submission (`python -m termeval.bin.score_zrc_submission --help`), built from its
declaration: termeval/steps/zrc.py SCORE_ZRC_SUBMISSION."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import SCORE_ZRC_SUBMISSION as STEP

get_parser, main = entry(STEP)

if __name__ == "__main__":
    run(main)
