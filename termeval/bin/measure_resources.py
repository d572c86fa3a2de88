#!/usr/bin/env python3
"""The entry point of measure_resources (`python -m termeval.bin.measure_resources --help`), built from its
declaration: termeval/steps/std.py MEASURE_RESOURCES."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import MEASURE_RESOURCES as STEP

get_parser, main = entry(STEP)

if __name__ == "__main__":
    run(main)
