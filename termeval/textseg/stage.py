"""The text segmentation Stage (termeval.run.driver protocol): wordseg-eval's measures over
utterances (lines), additive per utterance range; lexicons and the summary merged by union/sum.

The --summary file is an output like scores/ and details/: the output guard refuses it when it
is an input, and any input inside <exp>/scores or <exp>/details; inside the exp dir it is
written into the run's output directory and published with the scores (so
`--summary <exp>/scores/summary.json` survives the publish of scores/), elsewhere it is
replaced atomically when the report is written."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from termeval.core import guard
from termeval.core.errors import InputError
from termeval.core.stage import Report, Shard, Stage, View
from termeval.textseg import positions, rand, summary
from termeval.textseg.options import TextSegmentationOptions, separator
from termeval.textseg.report import write_report
from termeval.textseg.text import Text, check_unit_edges, pair_lines, read_prepared, read_text

STEP = "score_text_segmentation"
OUTPUTS = ("scores", "details")


@dataclass
class Context:
    gold: Text
    seg: Text
    units: list[list[str]] | None     # units of each utterance (prepared text or --unit-sep)
    has_prepared: bool
    compat: str
    args: TextSegmentationOptions
    summary_wanted: bool              # the summary is computed (--summary, or an exp dir's details)


def summary_in_exp(opts: Any) -> str | None:
    """The --summary file relative to the exp dir when it lies inside it, else None."""
    if not opts.summary or not opts.exp_dir:
        return None
    exp, path = os.path.realpath(opts.exp_dir), os.path.realpath(opts.summary)
    return os.path.relpath(path, exp) if path.startswith(exp.rstrip(os.sep) + os.sep) else None


class TextSegmentationStage(Stage):
    """The stage of `opts`: a --summary file inside the exp dir is one of the outputs the run
    publishes (inside scores/ or details/, with them)."""
    name = "text_segmentation"

    def __init__(self, opts: Any) -> None:
        rel = summary_in_exp(opts)
        extra = rel is not None and rel.split(os.sep)[0] not in OUTPUTS
        self.outputs = OUTPUTS + ((rel,) if extra else ())

    def load(self, args: TextSegmentationOptions) -> Context:
        check_outputs(args)
        compat = args.compat
        wsep, usep = separator(args.word_sep), separator(args.unit_sep)
        keep = compat != "wordseg"
        gold = read_text(args.gold, compat, wsep, usep, keep_blank=keep)
        seg = read_text(args.segmented, compat, wsep, usep, keep_blank=keep)
        gold, seg = pair_lines(gold, seg, compat)
        units = gold.units
        has_prepared = bool(args.prepared)
        if has_prepared:
            prep = read_prepared(args.prepared)
            if len(prep.units) != len(gold.words):
                raise InputError(f"{len(prep.units)} utterances (non-blank lines), the gold {gold.path} "
                                 f"has {len(gold.words)}", prep.path)
            for i, (u, g) in enumerate(zip(prep.units, gold.words)):
                if "".join(u) != "".join(g):
                    raise InputError(f"the units do not spell the gold words of {gold.path}:{gold.lines[i]}",
                                     prep.path, prep.lines[i])
                if units is not None and units[i] != u:
                    raise InputError(f"the units differ from those of the gold ({gold.path}:{gold.lines[i]})",
                                     prep.path, prep.lines[i])
            units = prep.units
        if units is not None:
            src = args.prepared if has_prepared else "the gold"
            for i in range(len(gold.words)):
                check_unit_edges(gold, i, units[i], src)
                check_unit_edges(seg, i, units[i], src)
        if not gold.words:
            raise InputError("no utterance (the text is empty)", gold.path)
        return Context(gold, seg, units, has_prepared, compat, args, bool(args.summary or args.exp_dir))

    def identity(self, ctx: Context) -> dict:
        return {"utterances": len(ctx.gold.words), "compat": ctx.compat, "prepared": ctx.has_prepared,
                "gold_words": sum(len(w) for w in ctx.gold.words),
                "segmented_words": sum(len(w) for w in ctx.seg.words)}

    def costs(self, ctx: Context) -> np.ndarray:
        return np.array([len(g) + len(s) for g, s in zip(ctx.gold.words, ctx.seg.words)], np.float64)

    def compute(self, ctx: Context, lo: int, hi: int) -> Shard:
        seg, gold = ctx.seg.words[lo:hi], ctx.gold.words[lo:hi]
        arrays = {"counts": positions.counts(seg, gold).reshape(-1, len(positions.COLUMNS))}
        if ctx.has_prepared:
            sums = np.zeros((hi - lo, len(rand.COLUMNS)), np.int64)
            for k, i in enumerate(range(lo, hi)):
                gl = rand.unit_counts(ctx.gold.words[i], ctx.units[i])    # whole units: checked by load
                sl = rand.unit_counts(ctx.seg.words[i], ctx.units[i])
                sums[k] = rand.utterance_sums(gl, sl)
            arrays["rand"] = sums
        summ = summary.summarize(seg, gold) if ctx.summary_wanted else {}
        meta = {"seg_lexicon": sorted({w for u in seg for w in u}),
                "gold_lexicon": sorted({w for u in gold for w in u}),
                "summary": {c: dict(v) for c, v in summ.items()}}
        return Shard(meta, arrays)

    def merge(self, ctx: Context, shards: list[Shard]) -> dict:
        merged = {"counts": np.concatenate([s.arrays["counts"] for s in shards]),
                  "seg_lexicon": set().union(*(s.meta["seg_lexicon"] for s in shards)),
                  "gold_lexicon": set().union(*(s.meta["gold_lexicon"] for s in shards)),
                  "summary": summary.merge([s.meta["summary"] for s in shards])}
        if ctx.has_prepared:
            merged["rand"] = np.concatenate([s.arrays["rand"] for s in shards])
        return merged

    def report(self, ctx: Context, merged: dict, out: str) -> Report:
        rel = summary_in_exp(ctx.args)
        path = os.path.join(out, rel) if rel is not None else ctx.args.summary
        result = write_report(ctx, merged, out, path)
        return Report(result, result.get("wordseg_eval", ""))

    def view(self, ctx: Context, merged: dict, report: Report) -> View:
        """report.html's tables (no timeline: the units are text)."""
        return View("Text segmentation (wordseg-eval)", VIEW_TABLES)


VIEW_TABLES = (("Per utterance", "details/text_segmentation/per_utterance.tsv"),
               ("Over-, under- and mis-segmentations per gold word type", "details/text_segmentation/summary.tsv"))


def check_outputs(opts: TextSegmentationOptions) -> None:
    """The output guard, before anything is written: --summary must not be an input, nor a
    directory, nor the place of scores/ or details/; no input may lie inside those."""
    if opts.summary and os.path.isdir(opts.summary):
        raise InputError("--summary: is a directory, expected a file name", opts.summary)
    rel = summary_in_exp(opts)
    if rel in OUTPUTS:
        raise InputError(f"--summary: the step writes its {rel}/ directory there, expected a file name",
                         opts.summary)
    owned = [os.path.join(opts.exp_dir, o) for o in OUTPUTS] if opts.exp_dir else []
    guard.check_outputs(STEP, opts.paths("input"), owned + ([opts.summary] if opts.summary else []))


def stage_of(opts: Any) -> Stage:
    """The stage of the step's options (termeval/steps: Step.stage)."""
    return TextSegmentationStage(opts)
