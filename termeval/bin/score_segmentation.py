#!/usr/bin/env python3
"""Score a word or phone segmentation: boundary P/R/F, OS, R-value, token P/R/F (with a time
tolerance), number of segments and clusters, purity, inverse purity, homogeneity,
completeness, V-measure, NMI, many-to-one and one-to-one mapping accuracy.

Usage (normally through steps/score_segmentation.sh):
  python -m termeval.bin.score_segmentation [options] <data-dir> <segmentation> <exp-dir>
      everything in one process
  ... --job J --nj N <data-dir> <segmentation> <exp-dir>
      statistics of the J-th share of the utterances -> <exp-dir>/<stage>/stats.J.json
  ... --merge N <data-dir> <segmentation> <exp-dir>
      add up stats.1..N.json -> <exp-dir>/scores/<stage>, scores.json, details/<stage>/
<stage> is `segmentation` (--level word) or `segmentation_phone` (--level phone); metric names are
prefixed `word_` or `phone_`, so they never collide with zrc2020's names in one exp dir). The segmentation is a ZeroSpeech class file, an interval file
`<utt-or-file> <onset> <offset> [<label>]` (seconds) or a directory of per-utterance
`<start> <end> <label>` files in frames (vqwordseg `intervals/`). Definitions and the
differences of --compat vqwordseg: docs/segmentation.md.
Always writes the per-unit statistics <exp-dir>/units/units.<stage>_file.npz (for
steps/compare_systems.sh); with --bootstrap N a percentile interval for every metric, resampling
recordings or speakers (--bootstrap-unit; docs/uncertainty.md).
"""
from __future__ import annotations

import json
import os
import sys
from typing import Sequence

from termeval.bootstrap.segmentation import ci_hook, reference_files
from termeval.cli import (
    add_bootstrap_options, add_job_options, make_parser, nonneg_float, positive_float, run)
from termeval.errors import InputError
from termeval.segmentation import checks
from termeval.segmentation.inputs import cut_tier, load_gold_tier, load_utterances, read_segmentation
from termeval.segmentation.report import merge, stage_name, write_report
from termeval.segmentation.stats import Settings, job_stats, split_utterances
from termeval.textio import atomic_write


def get_parser():
    p = make_parser(__doc__, prog="score_segmentation.py")
    p.add_argument("data_dir")
    p.add_argument("segmentation")
    p.add_argument("exp_dir")
    p.add_argument("--tolerance", type=nonneg_float, default=0.02, help="seconds (default 0.02)")
    p.add_argument("--frame-shift", type=positive_float, default=0.01, help="seconds per frame (default 0.01)")
    p.add_argument("--level", choices=["word", "phone"], default="word")
    p.add_argument("--compat", choices=["none", "vqwordseg"], default="none")
    p.add_argument("--segments", default="auto",
                   help="Kaldi segments file of the utterances; auto: <data-dir>/segments if present, "
                        "else whole files; none: whole files")
    add_job_options(p, "utterances", "<exp-dir>/<stage>/stats.J.json")
    add_bootstrap_options(p, "recordings or speakers")
    p.add_argument("--bootstrap-unit", choices=["file", "speaker"], default="file",
                   help="resampling unit: recordings or speakers (default file)")
    return p


def _segments_path(args) -> str | None:
    if args.segments == "none":
        return None
    if args.segments == "auto":
        p = os.path.join(args.data_dir, "segments")
        return p if os.path.isfile(p) else None
    return args.segments


def _stats_path(args, s: Settings, job: int) -> str:
    return os.path.join(args.exp_dir, stage_name(s), f"stats.{job}.json")


def compute(args, s: Settings, jobs: list[int]) -> list[dict]:
    checks.check_settings(s)
    gold, tier = load_gold_tier(args.data_dir, s.level)
    utts = load_utterances(gold, _segments_path(args))
    ref = cut_tier(tier, utts)
    pred = read_segmentation(args.segmentation, gold, utts, s.frame_shift, s.compat)
    shares = split_utterances(ref, pred, len(utts), args.nj)
    out = []
    for j in jobs:
        st = job_stats(ref, pred, utts, shares[j - 1], s)
        st["speakers"] = {u: utts.speaker[i] for i, u in enumerate(utts.ids)} if j == 1 else {}
        st["recos"] = {u: gold.files[int(utts.reco[i])] for i, u in enumerate(utts.ids)} if j == 1 else {}
        st["all_clusters"] = list(pred.labels) if j == 1 else []
        st["has_labels"] = bool(pred.labels)
        st["input_counts"] = pred.counts
        st["utterances"] = utts.source
        out.append(st)
    return out


def report(args, s: Settings, stats: list[dict]) -> None:
    m = merge(stats)
    first = stats[0]
    notes = [f"utterances: {'whole files' if first['utterances'] == 'files' else first['utterances']}"]
    if s.compat == "vqwordseg" and m["utts_skipped"]:
        notes.append(f"{m['utts_skipped']} utterances without reference or prediction skipped (as vqwordseg)")
    settings = {"tolerance": s.tolerance, "frame_shift": s.frame_shift, "level": s.level, "compat": s.compat}
    hook = ci_hook(args.exp_dir, stage_name(s), stats, m, settings,
                   reference_files(args.data_dir, _segments_path(args)), args.bootstrap, args.seed, args.ci,
                   args.bootstrap_unit)
    warnings = checks.warnings(s, args.segmentation, first["input_counts"])
    for w in warnings:
        print(f"{os.path.basename(sys.argv[0])}: warning: {w}", file=sys.stderr)
    metrics = write_report(args.exp_dir, m, s, first["speakers"], first["all_clusters"],
                           first["has_labels"], notes, dict(first["input_counts"]), hook, warnings)
    for x in metrics:
        print(f"{x.name} {x.value if x.value is not None else '-'}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    args = get_parser().parse_args(argv)
    s = Settings(args.tolerance, args.frame_shift, args.level, args.compat)
    checks.check_settings(s)
    if args.nj < 1:
        raise InputError(f"--nj must be >= 1, got {args.nj}")
    if args.bootstrap < 0 or not 0 < args.ci < 1:
        raise InputError(f"--bootstrap must be >= 0 and --ci in (0, 1), got {args.bootstrap} and {args.ci}")
    if args.merge is not None:
        stats = []
        for j in range(1, args.merge + 1):
            p = _stats_path(args, s, j)
            if not os.path.isfile(p):
                raise InputError(f"missing job statistics (did job {j} fail?)", p)
            with open(p, encoding="utf-8") as f:
                stats.append(json.load(f))
        report(args, s, stats)
        return 0
    if args.job is not None:
        if not 1 <= args.job <= args.nj:
            raise InputError(f"--job must be in 1..{args.nj}, got {args.job}")
        st = compute(args, s, [args.job])[0]
        path = _stats_path(args, s, args.job)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with atomic_write(path) as f:
            json.dump(st, f)
        return 0
    report(args, s, compute(args, s, list(range(1, args.nj + 1))))
    return 0


if __name__ == "__main__":
    run(main)
