"""The unit scoring stages of the one job protocol (termeval.run.driver).

UnitsStage (steps/score_units.sh): units are the gold's files, costed by their frames; a shard
holds the per-file co-occurrence cells and first frames of its files (additive); the merge adds
them up, maps the units to phones (the mapping needs every file's counts) and scores PER and
boundaries file by file.

DiscophonStage (steps/score_discophon.sh): units are the (language, split) pairs, each scored
whole by its job (its own counts, mapping and scores); the merge gathers them.
"""
from __future__ import annotations

import json
import os
from types import SimpleNamespace
from typing import Any

import numpy as np

from termeval.bootstrap.engine import bootstrap_ci
from termeval.bootstrap.units import data_identity, save_units, units_path
from termeval.core import guard
from termeval.core.errors import InputError
from termeval.core.scores import format_line, write_scores
from termeval.core.stage import Report, Shard, Stage, View
from termeval.core.textio import atomic_write
from termeval.units import cooccurrence, discophon, evaluate, frames, report
from termeval.units.alignment import read_alignment
from termeval.units.evaluate import Result, Settings
from termeval.units.languages import DEFAULT_N_UNITS, LANGUAGES
from termeval.units.options import DiscophonOptions, UnitsOptions
from termeval.units.readers import read_units

UNITS_STEP = "score_units"
DISCOPHON_STEP = "score_discophon"
DISCOPHON_RENAME = {"boundary_fscore": "f1", "boundary_rvalue": "r_val"}


def settings_of(opts: UnitsOptions) -> Settings:
    return Settings(compat=opts.compat, kind=opts.kind, step_ms=int(round(opts.frame_shift * 1000)),
                    n_units=opts.n_units, n_rows=opts.n_phonemes + 1 if opts.n_phonemes else 0)


def _ci(out: str, stage: str, us: Any, exact: dict, n: int, seed: int, level: float) -> dict:
    """Save the per-unit statistics (units/units.<stage>.npz) and the intervals (none when n = 0)."""
    us.exact = {k: exact.get(k) for k in us.metrics}
    save_units(units_path(out, stage), us)
    return bootstrap_ci(us, n, seed, level) if n > 0 else {}


class UnitsStage(Stage):
    name = "units"
    updates = ("scores/scores.json",)
    outputs = ("scores/units", "scores/scores.json", "scores/.summary", "details/units",
               "units/units.units_file.npz", "units/units.units_speaker.npz")

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def load(self, a: UnitsOptions) -> evaluate.Corpus:
        if a.exp_dir:
            guard.check_outputs(UNITS_STEP, a.paths("input"), [os.path.join(a.exp_dir, o) for o in self.outputs])
        gold = frames.from_data_dir(a.data_dir, a.off_grid)
        if self.settings.compat == "fairseq":
            gold = evaluate.strip_digits(gold)
        c = evaluate.pair(gold, read_units(a.units, a.units_format), self.settings)
        c.counts["args"] = a
        return c

    def identity(self, c: evaluate.Corpus) -> dict:
        return {"files": len(c.gold.files), "frames": int(len(c.gold.phone)), "units": int(len(c.units.values)),
                "n_units": c.n_units, "n_rows": c.n_rows, "settings": list(vars(self.settings).values())}

    def costs(self, c: evaluate.Corpus) -> np.ndarray:
        return c.pairing.cut.astype(np.float64)

    def compute(self, c: evaluate.Corpus, lo: int, hi: int) -> Shard:
        return Shard({}, evaluate.file_counts(c, lo, hi))

    def merge(self, c: evaluate.Corpus, shards: list[Shard]) -> tuple[dict, Result]:
        counts = evaluate.merge_counts([s.arrays for s in shards])
        return counts, evaluate.score(c, counts, self.settings)

    def report(self, c: evaluate.Corpus, merged: tuple[dict, Result], out: str) -> Report:
        counts, r = merged
        a, s = c.counts["args"], self.settings
        keys = report.KEYS + (report.FAIRSEQ_KEYS if s.compat == "fairseq" else ())
        settings = {"frame_shift": a.frame_shift, "step_ms": s.step_ms, "compat": s.compat, "kind": s.kind,
                    "n_units": c.n_units, "n_phonemes": c.n_rows - 1, "off_grid": a.off_grid,
                    "units_format": a.units_format}
        owners = {"file": c.gold.files, "speaker": c.gold.speaker or c.gold.files}
        ci: dict = {}
        for unit in dict.fromkeys(("file", a.bootstrap_unit)):
            us = report.unit_stats(owners[unit], r, counts, "", unit)
            got = _ci(out, f"units_{unit}", us, r.scores, a.bootstrap if unit == a.bootstrap_unit else 0,
                      a.seed, a.ci)
            ci.update(got if unit == a.bootstrap_unit else {})
        ci = {k: v for k, v in ci.items() if k in keys}
        details = os.path.join(out, "details", "units")
        report.write_details(details, c.gold.files, r)
        tot = r.per_file.sum(axis=0)
        extra = {"units": {**settings, "files": len(c.gold.files), "frames_scored": int(tot[2]),
                           **{k: v for k, v in c.counts.items() if k != "args"}},
                 "data_id": data_identity([os.path.join(a.data_dir, f) for f in ("phones", "reco2dur", "utt2spk")],
                                          {"benchmark": "units", **settings}),
                 "bootstrap": {"n": a.bootstrap, "seed": a.seed, "level": a.ci, "unit": a.bootstrap_unit}}
        scores: dict = {}
        lines = report.metrics(r.scores, r, "", keys, ci)
        write_scores(out, self.name, lines, "units", extra, warnings=c.warnings, into=scores)
        summary = "".join(f"units: {format_line(m)}\n" for m in lines)
        if r.fairseq is not None:
            summary += "".join(f"units: {x}\n" for x in
                               open(os.path.join(details, "teacher_quality.txt"), encoding="utf-8").read().splitlines())
        return Report(scores, summary, tuple(c.warnings))

    def view(self, c: evaluate.Corpus, merged: tuple[dict, Result], report_: Report) -> View:
        """report.html's tables, plots (the confusion matrix) and timeline (termeval/units/view.py),
        --textgrids' tiers."""
        from termeval.units import view    # the report's modules: only with --report/--textgrids
        r = merged[1]
        s = self.settings
        h = view.head(c.gold, c.units, c.pairing.unit_of, r.unit_row, r.rows.names, s.step_ms)
        d = "details/units"
        return View(f"Discrete units against gold phones (--compat {s.compat}, --kind {s.kind})", view.tables(d),
                    view.plots(d) + (view.confusion(r.count, r.rows.names),),
                    lambda limit: view.recordings(h, limit), notes=view.NOTES)


