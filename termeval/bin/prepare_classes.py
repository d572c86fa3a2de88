#!/usr/bin/env python3
"""Prepare a discovered-class file (ZeroSpeech TDE format) or a pairs file for scoring.

Usage: python -m termeval.bin.prepare_classes [options] <data-dir> <class-or-pairs-file> <exp-dir>
 e.g.: python -m termeval.bin.prepare_classes data/example data/local/example/classes/example.classes exp/example

Checks every fragment against <data-dir>/reco2dur and writes <exp-dir>/classes/
(segments, utt2class, class2utt, class_names, counts; discarded in lenient mode) and the
counts as <exp-dir>/scores/prepare. Strict by default: the first problem (unknown file ids,
onset >= offset, negative/NaN times, fragments more than --end-tolerance past the file end,
duplicate class ids, fragment lines outside a class) is a one-line error naming file and line,
and nothing is written. A fragment ending at most --end-tolerance (0.01 s) after its file's
end is clipped to that end and counted (fragments_clipped_to_end), as the reference tools
accept it. See termeval/classes/parse.py for the accepted syntax and the lenient actions.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from termeval.classes.components import PAIRS_CLUSTERINGS, pairs_to_components
from termeval.classes.parse import COUNT_NAMES, DEFAULT_END_TOLERANCE, DEFAULT_TOLERANCE, \
    parse_class_file, read_reco2dur, summary, write_class_dir
from termeval.run.cli import make_parser, nonneg_float, run, str2bool
from termeval.core.errors import InputError
from termeval.core.scores import Metric, write_scores


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help)."""
    p = make_parser(__doc__)
    p.add_argument("--lenient", type=str2bool, default=False,
                   help="drop/truncate bad fragments and count them instead of failing (default false)")
    p.add_argument("--format", choices=("auto", "class", "pairs"), default="auto",
                   help="input format (default: auto-detect from the first non-blank line)")
    p.add_argument("--tolerance", type=nonneg_float, default=DEFAULT_TOLERANCE,
                   help="seconds a fragment may end after the file end (default %(default)s)")
    p.add_argument("--end-tolerance", type=nonneg_float, default=DEFAULT_END_TOLERANCE,
                   help="a fragment ending at most this many seconds after its file's end is clipped "
                        "to the end and counted (fragments_clipped_to_end); default %(default)s, one "
                        "frame: submissions write 3 decimals where gold ends have 4")
    p.add_argument("--pairs-clustering", choices=PAIRS_CLUSTERINGS, default="pairs",
                   help="pairs files: one class per pair (pairs, the default) or the connected "
                        "components of the pairs graph as classes (components)")
    p.add_argument("data_dir")
    p.add_argument("class_file")
    p.add_argument("exp_dir")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    a = get_parser().parse_args(argv)
    if not os.path.isfile(a.class_file):
        raise InputError("no such class file", a.class_file)
    durations = read_reco2dur(a.data_dir)
    prep = parse_class_file(a.class_file, durations, lenient=a.lenient, fmt=a.format,
                            tolerance=a.tolerance, end_tolerance=a.end_tolerance)
    if a.pairs_clustering == "components":
        prep = pairs_to_components(prep)
    for note in prep.notes:
        print(f"{os.path.basename(sys.argv[0])}: note: {note}", file=sys.stderr)
    write_class_dir(prep, os.path.join(a.exp_dir, "classes"), lenient=a.lenient)
    write_scores(a.exp_dir, "prepare", [Metric(k, prep.counts[k]) for k in COUNT_NAMES],
                 benchmark=None)
    print(f"{os.path.basename(sys.argv[0])}: {a.class_file} -> {a.exp_dir}/classes: {summary(prep)}",
          file=sys.stderr)


if __name__ == "__main__":
    run(main)
