#!/usr/bin/env python3
"""Check a prepared gold data dir (phones, words, utt2spk, spk2utt, reco2dur).

Usage: python -m termeval.bin.validate_alignment_dir [--boundary-tolerance SEC] [--sil-label SIL] <data-dir>
 e.g.: python -m termeval.bin.validate_alignment_dir data/mandarin

See utils/validate_alignment_dir.sh --help for the list of checks.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
from typing import Sequence

from termeval.run.cli import make_parser, nonneg_float, run
from termeval.gold import validate_data_dir


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help)."""
    p = make_parser(__doc__)
    p.add_argument("--boundary-tolerance", type=nonneg_float, default=0.001)
    p.add_argument("--sil-label", default="SIL")
    p.add_argument("data_dir")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    a = get_parser().parse_args(argv)
    enabled = gc.isenabled()
    gc.disable()  # many small objects, no cycles
    try:
        summary = validate_data_dir(a.data_dir, a.boundary_tolerance, a.sil_label)
    finally:
        if enabled:
            gc.enable()
    print(f"{os.path.basename(sys.argv[0])}: {a.data_dir}: OK ({summary})", file=sys.stderr)


if __name__ == "__main__":
    run(main)
