#!/usr/bin/env python3
"""The entry point of prepare_classes (`python -m termeval.bin.prepare_classes --help`), built from its
declaration: termeval/steps/tde.py PREPARE_CLASSES."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import PREPARE_CLASSES as STEP

get_parser, main = entry(STEP)

if __name__ == "__main__":
    run(main)
