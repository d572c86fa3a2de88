"""Turning per-fold results into score files (spec §4.8, §6.1).

* `summarise`: per-fold raw values -> flat `cross_<metric>[_std|_min|_max|_nfolds]` keys with the
  original's cleaning (NaN folds dropped, defaults, per-fold F);
* `details_text`: the original tool's text files (`matching`, `group`, `token_type`, `nlp`,
  `boundary`), 3 decimals, written under exp/<sys>/details/tde15/.
"""
from __future__ import annotations

import math
import os

import numpy as np

from termeval.core.scores import Metric, TDE_STAGES, format_line, write_scores
from termeval.core.textio import atomic_write
from termeval.tde.benchmarks import zr15
from termeval.tde.zr2015.tables import zr2015_tables
from termeval.tde.zr2015.aggregate import aggregate_one, aggregate_pr, clean_one, clean_pr, fold_fscore

PR = {"matching": "matching", "grouping": "grouping", "token": "token", "type": "type",
      "boundary": "boundary"}
SUFFIXES = ("", "_std", "_min", "_max", "_nfolds")
FOLD_COUNTS = ("ned_pairs",)    # counts: their fold summary is a mean, and says so


def add_fscores(fold: dict) -> dict:
    for fam in PR:
        p, r = fold.get(f"{fam}_precision"), fold.get(f"{fam}_recall")
        if p is not None and r is not None:
            fold[f"{fam}_fscore"] = fold_fscore(p, r)
    return fold


def summarise(folds: list[dict], prefix: str) -> dict:
    """{prefix_metric: mean, prefix_metric_std: ..., ...} over the folds of one fold set."""
    out: dict = {}

    def put(name, s):
        out[f"{prefix}_{name}"] = s["mean"]
        out[f"{prefix}_{name}_std"] = s["std"]
        out[f"{prefix}_{name}_min"] = s["min"]
        out[f"{prefix}_{name}_max"] = s["max"]
        out[f"{prefix}_{name}_nfolds"] = s["nfolds"]

    if not folds:
        return out
    for fam in PR:
        if f"{fam}_precision" in folds[0]:
            p, r, f = aggregate_pr([x[f"{fam}_precision"] for x in folds],
                                   [x[f"{fam}_recall"] for x in folds])
            put(f"{fam}_precision", p)
            put(f"{fam}_recall", r)
            put(f"{fam}_fscore", f)
    if "ned" in folds[0]:
        put("ned", aggregate_one([x["ned"] for x in folds], 1.0))
        put("ned_pairs", count_summary(aggregate_one([x["ned_pairs"] for x in folds], 0.0)))
    if "coverage" in folds[0]:
        put("coverage", aggregate_one([x["coverage"] for x in folds], 0.0))
    return out


def sil_warnings(phones: str, benchmark: str) -> list[str]:
    """The 2015/2017 gold has pauses as gaps: SIL lines are scored as a phone (the warning
    steps/score_tde_folds.sh prints, kept in scores.json; zrc2020 warns about the opposite)."""
    with open(phones, "rb") as f:
        if not any(line.rstrip().endswith(b" SIL") for line in f):
            return []
    return [f"{phones} has SIL lines; the {benchmark} definitions expect pauses as gaps "
            "(prepare with --fill-gaps false), otherwise SIL is scored as a phone"]


def count_summary(s: dict) -> dict:
    """A count's fold summary: min and max are counts, and so is a whole-number mean (one fold,
    or equal folds), so they print as integers (356471, not 356471.000000); std stays a float."""
    out = dict(s)
    for k in ("min", "max"):
        out[k] = int(round(s[k]))
    if float(s["mean"]).is_integer():
        out["mean"] = int(s["mean"])
    return out


def _arr(folds, key, default):
    return clean_one([x[key] for x in folds], default)[0]


def _pr_arrays(folds, fam):
    return clean_pr([x[f"{fam}_precision"] for x in folds], [x[f"{fam}_recall"] for x in folds])[:3]


def _block(label: str, nfolds: int, nsamples: int, rows: list[tuple[str, np.ndarray]],
           extra_head: list[str] = ()) -> str:
    sep = 37 * "-"
    s = f"{sep}\n{label}\n" + "".join(x + "\n" for x in extra_head)
    s += f"#folds:    {nfolds}\n#samples:  {nsamples}\n{sep}\n"
    s += "{:9s}  {:5s}  {:5s}  {:5s}  {:5s}\n".format("measure", "mean", "std", "min", "max")
    s += "---------  -----  -----  -----  -----\n"
    for name, v in rows:
        s += f"{name:9s}  {v.mean():.3f}  {v.std():.3f}  {v.min():.3f}  {v.max():.3f}\n"
    return s + sep + "\n"


