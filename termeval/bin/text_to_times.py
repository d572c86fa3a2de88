#!/usr/bin/env python3
"""Map a segmented text back to times through the gold phones (<export-dir>/utt_phones written
by termeval.bin.export_text): writes <out-dir>/intervals (`<file> <onset> <offset> <word>`, for
steps/score_segmentation.sh) and <out-dir>/classes (one class per distinct word, for
steps/score_tde.sh). Both files appear whole or not at all (termeval.run.driver.run_task); an
input at one of their paths (the segmented text at <out-dir>/classes) is refused.

Usage: python -m termeval.bin.text_to_times [--unit-sep SEP] <export-dir> <segmented.txt> <out-dir>
"""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from termeval.run.cli import options_of, parser_for, run
from termeval.textseg.options import TextToTimesOptions


def get_parser() -> argparse.ArgumentParser:
    return parser_for(TextToTimesOptions, __doc__, prog="text_to_times.py")


def main(argv: Sequence[str] | None = None) -> int:
    parser = get_parser()
    opts = options_of(parser, parser.parse_args(argv))
    from termeval.run import driver       # numpy: not for --help
    from termeval.textseg import totimes  # numpy: not for --help
    write = totimes.prepare(opts.utt_phones(), opts.segmented, opts.unit_sep)
    n = driver.run_task("text_to_times", opts.out_dir, totimes.OUTPUTS, write,
                        inputs=[*opts.paths("input"), opts.utt_phones()])
    print(f"text_to_times: {n} words -> {opts.out_dir}/intervals, {opts.out_dir}/classes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
