#!/usr/bin/env python3
"""The entry point of export_zr (`python -m termeval.bin.export_zr --help`), built from its
declaration: termeval/steps/gold.py EXPORT_ZR."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import EXPORT_ZR as STEP

get_parser, main = entry(STEP)

if __name__ == "__main__":
    run(main)
