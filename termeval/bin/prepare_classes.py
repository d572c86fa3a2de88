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
The options: termeval/classes/options.py (ClassesOptions). classes/ and scores/prepare are
replaced whole (termeval.run.driver.run_task), scores/scores.json updated.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from termeval.classes import prepare
from termeval.classes.options import ClassesOptions
from termeval.classes.parse import summary
from termeval.run import driver
from termeval.run.cli import options_of, parser_for, run


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): ClassesOptions."""
    return parser_for(ClassesOptions, __doc__)


def main(argv: Sequence[str] | None = None) -> int:
    p = get_parser()
    a = options_of(p, p.parse_args(argv))
    prep = prepare.parse(a)
    for note in prep.notes:
        print(f"{os.path.basename(sys.argv[0])}: note: {note}", file=sys.stderr)
    driver.run_task("prepare_classes", *prepare.task(a, prep), inputs=[a.data_dir, a.class_file])
    print(f"{os.path.basename(sys.argv[0])}: {a.class_file} -> {a.exp_dir}/classes: {summary(prep)}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
