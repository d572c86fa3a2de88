#!/usr/bin/env python3
"""The entry point of compare_systems (`python -m termeval.bin.compare_systems --help`), built from its
declaration: termeval/steps/results.py COMPARE_SYSTEMS."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import COMPARE_SYSTEMS as STEP

get_parser, main = entry(STEP)

if __name__ == "__main__":
    run(main)
