"""Spoken term detection as a stage of the one job protocol (termeval.run.driver).

Units are terms, costed by their scored detections + references; a shard holds the aligned
pairs (global detection and reference indices) of a range of terms and the solver counts.
The merge concatenates them in term order, which is the alignment one process finds, and
score.finish computes every figure from it. --compat kaldi (compute-atwv's float32 running
means follow the whole keyword list) is one unit scored whole in the merge.
"""
from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any

import numpy as np

from termeval.core.options import split_number_list
from termeval.core.errors import InputError
from termeval.run.driver import Shard
from termeval.core.warn import warn

# What a run owns in the exp dir (STD details lie at the top of details/, next to QUESST's
# details/quesst/, and both stages merge their metrics into scores/scores.json).
OUTPUTS = ("scores/std", "scores/std_operating", "scores/scores.json", "scores/.summary",
           "details/per_term.tsv", "details/ranking_per_term.tsv", "details/det_points.tsv",
           "details/alignment.csv", "details/report.txt", "details/score.txt",
           "details/det.png", "details/det.pdf", "details/twv.png", "details/twv.pdf",
           "details/breakdown_*.tsv", "units/units.std_term.npz",
           # --f4de-reports; --compat kaldi's score.sh files (termeval.std.kaldi.report)
           "details/sum.txt", "details/bsum.txt", "details/results", "details/ntrue", "details/ntrue_raw",
           "details/per-category-score.txt", "scoring", "metrics.txt", "f4de")


class StdStage:
    name = "std"
    outputs = OUTPUTS
    updates = ("scores/scores.json",)

    def __init__(self) -> None:
        self.text = ""          # the summary report() leaves for summary()

    def load(self, args: Any) -> SimpleNamespace:
        for path in (args.kws_dir, args.detections):
            if not os.path.exists(path):
                raise InputError("not found", path)
        if not hasattr(args, "preset_given"):   # --preset unset: sws2013, or compute-atwv's own costs
            args.preset_given, args.preset = args.preset is not None, args.preset or "sws2013"
        ctx = SimpleNamespace(args=args, kaldi=args.compat == "kaldi", prep=None)
        if ctx.kaldi:
            from termeval.std.kaldi import report as kaldi_report   # score.sh's options and categories checked
            kaldi_report.check(args)
            return ctx
        from termeval.std import breakdown
        from termeval.std.detections import read_detections
        from termeval.std.kwsdir import load_kws_dir
        from termeval.std.score import Params, prepare
        from termeval.std.termlist import parse_term_attr
        term_attr = parse_term_attr(args.term_attr) if args.term_attr else None
        params = Params(preset=args.preset, p_target=args.p_target, c_miss=args.c_miss, c_fa=args.c_fa,
                        trials_per_sec=args.trials_per_sec, include_notarget_terms=args.include_notarget_terms,
                        align=args.align, tolerance=args.tolerance, compat_f4de=args.compat == "f4de",
                        cmin=args.cmin, default_score=args.default_score,
                        decision_threshold=args.decision_threshold, term_attr=term_attr,
                        source_types=args.source_type.split(",") if args.source_type else None)
        ctx.kinds = breakdown.parse_kinds(args.breakdown, args.lexicon is not None)
        ctx.bins = breakdown.parse_bins(args.freq_bins)
        ctx.lexicon = breakdown.read_lexicon(args.lexicon) if args.lexicon else None
        if "phones" in ctx.kinds:   # pronunciations needed: a Kaldi lexicon.txt, strictly read
            from termeval.std.lexicon import read_lexicon
            ctx.lexicon = read_lexicon(args.lexicon)
        # checked by the parser (cli.number_list)
        ctx.fa_per_hour = split_number_list(args.fa_per_hour)
        ctx.recalls = split_number_list(args.recall)
        ctx.p_at = tuple(split_number_list(args.p_at, integer=True))
        kws = load_kws_dir(args.kws_dir, args.ecf, args.rttm, args.termlist)
        breakdown.check_attributes(ctx.kinds, kws.terms.attrs, kws.terms.path or None)
        dets = read_detections(args.detections, args.format, kws.frame_length, kws.utt_map, kws.segments)
        ctx.prep = prepare(kws, dets, params)
        return ctx

    def identity(self, ctx: SimpleNamespace) -> dict:
        if ctx.kaldi:
            return {"compat": "kaldi"}
        prep = ctx.prep
        return {"n_terms": prep.n_terms, "n_scored_detections": int(len(prep.di)),
                "n_scored_references": int(len(prep.ri)), "align": prep.params.align,
                "tolerance": prep.params.tolerance}

    def costs(self, ctx: SimpleNamespace) -> np.ndarray:
        if ctx.kaldi:
            return np.zeros(1)
        prep = ctx.prep
        q = prep.n_terms
        return (np.bincount(prep.dterm[prep.di], minlength=q)
                + np.bincount(prep.kws.occ.term[prep.ri], minlength=q)).astype(np.float64)

    def compute(self, ctx: SimpleNamespace, lo: int, hi: int) -> Shard:
        if ctx.kaldi:
            return Shard()
        from termeval.std.score import align_terms
        ali = align_terms(ctx.prep, lo, hi)
        return Shard({"stats": ali.stats}, {"det": ali.det, "ref": ali.ref})

    def merge(self, ctx: SimpleNamespace, shards: list[Shard]) -> Any:
        """The StdResult of all terms (the KaldiTwv with --compat kaldi); the solver counts are
        summed (`*_max_size`: the maximum), as one process finds them."""
        a = ctx.args
        if ctx.kaldi:
            from termeval.std.kaldi import report as kaldi_report   # compute-atwv, with score.sh's KST/nbest/sweep
            return kaldi_report.compute(a)
        from termeval.std.score import Alignment, finish
        stats: dict = {}
        for s in shards:
            for k, v in s.meta["stats"].items():
                stats[k] = max(stats.get(k, 0), v) if k.endswith("_max_size") else stats.get(k, 0) + v
        ali = Alignment(np.concatenate([s.arrays["det"] for s in shards]).astype(np.int64),
                        np.concatenate([s.arrays["ref"] for s in shards]).astype(np.int64), stats)
        res = finish(ctx.prep, ali)
        for w in res.warnings:
            warn(None, w)
        return res

    def report(self, ctx: SimpleNamespace, merged: Any, out: str) -> dict:
        from termeval.std import report
        if ctx.kaldi:
            result, self.text = report.write_kaldi(out, merged, ctx.args)
        else:
            result, self.text = report.write(out, ctx, merged)
        return result

    def summary(self, result: dict) -> str:
        return self.text
