"""Fold aggregation (§2.10) and the score files (§1.1, §1.2) of the seed modes."""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from termeval.bootstrap.units import data_identity
from termeval.core.scores import Metric, format_value, write_scores
from termeval.tde.benchmarks import seed_rules
from termeval.tde.shared import coverage_warnings
from termeval.tde.seeddoc.common import fscore

STAGE_KEYS = {
    "matching": (("family", "matching"), ("scalar", "ned"), ("scalar", "coverage"),
                 ("scalar", "coverage_discoverable"), ("scalar", "within_ned"), ("family", "within_matching")),
    "clustering": (("family", "grouping"), ("family", "type"), ("family", "type_3to20"),
                   ("family", "within_grouping")),
    "parsing": (("family", "token"), ("family", "boundary")),
}


def _mean_std(vals: list[float]) -> tuple[float | None, float | None]:
    if not vals:
        return None, None
    a = np.asarray(vals, np.float64)
    return float(a.mean()), float(a.std())


def aggregate(mode: str, folds: list[dict], with_std: bool) -> tuple[dict, dict]:
    """Scores over the folds (their `values` dicts) and folds_skipped per P/R/F family.
    Without folds (with_std False: --folds none) the corpus values are the scores as they
    are (a defined P next to an undefined R stays defined)."""
    if not with_std:
        assert len(folds) == 1
        return dict(folds[0]["values"]), {}
    names = []
    for f in folds:
        names += [k for k in f["values"] if k not in names]
    fams = sorted({k[:-len("_precision")] for k in names if k.endswith("_precision")})
    out: dict[str, Any] = {}
    skipped: dict[str, int] = {}
    for fam in fams:
        rows = [f["values"] for f in folds if fam + "_precision" in f["values"]]
        valid = [v for v in rows if v[fam + "_precision"] is not None and v[fam + "_recall"] is not None]
        skipped[fam] = len(rows) - len(valid)
        p, ps = _mean_std([v[fam + "_precision"] for v in valid])
        r, rs = _mean_std([v[fam + "_recall"] for v in valid])
        fs = [fscore(v[fam + "_precision"], v[fam + "_recall"]) for v in valid]
        if seed_rules(mode).f_of_means:
            f_val = fscore(p, r)
        else:
            f_val = _mean_std(fs)[0]
        f_std = _mean_std(fs)[1]
        out.update({fam + "_precision": p, fam + "_recall": r, fam + "_fscore": f_val})
        if with_std:
            out.update({fam + "_precision_std": ps, fam + "_recall_std": rs, fam + "_fscore_std": f_std})
    for k in names:
        if k.endswith(("_precision", "_recall", "_fscore")):
            continue
        rows = [f["values"][k] for f in folds if k in f["values"]]
        m, s = _mean_std([v for v in rows if v is not None])
        out[k] = m
        if with_std:
            out[k + "_std"] = s
    return out, skipped


def report_scores(ctx, merged: list[dict], out: str) -> tuple[dict, list[str]]:
    """The scores of the merged folds written into `out`; (scores.json's mapping, the warnings)."""
    mode, spec = ctx.mode, ctx.spec
    if spec.kind == "random":
        # unit 0: the keys computed once on the whole corpus (no spread); 1..B: the batches
        scores, _ = aggregate(mode, merged[:1], False)
        batch, skipped = aggregate(mode, merged[1:], True)
        scores.update(batch)
    else:
        scores, skipped = aggregate(mode, merged, spec.kind != "none")
    folds = [{"unit": u["unit"], "files": (len(ctx.folds[ctx.units[u["unit"]][0]]) if ctx.units[u["unit"]][0] >= 0
                                             else int(ctx.corpus.nfiles)), **u["values"], "counts": u["counts"]}
             for u in merged]
    whole = merged[0]["counts"] if spec.kind != "equal" else {}
    counts = {"fragments_discarded_empty_transcription": ctx.corpus.discarded,
              "fragments": len(ctx.corpus.f_on), "classes": ctx.corpus.ncls, **whole}
    definitions = dict(seed_rules(mode).definitions, folds=str(spec))
    # the gold's content digest, as the other benchmarks record it (RESULTS.md's data column)
    gold = [os.path.join(ctx.data_dir, f) for f in ("phones", "words", "reco2dur", "utt2spk")]
    extra = {"definitions": definitions, "counts": counts, "folds_skipped": skipped,
             "folds": folds if spec.kind != "none" else [],
             "data_id": data_identity([f for f in gold if os.path.isfile(f)], {"benchmark": mode, "folds": str(spec)})}
    result: dict[str, Any] = {"benchmark": mode}
    warnings = coverage_warnings(scores)
    said = list(warnings)
    for stage, keys in STAGE_KEYS.items():
        metrics = []
        for kind, k in keys:
            names = [k] if kind == "scalar" else [f"{k}_precision", f"{k}_recall", f"{k}_fscore"]
            for n in names:
                if n in scores:
                    metrics.append(Metric(n, scores[n]))
                    result[n] = scores[n]
                    if n + "_std" in scores:
                        metrics.append(Metric(n + "_std", scores[n + "_std"]))
                        result[n + "_std"] = scores[n + "_std"]
        write_scores(out, stage, metrics, benchmark=mode, extra=extra, warnings=warnings)
        warnings = None                          # kept once, under the first stage
    if ctx.prepare_counts:
        write_scores(out, "prepare", [Metric(k, v) for k, v in ctx.prepare_counts.items()], benchmark=None)
    result.update(extra)
    return result, said


def summary_lines(result: dict) -> str:
    keys = ("ned", "coverage", "matching_fscore", "grouping_fscore", "type_fscore", "token_fscore",
            "boundary_fscore")
    return f"{result['benchmark']} ({result['definitions']['folds']}): " + \
        " ".join(f"{k} {format_value(result.get(k))}" for k in keys)
