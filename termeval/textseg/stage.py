"""The text segmentation Stage (termeval.run.driver protocol): wordseg-eval's measures over
utterances (lines), additive per utterance range; lexicons and the summary merged by union/sum."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from termeval.core.errors import InputError
from termeval.run.driver import Shard
from termeval.textseg import positions, rand, summary
from termeval.textseg.report import OUTPUTS, summary_text, write_report
from termeval.textseg.text import Text, check_unit_edges, pair_lines, read_prepared, read_text


@dataclass
class Context:
    gold: Text
    seg: Text
    units: list[list[str]] | None     # units of each utterance (prepared text or --unit-sep)
    has_prepared: bool
    compat: str
    args: Any


def _separator(value: str | None) -> str | None:
    if value in (None, "", "none"):
        return None
    return {"space": " ", "tab": "\t"}.get(value, value)


class TextSegmentationStage:
    name = "text_segmentation"
    outputs = OUTPUTS

    def load(self, args: Any) -> Context:
        args = prepare_args(args)
        compat = args.compat
        wsep, usep = _separator(args.word_sep), _separator(args.unit_sep)
        if usep is not None and usep == (wsep or " "):
            raise InputError(f"--unit-sep and --word-sep are both '{usep}'")
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
        return Context(gold, seg, units, has_prepared, compat, args)

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
                gl = rand.word_lengths(ctx.gold.words[i], ctx.units[i])
                sl = rand.word_lengths(ctx.seg.words[i], ctx.units[i])
                sums[k] = rand.utterance_sums(gl, sl)
            arrays["rand"] = sums
        summ = summary.summarize(seg, gold) if ctx.args.summary_wanted else {}
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

    def report(self, ctx: Context, merged: dict, out: str) -> dict:
        return write_report(ctx, merged, out)

    def summary(self, result: dict) -> str:
        return summary_text(result)


def summary_wanted(args: Any) -> bool:
    return bool(getattr(args, "summary", None)) or bool(getattr(args, "exp_dir", None))


def prepare_args(args: Any) -> Any:
    """Defaults the Stage reads (the Python API may pass a bare namespace)."""
    for k, v in (("compat", "none"), ("prepared", None), ("summary", None), ("word_sep", None),
                 ("unit_sep", None), ("exp_dir", None)):
        if not hasattr(args, k):
            setattr(args, k, v)
    args.summary_wanted = summary_wanted(args)
    if args.summary and os.path.isdir(args.summary):
        raise InputError("--summary: is a directory, expected a file name", args.summary)
    return args
