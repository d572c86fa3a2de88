#!/usr/bin/env python3
"""Score a word or phone segmentation: boundary P/R/F, OS, R-value, token P/R/F (with a time
tolerance), number of segments and clusters, purity, inverse purity, homogeneity,
completeness, V-measure, NMI, many-to-one and one-to-one mapping accuracy.

Usage (normally through steps/score_segmentation.sh):
  python -m termeval.bin.score_segmentation [options] <data-dir> <segmentation> <exp-dir>
      everything in one process
  ... --job J --nj N <data-dir> <segmentation> <exp-dir>
      statistics of the J-th share of the utterances -> <exp-dir>/jobs/<stage>.J.npz
  ... --merge N <data-dir> <segmentation> <exp-dir>
      add up the N shards -> <exp-dir>/scores/<stage>, scores.json, details/<stage>/
<stage> is `segmentation` (--level word), `segmentation_phone` or `segmentation_syllable`; metric names are
prefixed `word_`, `phone_` or `syllable_`, so they never collide with zrc2020's names in one exp dir). The segmentation is a ZeroSpeech class file, an interval file
`<utt-or-file> <onset> <offset> [<label>]` (seconds) or a directory of per-utterance
`<start> <end> <label>` files in frames (vqwordseg `intervals/`). Definitions and the
differences of --compat vqwordseg: docs/segmentation.md.
Always writes the per-unit statistics <exp-dir>/units/units.<stage>_file.npz (for
steps/compare_systems.sh); with --bootstrap N a percentile interval for every metric, resampling
recordings or speakers (--bootstrap-unit; docs/uncertainty.md). The scores are printed on
stdout, each line prefixed with `<stage>: `. The stage: termeval/segmentation/stage.py.
"""
from __future__ import annotations

import argparse
from typing import Sequence

from termeval.run.cli import add_job_options, parser_for, run, stage_main
from termeval.segmentation.options import SegmentationOptions


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): SegmentationOptions, plus the driver's --job/--merge."""
    p = parser_for(SegmentationOptions, __doc__, prog="score_segmentation.py")
    add_job_options(p, "utterances")
    p.add_argument("--print-stage-name", action="store_true",
                   help="print the stage's name for these options (segmentation, or segmentation_<level> with "
                        "--level phone or syllable: the name of its logs and shards) and stop")
    return p


def stage_of(opts: SegmentationOptions) -> "termeval.core.stage.Stage":
    from termeval.segmentation.stage import SegmentationStage, settings_of   # numpy, scipy: not for --help
    return SegmentationStage(settings_of(opts))


def main(argv: Sequence[str] | None = None) -> int:
    return stage_main(get_parser, stage_of, argv)


if __name__ == "__main__":
    run(main)
