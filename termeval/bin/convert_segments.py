#!/usr/bin/env python3
"""Convert a segmentation written by papers' code into the interval file
steps/score_segmentation.sh reads (`<utt> <onset> <offset> [<cluster>]`, seconds).

Usage: python -m termeval.bin.convert_segments --from malan-list <list-dir> <out>
       python -m termeval.bin.convert_segments --from sdhubert-npy --allow-pickle true \\
           [--centroids C.npy [--reducer R.npy]] <npy-dir> <out>
       python -m termeval.bin.convert_segments --from units --frame-shift 0.02 <units.txt> <out>

Formats (s-malan's .list files, SD-HuBERT's per-utterance .npy dicts, unit sequences at a fixed
frame step) and their rules: termeval/segmentation/convert.py. The output appears whole or not
at all (termeval.run.driver.run_task); bad input is one line naming the file, exit 1.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from termeval.run.cli import options_of, parser_for, run
from termeval.segmentation.options import ConvertSegmentsOptions


def get_parser() -> argparse.ArgumentParser:
    return parser_for(ConvertSegmentsOptions, __doc__, prog="convert_segments.py")


def main(argv: Sequence[str] | None = None) -> int:
    parser = get_parser()
    opts = options_of(parser, parser.parse_args(argv))
    from termeval.run import driver                 # why: numpy, not for --help
    from termeval.segmentation import convert       # why: numpy, not for --help
    chunks = convert.convert_lines(opts.source_format, opts.source, opts.frame_shift, opts.allow_pickle,
                                   opts.centroids, opts.reducer)
    out_root, name = os.path.split(os.path.abspath(opts.output))

    def write(tmp: str) -> int:
        n = 0
        with open(os.path.join(tmp, name), "w", encoding="utf-8", newline="\n") as f:
            for text in chunks:
                f.write(text)
                n += text.count("\n")
        return n

    n = driver.run_task("convert_segments", out_root, [name], write, inputs=opts.paths("input"))
    print(f"convert_segments: {n} segments ({opts.source_format}) -> {opts.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
