#!/usr/bin/env python3
"""The entry point of text_to_times (`python -m termeval.bin.text_to_times --help`), built from its
declaration: termeval/steps/segmentation.py TEXT_TO_TIMES."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import TEXT_TO_TIMES as STEP

get_parser, main = entry(STEP)

if __name__ == "__main__":
    run(main)
