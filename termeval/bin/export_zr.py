#!/usr/bin/env python3
"""Write a prepared gold data dir back out as ZeroSpeech .phn/.wrd files.

Usage: python -m termeval.bin.export_zr [--drop-sil true|false] [--sil-label SIL] <data-dir> <out.phn> <out.wrd>
 e.g.: python -m termeval.bin.export_zr --drop-sil true data/mandarin exp/zr/mandarin.phn exp/zr/mandarin.wrd

The options: termeval/gold/options.py (ExportZrOptions).
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from termeval.gold import export_zr
from termeval.gold.options import ExportZrOptions
from termeval.run.cli import options_of, parser_for, run


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): ExportZrOptions."""
    return parser_for(ExportZrOptions, __doc__)


def main(argv: Sequence[str] | None = None) -> int:
    p = get_parser()
    a = options_of(p, p.parse_args(argv))
    n_phn, n_wrd = export_zr(a.data_dir, a.out_phn, a.out_wrd, a.drop_sil, a.sil_label)
    print(f"{os.path.basename(sys.argv[0])}: wrote {a.out_phn} ({n_phn} phones) and {a.out_wrd} "
          f"({n_wrd} words)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
