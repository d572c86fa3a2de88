#!/usr/bin/env python3
"""Write the texts a text word segmenter reads and is scored on from a gold data dir:
<out>/gold.txt (one utterance a line, words separated by spaces, each word its phones written
together, or separated by --unit-sep, or its label with --words labels), <out>/prepared.txt
(the phones separated by spaces) and <out>/utt_phones (the phones' times, for
termeval.bin.text_to_times). Silences (phones in no word) are left out. The three files
appear whole or not at all (termeval.run.driver.run_task); an input at one of their paths is
refused.

Usage: python -m termeval.bin.export_text [options] <data-dir> <out-dir>
"""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from termeval.run.cli import options_of, parser_for, run
from termeval.textseg.options import ExportTextOptions


def get_parser() -> argparse.ArgumentParser:
    return parser_for(ExportTextOptions, __doc__, prog="export_text.py")


def main(argv: Sequence[str] | None = None) -> int:
    parser = get_parser()
    opts = options_of(parser, parser.parse_args(argv))
    from termeval.run import driver       # numpy: not for --help
    from termeval.textseg import export   # numpy: not for --help
    write = export.prepare(opts.data_dir, opts.words, opts.unit_sep, opts.segments)
    n, empty = driver.run_task("export_text", opts.out_dir, export.OUTPUTS, write, inputs=opts.paths("input"))
    print(f"export_text: {n} utterances in {opts.out_dir}/gold.txt, prepared.txt, utt_phones"
          + (f"; {empty} without a word left out" if empty else ""), file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