# ----------------------------------------------------------------------------- DiscoPhon

def evaluate_pair(p: discophon.Pair, kind: str, step_ms: int) -> tuple[Result, evaluate.Corpus, dict]:
    """One (language, split) pair scored as discophon's benchmark_discovery scores it."""
    lang = LANGUAGES[p.language]
    n_rows = lang.n_phonemes + 1
    s = Settings(compat="discophon", kind=kind, step_ms=step_ms,
                 n_units=DEFAULT_N_UNITS if kind == "many-to-one" else n_rows, n_rows=n_rows)
    gold = read_alignment(p.alignment)
    c = evaluate.pair(gold, read_units(p.units, "jsonl"), s)
    counts = evaluate.file_counts(c, 0, len(gold.files))
    return evaluate.score(c, counts, s), c, counts


def _pack(k: int, r: Result, c: evaluate.Corpus, counts: dict) -> tuple[dict, dict]:
    arrays = {f"{k}.per_file": r.per_file, f"{k}.count": r.count, f"{k}.unit_row": r.unit_row,
              f"{k}.row_code": r.rows.code}
    # int32 (files, labels, units and frame counts of one pair fit): half the memory of 24 pairs' cells
    arrays.update({f"{k}.{name}": counts[name].astype(np.int32) for name in ("cell_file", "cell_phone", "cell_unit",
                                                                            "cell_count")})
    meta = {"scores": r.scores, "files": c.gold.files, "rows": r.rows.names, "warnings": c.warnings}
    return meta, arrays


def _unpack(k: int, meta: dict, arrays: dict) -> tuple[Result, list[str], dict]:
    rows = cooccurrence.Rows(list(meta["rows"]), arrays[f"{k}.row_code"])
    r = Result(dict(meta["scores"]), arrays[f"{k}.per_file"], rows, arrays[f"{k}.count"], arrays[f"{k}.unit_row"])
    counts = {name: arrays[f"{k}.{name}"] for name in ("cell_file", "cell_phone", "cell_unit", "cell_count")}
    return r, list(meta["files"]), counts


