#!/usr/bin/env python3
"""The entry point of summarize_scores (`python -m termeval.bin.summarize_scores --help`), built from its
declaration: termeval/steps/results.py SUMMARIZE_SCORES."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import SUMMARIZE_SCORES as STEP

get_parser, main = entry(STEP)

if __name__ == "__main__":
    run(main)
