"""Word/phone segmentation scoring as a stage of the one job protocol (termeval.run.driver).

Units are utterances, costed by their reference + predicted intervals; a shard holds the
additive statistics of a range of utterances (termeval.segmentation.stats.job_stats, JSON
in the shard's metadata). The merge adds them up (report.merge sorts the rows by utterance,
so any split gives the same files) and report.write_report writes the scores.
"""
from __future__ import annotations

import os
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import numpy as np

from termeval.core import guard
from termeval.core.scores import format_line
from termeval.core.stage import Report, Shard, Stage, View
from termeval.segmentation import checks, compare
from termeval.segmentation import scorer_registry as scorers
from termeval.segmentation.inputs import cut_tier, load_gold_tier, load_utterances, read_segmentation
from termeval.segmentation.options import SegmentationOptions
from termeval.segmentation.report import merge, stage_name, write_report
from termeval.segmentation.stats import Settings, frame_shift_for, job_stats
from termeval.segmentation.units import ci_hook, reference_files
from termeval.core.errors import InputError
from termeval.core.textio import atomic_write


def settings_of(opts: SegmentationOptions) -> Settings:
    return Settings(opts.tolerance, frame_shift_for(opts.compat, opts.frame_shift), opts.level, opts.compat,
                    opts.frame_shift is not None)


def reading_of(compat: str) -> str:
    """How the segmentation is read (termeval.segmentation.inputs): a named scorer's own rule."""
    scorer = scorers.get(compat)
    return scorer.reading if scorer is not None else compat


class SegmentationStage(Stage):
    """`name` is segmentation (--level word) or segmentation_phone; the exp dir may be shared
    with term discovery scores, so the stage owns only its own files."""
    updates = ("scores/scores.json",)

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.all = settings.compat == scorers.ALL     # every scorer side by side; the main scores are the default's
        self.main = replace(settings, compat="none") if self.all else settings
        self.name = stage_name(settings)
        self.outputs = (f"scores/{self.name}", f"scores/{self.name}_compare", "scores/scores.json", "scores/.summary",
                        f"details/{self.name}", f"units/units.{self.name}_file.npz",
                        f"units/units.{self.name}_speaker.npz")

    def load(self, a: SegmentationOptions) -> SimpleNamespace:
        s = self.settings
        checks.check_settings(s)
        segments = a.segments_file()
        if a.exp_dir:       # what the publish replaces holds no input (the output guard)
            guard.check_outputs("score_segmentation", a.paths("input") + ([segments] if segments else []),
                                [os.path.join(a.exp_dir, o) for o in self.outputs])
        gold, tier = load_gold_tier(a.data_dir, s.level)
        utts = load_utterances(gold, segments)
        ref = cut_tier(tier, utts)
        fs = frame_shift_for("none", a.frame_shift)     # an interval dir's frames: --frame-shift, else 10 ms
        pred = read_segmentation(a.segmentation, gold, utts, fs, reading_of(self.main.compat))
        preds: dict = {"none": pred}
        if self.all:        # each reading rule once; a row whose reading refuses the input shows the error
            for rd in sorted({compare.reading(m) for m in compare.modes()} - {"none"}):
                try:
                    preds[rd] = read_segmentation(a.segmentation, gold, utts, fs, rd)
                except InputError as e:
                    preds[rd] = str(e)
        return SimpleNamespace(args=a, segments=segments, gold=gold, utts=utts, ref=ref, pred=pred, preds=preds)

    def identity(self, ctx: SimpleNamespace) -> dict:
        return {"n_utterances": len(ctx.utts), "n_reference": int(len(ctx.ref.utt)),
                "n_predicted": int(len(ctx.pred.utt)), "settings": list(vars(self.settings).values())}

    def costs(self, ctx: SimpleNamespace) -> np.ndarray:
        n = len(ctx.utts)
        return (np.bincount(ctx.ref.utt, minlength=n) + np.bincount(ctx.pred.utt, minlength=n)).astype(np.float64)

    def compute(self, ctx: SimpleNamespace, lo: int, hi: int) -> Shard:
        st = job_stats(ctx.ref, ctx.pred, ctx.utts, np.arange(lo, hi), self.main)
        st["has_labels"] = bool(ctx.pred.labels) and scorers.get(self.main.compat) is None
        if self.all:
            st["compare"] = compare.counts(ctx.ref, ctx.preds, ctx.utts, np.arange(lo, hi), self.settings)
        return Shard(st)

    def merge(self, ctx: SimpleNamespace, shards: list[Shard]) -> Any:
        stats = [s.meta for s in shards]
        utts = ctx.utts    # who owns each utterance: the resampling units of termeval.segmentation.units
        stats[0] = {**stats[0], "speakers": {u: utts.speaker[i] for i, u in enumerate(utts.ids)},
                    "recos": {u: ctx.gold.files[int(utts.reco[i])] for i, u in enumerate(utts.ids)}}
        return stats, merge(stats, hungarian=self.settings.compat != "vqwordseg")

    def report(self, ctx: SimpleNamespace, merged: Any, out: str) -> Report:
        stats, m = merged
        a, s, utts = ctx.args, self.main, ctx.utts
        table = compare.rows(compare.merge([j["compare"] for j in stats]), self.settings) if self.all else None
        notes = [f"utterances: {'whole files' if utts.source == 'files' else utts.source}"]
        if s.compat == "vqwordseg" and m["utts_skipped"]:
            notes.append(f"{m['utts_skipped']} utterances without reference or prediction skipped (as vqwordseg)")
        settings = {"tolerance": s.tolerance, "frame_shift": s.frame_shift, "level": s.level, "compat": s.compat}
        warnings = checks.warnings(s, a.segmentation, dict(ctx.pred.counts))
        named = scorers.get(s.compat)       # a scorer may say where it departs from its script
        warnings += getattr(named.impl(), "warnings", lambda *_: [])(utts, s) if named is not None else []
        hook = ci_hook(out, self.name, stats, m, settings, reference_files(a.data_dir, ctx.segments),
                       a.bootstrap, a.seed, a.ci, a.bootstrap_unit)
        scores: dict = {}
        metrics = write_report(out, m, s, stats[0]["speakers"], list(ctx.pred.labels), bool(ctx.pred.labels),
                               notes, dict(ctx.pred.counts), hook,
                               system=os.path.basename(os.path.normpath(a.exp_dir)) if a.exp_dir else None,
                               warnings=warnings, into=scores, compare=table)
        summary = "".join(f"{self.name}: {format_line(x)}\n" for x in metrics)
        if table is not None:
            text = compare.format_table(table, s.level)
            with atomic_write(os.path.join(out, "scores", f"{self.name}_compare")) as f:
                f.write(text)
            summary += "".join(f"{self.name}_compare: {x}\n" for x in text.splitlines())
        return Report(scores, summary, tuple(warnings))

    def view(self, ctx: SimpleNamespace, merged: Any, report: Report) -> View:
        """report.html's tables, plots and timeline (termeval/segmentation/view.py), --textgrids' tiers."""
        from termeval.segmentation import view    # the report's modules: only with --report/--textgrids
        s = self.main
        return View(f"Segmentation: {s.level}s", view.tables(self.name), view.plots(self.name),
                    lambda limit: view.recordings(ctx.ref, ctx.pred, ctx.utts, s.level, s.tolerance, limit,
                                                  ctx.args.data_dir, ctx.gold),
                    notes=view.notes(s.compat, s.tolerance))


def stage_of(opts: Any) -> Stage:
    """The stage of the step's options (termeval/steps: Step.stage)."""
    return SegmentationStage(settings_of(opts))
