#!/usr/bin/env python3
"""Score a ZeroSpeech `zrc` TDE17 submission directory (zerospeech-benchmarks 0.9.4's layout:
<lang>.txt class files, meta.yaml, params.yaml) with termeval's zrc2020 (tdev2) metrics.

Usage (normally through steps/score_zrc_submission.sh):
  python -m termeval.bin.score_zrc_submission [options] <submission-dir>
  python -m termeval.bin.score_zrc_submission --init <submission-dir>
A new submission: --init <dir> writes <dir>/meta.yaml (every field of zrc 0.9.4's tde17
template, each "<...>" placeholder to replace: scoring refuses one left, one error line per
field) and <dir>/params.yaml (zrc's defaults), never overwriting either; copy the class files
to <dir>/<lang>.txt (english, french, mandarin, german, wolof); fill in meta.yaml; score <dir>.
Writes <submission-dir>/scores/scores.json (zrc's file, field for field),
scores/leaderboard.json (zrc's TDE17 leaderboard entry), scores/termeval/<lang>/ (termeval's
full score dirs, with the gold data dir), scores/termeval/run.json (gold used, wall time per
language) and prints languages x headline metrics (percent) on stdout.
The options: termeval/zrc/options.py (ZrcOptions); the work: termeval/zrc/step.py.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from termeval.core.errors import InputError
from termeval.run.cli import options_of, parser_for, run
from termeval.zrc.options import ZrcOptions
from termeval.zrc.submission import MetaErrors
from termeval.zrc.template import init_submission


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): ZrcOptions."""
    return parser_for(ZrcOptions, __doc__, prog="score_zrc_submission.py")


def main(argv: Sequence[str] | None = None) -> int:
    parser = get_parser()
    opts = options_of(parser, parser.parse_args(argv))
    if opts.init is not None:
        for path in init_submission(opts.init):
            print(f"score_zrc_submission: wrote {path}", file=sys.stderr)
        print(f"score_zrc_submission: next: fill in {os.path.join(opts.init, 'meta.yaml')} (every <...> value), "
              f"copy the class files to {os.path.join(opts.init, '<lang>.txt')}, then score {opts.init}",
              file=sys.stderr)
        return 0
    from termeval.zrc.step import score_directory     # numpy: not for --help
    try:
        _, table = score_directory(opts)
    except MetaErrors as e:
        prog = os.path.basename(sys.argv[0])
        for line in e.lines[:-1]:
            print(f"{prog}: error: {line}", file=sys.stderr)
        raise InputError(e.lines[-1]) from None
    sys.stdout.write(table)
    print(f"score_zrc_submission: scores in {os.path.join(opts.submission_dir, 'scores')} "
          "(scores.json, leaderboard.json, termeval/<lang>/)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
