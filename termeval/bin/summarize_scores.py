#!/usr/bin/env python3
"""Build RESULTS.md (or a csv, tsv, LaTeX or JSON table): one table per benchmark over every
scores/scores.json found.

Usage: python -m termeval.bin.summarize_scores [options] <exp-root> [<exp-root> ...]
 e.g.: python -m termeval.bin.summarize_scores --out RESULTS.md exp
       python -m termeval.bin.summarize_scores --format latex --percent true --bold-best true exp
       python -m termeval.bin.summarize_scores --format csv --out results.csv exp   (pandas.read_csv)

Finds `scores/scores.json` at any depth below each <exp-root> (termeval's `exp/<sys>/`, Kaldi's
`exp/tri3/decode_dev/kws_10/`, ESPnet's `exp/asr_*/decode_*/...`); the system is the path of
the directory holding `scores/`, relative to its <exp-root>. One table per benchmark (zrc2020,
zr2015, zr2017, each STD operating point, quesst, resources, segmentation, ...) with at most
ten headline metrics; every other value stays in the score files. Values have 4 decimals
(counts as integers, '-' where undefined), followed by the confidence interval `[lo, hi]` when
the system was scored with --bootstrap. Each row names the data dir it was scored on (`data`:
the short name from the scoring command, `@` the first digits of scores.json's data_id, the
content digest of the gold), so rows of different corpora are not read as one table; the
warnings recorded in a system's scores.json are a footnote (md, latex) or a `warnings` column
(csv, tsv, json). --percent true multiplies F-scores, precisions, recalls, coverage and NED
(and their _std) by 100; counts, TWV, Cnxe and every other metric stay as they are. csv and
tsv: one row per table and system (columns table, system, data, data_id, the metrics,
<metric>_lo/<metric>_hi for intervals, warnings), every digit kept unless --digits. Tables
come in a fixed order: zrc2020, zr2015, zr2017, std, quesst, resources, segmentation, then any
other benchmark. Lower is better for ned and
cnxe; higher is better for everything else. A scores.json that is not valid JSON (a truncated
file) or not a JSON object (a list) is an error: one line naming the file, exit 1, and
nothing is written (a table silently missing a system would read as complete). A
directory that cannot be listed, or a scores.json holding no scored stage (prepare_classes'
own), is left out with one warning line on stderr naming it and why. The options:
termeval/results/options.py (SummarizeOptions); the tables: termeval/results/summary.py, the
formats: termeval/results/formats.py.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from termeval.results import formats, summary
from termeval.results.options import SummarizeOptions
from termeval.run.cli import options_of, parser_for, run


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): SummarizeOptions."""
    return parser_for(SummarizeOptions, __doc__, prog="summarize_scores")


def main(argv: Sequence[str] | None = None) -> None:
    def _main(args: Sequence[str]) -> int:
        parser = get_parser()
        opts = options_of(parser, parser.parse_args(args))
        from termeval.run import driver     # the lock, the guard, tempfile, threading: not for --help
        out = opts.out or formats.default_out(opts)
        base = os.path.dirname(os.path.abspath(out)) if out not in (None, "-") else "."
        text = formats.render(summary.collect(opts.roots), opts, base)
        if out is None or out == "-":
            sys.stdout.write(text)
            return 0
        driver.run_task("summarize_scores", *summary.task(out, text), inputs=summary.inputs(opts.roots),
                         lock=False)
        print(f"summarize_scores: wrote {out}", file=sys.stderr)
        return 0
    run(_main, argv)


if __name__ == "__main__":
    main()
