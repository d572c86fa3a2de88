#!/usr/bin/env python3
"""Map a segmented text back to times through the gold phones (<export-dir>/utt_phones written
by termeval.bin.export_text): writes <out-dir>/intervals (`<file> <onset> <offset> <word>`, for
steps/score_segmentation.sh) and <out-dir>/classes (one class per distinct word, for
steps/score_tde.sh).

Usage: python -m termeval.bin.text_to_times [--unit-sep SEP] <export-dir> <segmented.txt> <out-dir>
"""
from __future__ import annotations

import os
import sys
from typing import Sequence

from termeval.run.cli import make_parser, run
from termeval.textseg.totimes import text_to_times


def get_parser():
    p = make_parser(__doc__, prog="text_to_times.py")
    p.add_argument("export_dir")
    p.add_argument("segmented")
    p.add_argument("out_dir")
    p.add_argument("--unit-sep", default=None, help="separator of the phones inside a word (default none)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = get_parser().parse_args(argv)
    n = text_to_times(os.path.join(args.export_dir, "utt_phones"), args.segmented, args.out_dir, args.unit_sep)
    print(f"text_to_times: {n} words -> {args.out_dir}/intervals, {args.out_dir}/classes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