def discophon_scores(r: Result) -> dict:
    """discophon's four values of a pair (None where discophon raises: no boundary at all)."""
    s = r.scores
    return {"pnmi": s["pnmi"], "per": s["per"], "f1": s["boundary_fscore"], "r_val": s["boundary_rvalue"]}


class DiscophonStage(Stage):
    name = "discophon"
    updates = ("scores/scores.json",)

    def __init__(self, opts: DiscophonOptions) -> None:
        self.opts = opts
        # its own files only: the output dir may hold other scores
        self.outputs = ("scores.jsonl", "scores/discophon_*", "scores/scores.json", "scores/.summary",
                        "details/discophon", "units/units.discophon_*")

    def load(self, a: DiscophonOptions) -> SimpleNamespace:
        if a.exp_dir:
            guard.check_outputs(DISCOPHON_STEP, a.paths("input"), [os.path.join(a.exp_dir, o) for o in self.outputs])
        pairs = discophon.available(a.predictions, a.dataset, a.languages, a.splits)
        return SimpleNamespace(args=a, pairs=pairs, heads={})    # heads: the timeline's files (merge)

    def identity(self, ctx: SimpleNamespace) -> dict:
        return {"pairs": [p.name for p in ctx.pairs], "kind": ctx.args.kind, "step_units": ctx.args.step_units}

    def costs(self, ctx: SimpleNamespace) -> np.ndarray:
        return np.array([os.path.getsize(p.units) + os.path.getsize(p.alignment) for p in ctx.pairs], np.float64)

    def compute(self, ctx: SimpleNamespace, lo: int, hi: int) -> Shard:
        metas, arrays = [], {}
        a = ctx.args
        for k in range(lo, hi):
            r, c, counts = evaluate_pair(ctx.pairs[k], a.kind, a.step_units)
            meta, arr = _pack(k, r, c, counts)
            if a.exp_dir and a.report and a.report_files > 0:    # report.html's timeline: the pair's first files
                meta["head"], more = _keep_head(k, r, c, a.step_units, a.report_files)
                arr.update(more)
            metas.append({"index": k, **meta})
            arrays.update(arr)
        return Shard({"pairs": metas}, arrays)

    def merge(self, ctx: SimpleNamespace, shards: list[Shard]) -> dict:
        out = {}
        ctx.heads = {}
        for s in shards:
            for meta in s.meta["pairs"]:
                k = int(meta["index"])
                out[k] = _unpack(k, meta, s.arrays) + (list(meta["warnings"]),)
                if "head" in meta:
                    ctx.heads[k] = (meta["head"], {n: s.arrays[f"{k}.head.{n}"] for n in HEAD_ARRAYS})
        return out

    def report(self, ctx: SimpleNamespace, merged: dict, out: str) -> Report:
        a = ctx.args
        values, warnings, extra_ci, tables = {}, [], {}, []
        for k, p in enumerate(ctx.pairs):
            r, files, counts, warned = merged[k]
            values[p.name] = discophon_scores(r)
            for w in warned:
                warnings.append(f"{p.name}: {w}")
            us = report.unit_stats(files, r, counts, f"{p.name}_", "file", DISCOPHON_RENAME)
            exact = {f"{p.name}_{k2}": v for k2, v in values[p.name].items()}
            exact.update({f"{p.name}_{k2}": v for k2, v in r.scores.items() if k2 in ("boundary_precision",
                                                                                       "boundary_recall")})
            ci = _ci(out, f"discophon_{p.name}_file", us, exact, a.bootstrap, a.seed, a.ci)
            extra_ci.update({k2: v for k2, v in ci.items() if k2 in exact and not k2.endswith(("_precision", "_recall"))})
            report.write_details(os.path.join(out, "details", "discophon", f"{p.language}-{p.split}"), files, r,
                                 plot=False)
            tables.append((p, r))
        for p, r in tables:
            for v, m in ((values[p.name][m], m) for m in discophon.METRICS):
                if v is None:
                    warnings.append(f"{p.name}: {m} is undefined (no boundary to score; discophon 0.2.0 raises "
                                    "NoBoundariesError here)")
        report.pairs_plot(os.path.join(out, "details", "discophon", "scores"), [p.name for p in ctx.pairs],
                          [values[p.name] for p in ctx.pairs])
        rows_text = discophon.jsonl_rows(ctx.pairs, values)
        with atomic_write(os.path.join(out, "scores.jsonl")) as f:
            f.write(rows_text)
        scores: dict = {}
        summary = []
        settings = {"kind": a.kind, "step_units": a.step_units, "n_units": "256" if a.kind == "many-to-one"
                    else "phonemes + 1"}
        identity = data_identity([q.alignment for q in ctx.pairs], {"benchmark": "discophon", **settings})
        for p, r in tables:
            stage = f"discophon_{p.name}"
            lines = report.metrics({**r.scores, "f1": values[p.name]["f1"], "r_val": values[p.name]["r_val"]}, r,
                                   f"{p.name}_", ("pnmi", "per", "f1", "r_val"), extra_ci)
            extra = {"discophon": {**settings, "pairs": [q.name for q in ctx.pairs]},
                     "data_id": identity,
                     "bootstrap": {"n": a.bootstrap, "seed": a.seed, "level": a.ci, "unit": "file"}}
            write_scores(out, stage, lines, "discophon", extra,
                         warnings=[w for w in warnings if w.startswith(p.name + ":")], into=scores)
            summary += [f"{p.language} {p.split}: {format_line(m)}" for m in lines]
        scores = {**scores, "scores_jsonl": [json.loads(x) for x in rows_text.splitlines()]}
        return Report(scores, "\n".join(summary) + "\n", tuple(warnings))


    def view(self, ctx: SimpleNamespace, merged: dict, report_: Report) -> View:
        """report.html's tables and plots of every (language, split) and the timeline of their first
        files (termeval/units/view.py); no TextGrids (DiscophonOptions.TEXTGRIDS)."""
        from termeval.units import view    # the report's modules: only with --report
        a = ctx.args
        names = [f"{p.language}-{p.split}" for p in ctx.pairs]
        values = [discophon_scores(merged[k][0]) for k in range(len(ctx.pairs))]
        plots = [{"kind": "bars", "labels": names, "title": "Every (language, split)", "ylabel": "value",
                  "series": {m: [v[m] for v in values] for m in discophon.METRICS}}]
        plots += [view.confusion(merged[k][0].count, merged[k][0].rows.names, f"{names[k]}: P(phone | unit)")
                  for k in range(len(ctx.pairs))]
        tables = [t for k, n in enumerate(names)
                  for t in view.tables(f"details/discophon/{n}", n, view.PAIR_UTTERANCE_ROWS)]
        heads = [(names[k], _head_of(*ctx.heads[k], merged[k][0], a.step_units)) for k in sorted(ctx.heads)]
        return View(f"Discrete units: the DiscoPhon benchmark (--kind {a.kind}, --step-units {a.step_units})",
                    tables, plots, (lambda limit: view.pair_recordings(heads, limit)) if heads else None,
                    notes=view.NOTES + (f"Tables: the first {view.PAIR_UTTERANCE_ROWS} rows of each per-utterance "
                                        "table (the files have them all).",))


