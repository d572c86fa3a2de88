#!/usr/bin/env python3
"""The entry point of convert_segments (`python -m termeval.bin.convert_segments --help`), built from its
declaration: termeval/steps/segmentation.py CONVERT_SEGMENTS."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import CONVERT_SEGMENTS as STEP

get_parser, main = entry(STEP)

if __name__ == "__main__":
    run(main)
