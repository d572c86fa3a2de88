#!/usr/bin/env python3
"""The entry point of validate_alignment_dir (`python -m termeval.bin.validate_alignment_dir --help`), built from its
declaration: termeval/steps/gold.py VALIDATE_ALIGNMENT_DIR."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import VALIDATE_ALIGNMENT_DIR as STEP

get_parser, main = entry(STEP)

if __name__ == "__main__":
    run(main)
