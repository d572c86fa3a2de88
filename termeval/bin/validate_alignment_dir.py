#!/usr/bin/env python3
"""Check a prepared gold data dir (phones, words, utt2spk, spk2utt, reco2dur).

Usage: python -m termeval.bin.validate_alignment_dir [--boundary-tolerance SEC] [--sil-label SIL] <data-dir>
 e.g.: python -m termeval.bin.validate_alignment_dir data/mandarin

See utils/validate_alignment_dir.sh --help for the list of checks. The options:
termeval/gold/options.py (ValidateOptions).
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
from typing import Sequence

from termeval.gold import validate_data_dir
from termeval.gold.options import ValidateOptions
from termeval.run.cli import options_of, parser_for, run


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): ValidateOptions."""
    return parser_for(ValidateOptions, __doc__)


def main(argv: Sequence[str] | None = None) -> int:
    p = get_parser()
    a = options_of(p, p.parse_args(argv))
    enabled = gc.isenabled()
    gc.disable()  # many small objects, no cycles
    try:
        summary = validate_data_dir(a.data_dir, a.boundary_tolerance, a.sil_label)
    finally:
        if enabled:
            gc.enable()
    print(f"{os.path.basename(sys.argv[0])}: {a.data_dir}: OK ({summary})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
