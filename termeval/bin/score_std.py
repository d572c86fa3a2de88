#!/usr/bin/env python3
"""Score a spoken term detection system (STD / QbE-STD / KWS) the way MediaEval SWS 2013 and
NIST F4DE KWSEval do: ATWV, MTWV (+threshold), OTWV, STWV, Pmiss/Pfa, Cnxe, Cmin_nxe, counts,
per-term table, alignment CSV, DET points and plots.

Usage: python -m termeval.bin.score_std [options] <kws-data-dir> <detections> <exp-dir>

<kws-data-dir>: ecf.xml + rttm + tlist.xml|kwlist.xml, or Kaldi hitlist (+ utt.map,
  segments, frame_length, utt2dur|reco2dur|trials, keywords.txt).
<detections>: STDLIST or KWSLIST XML, or Kaldi text `kwid utt start end score` (auto-detected).
Writes <exp-dir>/scores/std, <exp-dir>/scores/std_operating (FA/hour at recall, recall at
FA/hour, MAP, F4DE's MAP, mean P@N, mean R-precision), <exp-dir>/scores/scores.json (with the
per-group headline values under "breakdowns" -> "std") and <exp-dir>/details/ (per_term.tsv,
ranking_per_term.tsv, breakdown_<kind>.tsv, ...). Definitions: docs/std-metrics.md. Also writes the per-term statistics units/units.std_term.npz
(steps/compare_systems.sh); with --bootstrap N, percentile intervals of ATWV/MTWV/OTWV over
terms (docs/uncertainty.md).

Jobs (steps/score_std.sh --nj N; termeval.run.driver): `--nj N --job J` aligns only job J's range
of terms (ranges balanced by detections) into <exp-dir>/jobs/std.J.npz; `--merge N` then
scores from the N alignments; the output is identical to a single run. --compat kaldi is
scored whole in the merge: compute-atwv's float32 running means follow the whole list.
The options: termeval/std/options.py; the stage and its report: termeval/std/stage.py,
termeval/std/report.py.
"""
from __future__ import annotations

import argparse
from typing import Sequence

from termeval.run.cli import add_job_options, parser_for, run, stage_main
from termeval.std.options import StdOptions


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): StdOptions, plus the driver's --job/--merge."""
    p = parser_for(StdOptions, __doc__)
    add_job_options(p, "terms")
    return p


def stage_of(opts: StdOptions) -> "termeval.core.stage.Stage":
    from termeval.std.stage import StdStage    # numpy, defusedxml: not for --help
    return StdStage()


def main(argv: Sequence[str] | None = None) -> int:
    return stage_main(get_parser, stage_of, argv)


if __name__ == "__main__":
    run(main)
