"""QUESST per-document scoring as a stage of the one job protocol (termeval.run.driver).

Units are the reference queries, costed by their detections; a shard holds one (maximum)
score per (query, document) pair of a range of queries (keys ascending, so the shards in
query order are the pairs one process finds). The merge builds the trials and scores them.
"""
from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any

import numpy as np

from termeval.core.options import split_number_list
from termeval.core.errors import InputError
from termeval.core.stage import Report, Shard, Stage, View
from termeval.quesst import quesst, quesst_io, report
from termeval.quesst.options import QuesstOptions
from termeval.std import breakdown

# QUESST details lie in details/quesst/; STD's files of a shared exp dir are left alone and
# both stages merge their metrics into scores/scores.json.
OUTPUTS = ("scores/quesst", "scores/quesst_operating", "scores/scores.json", "scores/.summary",
           "details/quesst", "units/units.quesst_query.npz")


VIEW_TABLES = (("Per query", "details/quesst/per_query"), ("Ranked retrieval per query",
                                                             "details/quesst/ranking_per_query.tsv"),
               ("Breakdown", "details/quesst/breakdown_*.tsv"))
VIEW_PLOTS = ({"kind": "bars", "table": "details/quesst/per_query", "label": "query", "values": ["act_twv", "best_twv"],
               "title": "TWV per query", "ylabel": "TWV"},)


class QuesstStage(Stage):
    name = "quesst"
    outputs = OUTPUTS
    updates = ("scores/scores.json",)

    def load(self, a: QuesstOptions) -> SimpleNamespace:
        if not os.path.isfile(a.detections):
            raise InputError("no such detection file", a.detections)
        p_tar = a.eff_prior if a.eff_prior is not None else quesst.effective_prior(a.p_target, a.c_miss, a.c_fa)
        if not 0 < p_tar < 1:
            raise InputError(f"effective prior {p_tar} must lie strictly between 0 and 1")
        ctx = SimpleNamespace(args=a, p_tar=p_tar,
                              threshold=None if a.act_threshold == "bayes" else float(a.act_threshold))
        ctx.kinds = breakdown.parse_kinds(a.breakdown, a.lexicon is not None, quesst=True)
        ctx.bins = breakdown.parse_bins(a.freq_bins)
        ctx.lexicon = breakdown.read_lexicon(a.lexicon) if a.lexicon else None
        ctx.p_at = tuple(split_number_list(a.p_at, integer=True))   # ranks >= 1: cli.number_list
        if not ctx.p_at:
            raise InputError(f"--p-at must be a comma list of ranks >= 1, got '{a.p_at}'")
        ctx.ref = quesst_io.load_reference(a.kws_dir)
        breakdown.check_attributes(ctx.kinds, ctx.ref.query_attrs, a.kws_dir)
        ctx.hyp = quesst_io.read_pair_scores(a.detections, a.format)
        if a.use_decisions and ctx.hyp.decision is None:
            raise InputError("--use-decisions true, but the detections carry no YES/NO decisions", a.detections)
        ctx.mapped = quesst_io.map_detections(ctx.ref, ctx.hyp,
                                              "min" if a.default_score == "min" else float(a.default_score))
        return ctx

    def identity(self, ctx: SimpleNamespace) -> dict:
        return {"n_queries": len(ctx.ref.query_ids), "n_documents": len(ctx.ref.doc_ids),
                "n_detections": int(len(ctx.mapped.query))}

    def costs(self, ctx: SimpleNamespace) -> np.ndarray:
        return np.bincount(ctx.mapped.query, minlength=len(ctx.ref.query_ids)).astype(np.float64)

    def compute(self, ctx: SimpleNamespace, lo: int, hi: int) -> Shard:
        keys, score, decision = quesst_io.reduce_queries(ctx.mapped, len(ctx.ref.doc_ids), lo, hi)
        return Shard({}, {"keys": keys, "score": score, "decision": decision})

    def merge(self, ctx: SimpleNamespace, shards: list[Shard]) -> Any:
        """(trials, scored result, ranking, breakdown rows) of all queries: every figure; the
        report only writes."""
        pairs = (np.concatenate([s.arrays["keys"] for s in shards]).astype(np.int64),
                 np.concatenate([s.arrays["score"] for s in shards]).astype(np.float64),
                 np.concatenate([s.arrays["decision"] for s in shards]).astype(bool))
        tr, warnings = quesst_io.trials_from_mapped(ctx.ref, ctx.mapped, pairs)
        ctx.warnings = list(warnings)    # the Report's, printed once by the driver
        r = quesst.score_trials(tr, ctx.p_tar, ctx.threshold, ctx.args.use_decisions)
        return (tr, r, *report.rankings_and_breakdowns(ctx, tr, r))

    def report(self, ctx: SimpleNamespace, merged: Any, out: str) -> Report:
        result, lines = report.write(out, ctx, *merged)
        return Report(result, "\n".join(lines) + "\n", tuple(ctx.warnings))

    def view(self, ctx: SimpleNamespace, merged: Any, report_: Report) -> View:
        """report.html's tables and plots (no timeline: a trial is a query and a document)."""
        return View("Query by example: QUESST per-document scores", VIEW_TABLES, VIEW_PLOTS)

def stage_of(opts: Any) -> Stage:
    """The stage of the step's options (termeval/steps: Step.stage)."""
    return QuesstStage()
