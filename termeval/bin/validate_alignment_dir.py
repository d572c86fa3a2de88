#!/usr/bin/env python3
"""Check a prepared gold data dir (phones, words, utt2spk, spk2utt, reco2dur).

Usage: python -m termeval.bin.validate_alignment_dir [--boundary-tolerance SEC] [--sil-label SIL] <data-dir>
 e.g.: python -m termeval.bin.validate_alignment_dir data/mandarin

See utils/validate_alignment_dir.sh --help for the list of checks. The options:
termeval/gold/options.py (ValidateOptions).
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from termeval.gold.options import ValidateOptions
from termeval.gold.validate import findings
from termeval.run.cli import options_of, parser_for, run


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): ValidateOptions."""
    return parser_for(ValidateOptions, __doc__)


def main(argv: Sequence[str] | None = None) -> int:
    p = get_parser()
    a = options_of(p, p.parse_args(argv))
    found = findings(a)
    print(f"{os.path.basename(sys.argv[0])}: {a.data_dir}: OK ({found['summary']})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
