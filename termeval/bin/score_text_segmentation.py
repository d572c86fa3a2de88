#!/usr/bin/env python3
"""Score a word segmentation of text as wordseg-eval (bootphon/wordseg) does: token, type,
boundary_all and boundary_noedge precision/recall/F, the adjusted Rand index (--prepared) and
the over/under/mis-segmentation summary per gold word type (--summary).

Usage (normally through steps/score_text_segmentation.sh):
  python -m termeval.bin.score_text_segmentation [options] <gold.txt> <segmented.txt> <exp-dir>
One utterance per line, words separated by spaces (--word-sep), the units of a word written
together or separated by --unit-sep. Prints wordseg-eval's `name<TAB>value` lines (%.4g, None
when undefined) on stdout and writes <exp-dir>/scores/{wordseg_eval.txt,text_segmentation,
scores.json} and <exp-dir>/details/text_segmentation/. Definitions: docs/text-segmentation.md.
"""
from __future__ import annotations

from typing import Any, Sequence

from termeval.run import driver as jobs
from termeval.run.cli import add_job_options, make_parser, run
from termeval.textseg.stage import TextSegmentationStage, prepare_args


def get_parser():
    p = make_parser(__doc__, prog="score_text_segmentation.py")
    p.add_argument("gold")
    p.add_argument("segmented")
    p.add_argument("exp_dir")
    p.add_argument("--compat", choices=["none", "wordseg"], default="none",
                   help="wordseg: blank lines dropped from each file independently, its `_` "
                        "placeholder in the type counts (default none)")
    p.add_argument("--prepared", default=None,
                   help="the prepared text (units separated by spaces, one utterance a line): "
                        "adds adjusted_rand_index and checks words end at unit edges")
    p.add_argument("--summary", default=None, help="write the over/under/mis-segmentation summary (JSON) here")
    p.add_argument("--word-sep", default=None, help="word separator (default: spaces)")
    p.add_argument("--unit-sep", default=None,
                   help="separator of the units inside a word (e.g. '-', or 'space' with "
                        "--word-sep ';eword'); default none: units written together")
    add_job_options(p, "utterances")
    return p


def stage_of(args: Any) -> TextSegmentationStage:
    """The Stage of this step (termeval.run.driver; the `termeval` command and the API run it)."""
    return TextSegmentationStage()


def main(argv: Sequence[str] | None = None) -> int:
    args = get_parser().parse_args(argv)
    jobs.run_from_args(stage_of(args), prepare_args(args))
    return 0


if __name__ == "__main__":
    run(main)
