#!/usr/bin/env python3
"""The entry point of prepare_gold (`python -m termeval.bin.prepare_gold --help`), built from its
declaration: termeval/steps/gold.py PREPARE_GOLD."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import PREPARE_GOLD as STEP

get_parser, main = entry(STEP)

if __name__ == "__main__":
    run(main)