HEAD_ARRAYS = ("phone", "pstarts", "units", "ustarts", "has_units")


def _keep_head(k: int, r: Result, c: evaluate.Corpus, step_ms: int, n: int) -> tuple[dict, dict]:
    """The first n files of pair k as report.html's timeline needs them (a job's shard carries them)."""
    from termeval.units import view    # the report's modules: only with --report
    h = view.head(c.gold, c.units, c.pairing.unit_of, r.unit_row, r.rows.names, step_ms, n)
    return {"files": h.files, "labels": h.labels}, {f"{k}.head.{name}": np.asarray(getattr(h, name))
                                                    for name in HEAD_ARRAYS}


def _head_of(meta: dict, arrays: dict, r: Result, step_ms: int):
    """What _keep_head kept of a pair, with the pair's mapping."""
    from termeval.units import view    # the report's modules: only with --report
    return view.Head(list(meta["files"]), list(meta["labels"]), arrays["phone"], arrays["pstarts"], arrays["units"],
                     arrays["ustarts"], arrays["has_units"].astype(bool), r.unit_row, list(r.rows.names), step_ms)


def check_discophon_inputs(a: DiscophonOptions) -> None:
    """Before any job: the pairs can be listed and have their gold."""
    if not os.path.isdir(a.dataset):
        raise InputError("not a directory (the discophon dataset dir, holding alignment/)", a.dataset)
    discophon.available(a.predictions, a.dataset, a.languages, a.splits)


def stage_of_units(opts: UnitsOptions) -> Stage:
    """score_units' stage (termeval/steps: Step.stage)."""
    return UnitsStage(settings_of(opts))


def stage_of_discophon(opts: DiscophonOptions) -> Stage:
    """score_discophon's stage (termeval/steps: Step.stage)."""
    return DiscophonStage(opts)
