"""Per-unit statistics of the segmentation metrics (steps/score_segmentation.sh), for
termeval.bootstrap.

Units: recordings (`file`, the data dir's files; utterances of a `segments` file are grouped
by their recording) or speakers. Per unit (docs/uncertainty.md):
  bnd_ref, bnd_pred, bnd_hit   boundary counts at the tolerance      -> boundary P/R/F, OS, R-value
  tok_ref, tok_pred, tok_hit   token counts                          -> token P/R/F
  seg_n, o2o_hit               labelled segments, segments whose cluster the full-sample
                               one-to-one mapping sends to their label -> o2o_accuracy
  cells                        the unit's contingency cells          -> purity, inverse purity,
                               homogeneity, completeness, V-measure, NMI, m2o accuracy
All but o2o_accuracy (mapping held fixed) and the vqwordseg purity (visited cluster set held
fixed) are recomputed exactly from the resampled sums. `segments` and `clusters` are sizes of
the submission, not estimates: no interval.
"""
from __future__ import annotations

import os

import numpy as np

from termeval.bootstrap import cells
from termeval.bootstrap.engine import UnitStats, bootstrap_ci
from termeval.bootstrap.units import data_identity, save_units, units_path

COLUMNS = ["bnd_ref", "bnd_pred", "bnd_hit", "tok_ref", "tok_pred", "tok_hit", "seg_n", "o2o_hit"]


def metric_specs(pre: str, labelled: bool) -> dict[str, tuple]:
    m: dict[str, tuple] = {}
    for what, c in (("boundary", "bnd"), ("token", "tok")):
        m[f"{pre}{what}_precision"] = ("ratio", f"{c}_hit", f"{c}_pred")
        m[f"{pre}{what}_recall"] = ("ratio", f"{c}_hit", f"{c}_ref")
        m[f"{pre}{what}_fscore"] = ("fscore", f"{pre}{what}_precision", f"{pre}{what}_recall")
        if what == "boundary":
            m[f"{pre}boundary_os"] = ("os", f"{pre}boundary_precision", f"{pre}boundary_recall")
            m[f"{pre}boundary_rvalue"] = ("rvalue", f"{pre}boundary_precision", f"{pre}boundary_recall")
    if labelled:
        # at the syllable level termeval's purity is syllable_segment_purity (syllable_purity: SD-HuBERT's)
        m.update({("syllable_segment_purity" if pre + w == "syllable_purity" else pre + w): ("cells", w)
                  for w in cells.WHAT})
        m[pre + "o2o_accuracy"] = ("ratio", "o2o_hit", "seg_n")
    return m


def unit_table(stats: list[dict], merged: dict, unit: str, pre: str, labelled: bool,
               o2o: dict[str, str], visit: set[str] | None) -> UnitStats:
    """The (file or speaker) table from the job statistics and their merge."""
    owner = stats[0]["speakers"] if unit == "speaker" else stats[0]["recos"]
    utts = merged["utts"]
    ids, inv = np.unique(np.asarray([owner[u] for u in utts], dtype=str), return_inverse=True)
    nu = len(ids)
    b = merged["boundary"]
    lenient = b.shape[1] > 3      # [n_ref, n_pred, hits, reference hits]: recall from the last
    columns = COLUMNS + ["bnd_ref_hit"] if lenient else COLUMNS
    X = np.zeros((nu, len(columns)))
    np.add.at(X[:, 0:3], inv, b[:, :3].astype(np.float64))
    if lenient:
        np.add.at(X[:, 8], inv, b[:, 3].astype(np.float64))
    np.add.at(X[:, 3:6], inv, merged["token"].reshape(-1, 3).astype(np.float64))
    c = None
    if labelled:
        uc = [sum((j["utt_cells"][k] for j in stats), []) for k in range(4)]
        index = {x: i for i, x in enumerate(ids.tolist())}
        unit_of = {u: index[owner[u]] for u in set(uc[0])}
        unit_idx = np.fromiter(map(unit_of.__getitem__, uc[0]), np.int64, len(uc[0]))
        c = cells.build(unit_idx, uc[1], uc[2], np.asarray(uc[3]), nu)
        if visit is not None:
            c.visit = np.array([k in visit for k in c.clusters], dtype=bool)
        label_index = {x: i for i, x in enumerate(c.labels)}
        mapped_to = np.full(len(c.clusters), -1, dtype=np.int64)   # cluster -> its o2o label's index
        for k, name in enumerate(c.clusters):
            mapped_to[k] = label_index.get(o2o.get(name), -1)
        mapped = mapped_to[c.col] == c.row
        X[:, 6] = np.asarray(c.X.sum(axis=1)).ravel()
        X[:, 7] = np.asarray(c.X[:, np.flatnonzero(mapped)].sum(axis=1)).ravel()
    specs = metric_specs(pre, labelled)
    if lenient:
        specs[f"{pre}boundary_recall"] = ("ratio", "bnd_ref_hit", "bnd_ref")
    return UnitStats(unit, ids.tolist(), columns, X, specs, {}, c)


def ci_hook(exp_dir: str, stage: str, stats: list[dict], merged: dict, settings: dict, ref_files: list[str],
            n: int, seed: int, level: float, unit: str):
    """The hook termeval.segmentation.report.write_report calls with the exact values: writes
    units/units.<stage>_file.npz (and _speaker with --bootstrap-unit speaker), returns the
    intervals (none without resampling) and the scores.json keys data_id and bootstrap."""
    pre = settings["level"] + "_"  # the metric names of termeval.segmentation.report

    def hook(values: dict, ctx: dict) -> tuple[dict, dict]:
        labelled = bool(stats[0]["has_labels"]) and any(j["utt_cells"][0] for j in stats)
        used = None
        for u in dict.fromkeys(("file", unit)):    # the file table once when --bootstrap-unit file
            t = unit_table(stats, merged, u, pre, labelled, ctx["o2o"], ctx["visit"])
            t.metrics = {k: v for k, v in t.metrics.items() if k in values}   # a named scorer's keys only
            t.exact = {k: values.get(k) for k in t.metrics}
            save_units(units_path(exp_dir, f"{stage}_{u}"), t)
            used = t
        ci = bootstrap_ci(used, n, seed, level) if n > 0 else {}
        more = {"data_id": data_identity(ref_files, {"benchmark": "segmentation", **settings}),
                "bootstrap": {"n": n, "seed": seed, "level": level, "unit": unit}}
        return ci, more
    return hook


def reference_files(data_dir: str, segments: str | None) -> list[str]:
    """The files the scores depend on besides the submission (for data_id)."""
    ref = [os.path.join(data_dir, f) for f in ("phones", "words", "syllables", "reco2dur", "utt2spk")]
    return [f for f in ref if os.path.isfile(f)] + ([segments] if segments else [])
