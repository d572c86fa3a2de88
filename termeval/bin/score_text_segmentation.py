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
--summary FILE: the output guard refuses it when it is an input; inside the exp dir it is
published with the scores (termeval/textseg/stage.py).
"""
from __future__ import annotations

import argparse
from typing import Sequence

from termeval.run.cli import add_job_options, parser_for, run, stage_main
from termeval.textseg.options import TextSegmentationOptions


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): TextSegmentationOptions, plus the driver's --job/--merge."""
    p = parser_for(TextSegmentationOptions, __doc__, prog="score_text_segmentation.py")
    add_job_options(p, "utterances")
    return p


def stage_of(opts: TextSegmentationOptions) -> "termeval.core.stage.Stage":
    """The Stage of this step (termeval.run.driver; the `termeval` command and the API run it)."""
    from termeval.textseg.stage import TextSegmentationStage   # numpy: not for --help
    return TextSegmentationStage(opts)


def main(argv: Sequence[str] | None = None) -> int:
    return stage_main(get_parser, stage_of, argv)


if __name__ == "__main__":
    run(main)
