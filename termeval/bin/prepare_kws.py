#!/usr/bin/env python3
"""Build a keyword-search data dir (ecf.xml, rttm, kwlist.xml, hitlist, utt.map, trials,
keywords.txt, categories, frame_length) from word alignments and a keyword list, for
steps/score_std.sh (both modes), Kaldi's local/kws/score.sh and F4DE's KWSEval.

Usage: python -m termeval.bin.prepare_kws [options] <data-dir> <kws-dir>
 e.g.: python -m termeval.bin.prepare_kws --keywords keywords.txt data/example data/example/kws

<data-dir>: a termeval data dir (`words`, `utt2spk`, `reco2dur`: steps/prepare_gold.sh), or a
  Kaldi data dir with a word CTM (`ctm` in it, or --ctm) plus segments/utt2dur/reco2dur/utt2spk.
Keywords: --keywords FILE (`kwid word ...` lines, or a plain list of single words which get ids
  KW-0001, ...) or --kwlist KWLIST/TLIST XML. Multi-word keywords occur where F4DE finds them:
  successive words of the same speaker at most 0.5 s apart. A keyword that never occurs is kept
  (F4DE and compute-atwv leave it out of the averages) and listed in a warning.
The kws dir is written whole beside its old one and replaces it (termeval.run.driver.run_task);
a kws dir that is, or holds, an input (the data dir) is refused.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from termeval.kws.options import PrepareKwsOptions
from termeval.run.cli import options_of, parser_for, run
from termeval.core.warn import warn


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): PrepareKwsOptions."""
    return parser_for(PrepareKwsOptions, __doc__)


def main(argv: Sequence[str] | None = None) -> int:
    parser = get_parser()
    opts = options_of(parser, parser.parse_args(argv))
    from termeval.kws import prepare      # numpy, defusedxml: not for --help
    from termeval.run import driver       # numpy: not for --help
    out_root, outputs, write = prepare.task(opts)
    summary = driver.run_task("prepare_kws", out_root, outputs, write, inputs=opts.paths("input"), lock=False)
    prog = os.path.basename(sys.argv[0])
    warnings, line = prepare.messages(summary)
    for w in warnings:
        warn(prog, w)
    print(f"{prog}: {line} -> {opts.kws_dir}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
