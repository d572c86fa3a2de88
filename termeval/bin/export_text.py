#!/usr/bin/env python3
"""Write the texts a text word segmenter reads and is scored on from a gold data dir:
<out>/gold.txt (one utterance a line, words separated by spaces, each word its phones written
together, or separated by --unit-sep, or its label with --words labels), <out>/prepared.txt
(the phones separated by spaces) and <out>/utt_phones (the phones' times, for
termeval.bin.text_to_times). Silences (phones in no word) are left out.

Usage: python -m termeval.bin.export_text [options] <data-dir> <out-dir>
"""
from __future__ import annotations

import sys
from typing import Sequence

from termeval.run.cli import make_parser, run
from termeval.textseg.export import export


def get_parser():
    p = make_parser(__doc__, prog="export_text.py")
    p.add_argument("data_dir")
    p.add_argument("out_dir")
    p.add_argument("--words", choices=["phones", "labels"], default="phones",
                   help="a word is written as its phones (default) or its label")
    p.add_argument("--unit-sep", default="", help="separator of the phones inside a word (default none)")
    p.add_argument("--segments", default=None, help="Kaldi segments file: utterances are its spans")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = get_parser().parse_args(argv)
    n, empty = export(args.data_dir, args.out_dir, args.words, args.unit_sep, args.segments)
    print(f"export_text: {n} utterances in {args.out_dir}/gold.txt, prepared.txt, utt_phones"
          + (f"; {empty} without a word left out" if empty else ""), file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
