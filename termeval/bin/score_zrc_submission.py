#!/usr/bin/env python3
"""Score a ZeroSpeech `zrc` TDE17 submission directory (zerospeech-benchmarks 0.9.4's layout:
<lang>.txt class files, meta.yaml, params.yaml) with termeval's zrc2020 (tdev2) metrics.

Usage (normally through steps/score_zrc_submission.sh):
  python -m termeval.bin.score_zrc_submission [options] <submission-dir>
Writes <submission-dir>/scores/scores.json (zrc's file, field for field),
scores/leaderboard.json (zrc's TDE17 leaderboard entry), scores/termeval/<lang>/ (termeval's
full score dirs, with the gold data dir), scores/termeval/run.json (gold used, wall time per
language) and prints languages x headline metrics (percent) on stdout.
"""
from __future__ import annotations

import os
import sys
from typing import Sequence

from termeval.run.cli import make_parser, positive_int, resample_count, run, str2bool
from termeval.core.errors import InputError
from termeval.zrc.score import score_submission
from termeval.zrc.submission import LANGUAGES, MetaErrors, read_submission


def get_parser():
    p = make_parser(__doc__, prog="score_zrc_submission.py")
    p.add_argument("submission_dir")
    p.add_argument("--zrc-dataset", default=None,
                   help="zrc dataset dir with index.json (default $APP_DIR/datasets/zrc2017-test-dataset, "
                        "APP_DIR default ~/zr-data)")
    p.add_argument("--languages", default=None,
                   help=f"comma-separated subset of {','.join(LANGUAGES)} (default: every <lang>.txt present)")
    p.add_argument("--nj", type=positive_int, default=None, help="jobs per language (default: params.yaml njobs, else 1)")
    p.add_argument("--bootstrap", type=resample_count, default=0,
                   help="bootstrap resamples (termeval's scores; default 0, at most 100000)")
    p.add_argument("--partial", type=str2bool, default=False,
                   help="true: score the languages there, a warning per missing or empty class file "
                        "(default false: refused, as zrc 0.9.4 does)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = get_parser().parse_args(argv)
    langs = [l for l in args.languages.replace(" ", ",").split(",") if l] if args.languages else None
    try:
        sub = read_submission(args.submission_dir, langs, args.partial)
    except MetaErrors as e:
        prog = os.path.basename(sys.argv[0])
        for line in e.lines[:-1]:
            print(f"{prog}: error: {line}", file=sys.stderr)
        raise InputError(e.lines[-1]) from None
    for w in sub.warnings:
        print(f"score_zrc_submission: warning: {w}", file=sys.stderr)
    nj = args.nj or int(sub.params.get("njobs", 1))
    _, _, table = score_submission(sub, args.zrc_dataset, nj, args.bootstrap)
    sys.stdout.write(table)
    print(f"score_zrc_submission: scores in {os.path.join(args.submission_dir, 'scores')} "
          "(scores.json, leaderboard.json, termeval/<lang>/)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
