#!/usr/bin/env python3
"""The entry point of prepare_kws (`python -m termeval.bin.prepare_kws --help`), built from its
declaration: termeval/steps/std.py PREPARE_KWS."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import PREPARE_KWS as STEP

get_parser, main = entry(STEP)

if __name__ == "__main__":
    run(main)
