#!/usr/bin/env python3
"""The entry point of export_text (`python -m termeval.bin.export_text --help`), built from its
declaration: termeval/steps/segmentation.py EXPORT_TEXT."""
from __future__ import annotations

from termeval.run.cli import entry, run
from termeval.steps import EXPORT_TEXT as STEP

get_parser, main = entry(STEP)

if __name__ == "__main__":
    run(main)
