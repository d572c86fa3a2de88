#!/usr/bin/env python3
"""Write a prepared gold data dir back out as ZeroSpeech .phn/.wrd files.

Usage: python -m termeval.bin.export_zr [--drop-sil true|false] [--sil-label SIL] <data-dir> <out.phn> <out.wrd>
 e.g.: python -m termeval.bin.export_zr --drop-sil true data/mandarin exp/zr/mandarin.phn exp/zr/mandarin.wrd
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from termeval.run.cli import make_parser, run, str2bool
from termeval.gold import export_zr


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help)."""
    p = make_parser(__doc__)
    p.add_argument("--drop-sil", type=str2bool, default=False,
                   help="leave out phones labelled --sil-label (default false)")
    p.add_argument("--sil-label", default="SIL")
    p.add_argument("data_dir")
    p.add_argument("out_phn")
    p.add_argument("out_wrd")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    a = get_parser().parse_args(argv)
    n_phn, n_wrd = export_zr(a.data_dir, a.out_phn, a.out_wrd, a.drop_sil, a.sil_label)
    print(f"{os.path.basename(sys.argv[0])}: wrote {a.out_phn} ({n_phn} phones) and {a.out_wrd} "
          f"({n_wrd} words)", file=sys.stderr)


if __name__ == "__main__":
    run(main)