def details_text(folds: dict[str, list[dict]], nsamples: dict[str, int], benchmark: str,
                 nclusters: int, npairs: int) -> dict[str, str]:
    """The original's result files (spec §6.1/§6.2 layout), keyed by file name."""
    labels = {"cross": "total", "within": "within-speaker only"}
    files: dict[str, str] = {}
    sets = [k for k in ("cross", "within") if folds.get(k)]

    def pr_file(fams, prefix_names):
        blocks = []
        for k in sets:
            for fam, name in zip(fams, prefix_names):
                if f"{fam}_precision" not in folds[k][0]:
                    return None
                p, r, f = _pr_arrays(folds[k], fam)
                blocks.append(_block(f"{name} {labels[k]}", len(folds[k]), nsamples[k],
                                     [("precision", p), ("recall", r), ("fscore", f)]))
        return "\n".join(blocks)

    for fname, fams, names in (("matching", ["matching"], ["match"]),
                               ("group", ["grouping"], ["group"]),
                               ("token_type", ["token", "type"], ["token", "type"]),
                               ("boundary", ["boundary"], ["boundary"])):
        t = pr_file(fams, names)
        if t is not None:
            files[fname] = t
    if sets and "ned" in folds[sets[0]][0] and "coverage" in folds[sets[0]][0]:
        blocks = []
        for k in sets:
            head = [f"#cluster:  {nclusters}", f"#pairs:    {npairs}"] if zr15(benchmark).nlp_cluster_header else []
            blocks.append(_block(f"NLP {labels[k]}", len(folds[k]), nsamples[k],
                                 [("NED", _arr(folds[k], "ned", 1.0)),
                                  ("coverage", _arr(folds[k], "coverage", 0.0))], head))
        files["nlp"] = "\n".join(blocks)
    return files


def nan_to_none(x):
    if isinstance(x, float) and math.isnan(x):
        return None
    return x


# ----------------------------------------------------------------------------- the run's files

def flatten_counts(counts: dict, prefix: str = "") -> list[tuple[str, int]]:
    rows = []
    for k, v in counts.items():
        if isinstance(v, dict):
            rows += flatten_counts(v, f"{prefix}{k}_")
        elif isinstance(v, (int,)) and not isinstance(v, bool):
            rows.append((f"{prefix}{k}", v))
    return rows


def stage_metrics(values: dict, nfolds: dict, ci: dict | None = None, suffixes=SUFFIXES) -> dict:
    """{score file: [Metric]}: cross_/within_ metrics with their fold-summary variants."""
    ci = ci or {}
    out = {}
    for stage, names in TDE_STAGES.items():
        metrics = []
        for k in ("cross", "within"):
            for m in names:
                key = f"{k}_{m}"
                if key not in values:
                    continue
                for suf in suffixes:
                    support = f"{values[key + '_nfolds']}/{nfolds[k]} folds" if suf == "" else ""
                    if suf == "" and m in FOLD_COUNTS:
                        support = "mean over " + support     # an integer when the mean is one
                    metrics.append(Metric(key + suf, values[key + suf], support, ci.get(key) if suf == "" else None))
        out[stage] = metrics
    return out


def write_report(out: str, benchmark: str, folds: dict, values: dict, info: dict, ci: dict,
                 extra: dict, units: dict | None = None, into: dict | None = None) -> None:
    """scores/{matching,clustering,parsing,tde15_input}, scores.json and details/tde15/ under
    `out`. `info`: labels, nsamples, nfolds, counts, nclusters, npairs of the prepared run;
    `units`: the folds' unit statistics, for details/per_file.tsv and per_speaker.tsv; `into`
    receives the scores.json mapping (core.scores.write_scores)."""
    extra = dict(extra)
    warnings = extra.pop("warnings", None)     # scores.json "warnings" -> {<first stage>: [...]}
    for stage, metrics in stage_metrics(values, info["nfolds"], ci).items():
        if metrics:
            write_scores(out, stage, metrics, benchmark, extra=extra, warnings=warnings, into=into)
            warnings = None
    counts = [Metric(k, v) for k, v in flatten_counts(info["counts"])]
    counts += [Metric("classes_after_annotation", info["nclusters"]),
               Metric("pairs_after_annotation", info["npairs"])]
    write_scores(out, "tde15_input", counts, benchmark, into=into)
    details = os.path.join(out, "details", "tde15")
    texts = details_text(folds, info["nsamples"], benchmark, info["nclusters"], info["npairs"])
    for fname, text in texts.items():
        with atomic_write(os.path.join(details, fname)) as f:
            f.write(text)
    with atomic_write(os.path.join(details, zr15(benchmark).version_file)) as f:
        f.write("")
    if units is not None:
        zr2015_tables(os.path.join(out, "details"), info, units, values, benchmark)


def summary_lines(result: dict) -> str:
    """`<score file>: <line>` for the cross_/within_ means (the variants are in the files)."""
    per = stage_metrics(result, _nfolds(result), result.get("ci"), suffixes=("",))
    return "".join(f"{stage}: {format_line(m)}\n" for stage, ms in per.items() for m in ms)


def _nfolds(result: dict) -> dict:
    return {k: len(result.get("folds", {}).get(k, [])) for k in ("cross", "within")}
