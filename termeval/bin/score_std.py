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
The stage and its report: termeval/std/stage.py, termeval/std/report.py.
"""
from __future__ import annotations

import argparse
from typing import Sequence

from termeval.run.cli import (
    add_bootstrap_options, add_check, add_job_options, finite_float, make_parser, nonneg_float,
    number_list, open_prob, positive_float, run, stage_main, str2bool)
from termeval.std.termlist import term_attr_option


def get_parser() -> argparse.ArgumentParser:
    p = make_parser(__doc__)
    p.add_argument("kws_dir")
    p.add_argument("detections")
    p.add_argument("exp_dir")
    p.add_argument("--preset", default=None, choices=["sws2013", "nist2006", "sws2012", "quesst"],
                   help="operating point (default sws2013; --compat kaldi: compute-atwv's own unless given)")
    p.add_argument("--p-target", type=open_prob, default=None)
    p.add_argument("--c-miss", type=positive_float, default=None)
    p.add_argument("--c-fa", type=positive_float, default=None)
    p.add_argument("--trials-per-sec", type=positive_float, default=1.0)
    p.add_argument("--include-notarget-terms", type=str2bool, default=False)
    p.add_argument("--align", default="f4de", choices=["f4de", "kaldi"])
    p.add_argument("--tolerance", type=nonneg_float, default=0.5)
    p.add_argument("--compat", default="none", choices=["none", "f4de", "kaldi"],
                   help="f4de: F4DE KWSEval's rules; kaldi: compute-atwv's numbers (docs/std-kaldi-compat.md)")
    p.add_argument("--cmin", default="newton", choices=["newton", "pav"])
    p.add_argument("--default-score", type=finite_float, default=None)
    p.add_argument("--decision-threshold", type=finite_float, default=0.5)
    p.add_argument("--format", default="auto", choices=["auto", "stdlist", "kwslist", "kaldi"])
    p.add_argument("--ecf", default=None, help="override <kws-data-dir>/ecf.xml")
    p.add_argument("--rttm", default=None, help="override <kws-data-dir>/rttm")
    p.add_argument("--termlist", default=None, help="override tlist.xml/kwlist.xml")
    p.add_argument("--term-attr", default=None, type=term_attr_option, help="NAME:REGEX, score only terms whose attribute matches (F4DE -q)")
    p.add_argument("--source-type", default=None, help="comma-separated ECF source types to score (F4DE -Y)")
    p.add_argument("--write-alignment", type=str2bool, default=True)
    p.add_argument("--plots", type=str2bool, default=True)
    p.add_argument("--breakdown", default="",
                   help="comma list of attr:NAME, ngram, freq, oov, phones (default mode), "
                        "categories:FILE (--compat kaldi); 'none' for no breakdown "
                        "(default: ngram,freq, plus oov when --lexicon is given)")
    p.add_argument("--lexicon", default=None,
                   help="words.txt (oov breakdown) or lexicon.txt (phones breakdown, first pronunciation)")
    p.add_argument("--freq-bins", default="1,2,5,10", help="lower edges of the reference-count bins")
    p.add_argument("--fa-per-hour", default="1,10", type=number_list(0.0), help="report recall at these FA/hour (comma list)")
    p.add_argument("--recall", default="0.5", type=number_list(0.0, 1.0), help="report FA/hour at these recalls (comma list)")
    p.add_argument("--p-at", default="10", type=number_list(1, integer=True), help="report mean precision at these ranks (comma list)")
    p.add_argument("--kst", type=str2bool, default=False,
                   help="--compat kaldi: results hold costs -ln(p); keyword-specific thresholding "
                        "as Kaldi's normalize_results_kst.pl")
    p.add_argument("--ntrue-scale", default="", help="KST ntrue scale (default 1.0), or 'auto': score.sh's sweep")
    p.add_argument("--nbest", default="", help="--compat kaldi: filter_kws_results.pl --probs --nbest N")
    p.add_argument("--f4de-reports", type=str2bool, default=False,
                   help="write sum.txt and bsum.txt in F4DE KWSEval's text layout: in details/, or in "
                        "f4de/ with --compat kaldi")
    add_bootstrap_options(p, "terms")
    add_job_options(p, "terms")
    from termeval.std.kaldi.atwv import check_options   # combinations of options, at parse time
    add_check(p, check_options)
    return p


def stage_of(args: argparse.Namespace) -> "termeval.run.driver.Stage":
    from termeval.std.stage import StdStage
    return StdStage()


def main(argv: Sequence[str] | None = None) -> int:
    return stage_main(get_parser, stage_of, argv)


if __name__ == "__main__":
    run(main)
