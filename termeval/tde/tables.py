"""Per-file and per-speaker tables of the term discovery benchmarks (pyannote.metrics' report():
one row per file, TOTAL last): details/per_file.tsv and details/per_speaker.tsv with the
coverage, token, type and boundary counts and P/R/F of each recording or speaker, rows in the
data dir's order (files C-sorted as in reco2dur, speakers as in spk2utt).

The counts come from the statistics the benchmark already computed (zrc2020: the per-file and
per-speaker unit tables of termeval.tde.zrc2020.units; zr2015/zr2017: the fold tables of
termeval.tde.zr2015.units, summed over the folds of a fold set). TOTAL holds the corpus counts and
the reported scores: coverage, token and boundary counts add up over files and speakers; a type
is counted once per file (or speaker) that has it, so the type columns of the rows do not add
up to the corpus's distinct types and TOTAL takes the corpus-wide counts.
"""
from __future__ import annotations

import os
from typing import Sequence

import numpy as np

from termeval.core.numbers import fmt_value
from termeval.core.textio import atomic_write
from termeval.tde.zr2015.units import COLUMNS, SETS, build
from termeval.tde.zrc2020.units import tables

# the generic count columns, in table order: (name, its metric family, role)
COUNTS = ("coverage_hit", "coverage_total", "token_hit", "token_discovered", "token_gold",
          "type_hit", "type_discovered", "type_gold", "boundary_hit", "boundary_discovered",
          "boundary_gold_hit", "boundary_gold")


def _ratio(a: float, b: float) -> float | None:
    return a / b if b else None


def _f(p: float | None, r: float | None) -> float | None:
    if p is None or r is None:
        return None
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def metrics(c: dict[str, float]) -> dict[str, float | None]:
    """Coverage and P/R/F of one row from its counts (the definitions of the scores)."""
    out = {"coverage": _ratio(c["coverage_hit"], c["coverage_total"])}
    for fam in ("token", "type", "boundary"):
        p = _ratio(c[f"{fam}_hit"], c[f"{fam}_discovered"])
        # zr2015/zr2017 count boundary hits of the discovered and of the gold side apart
        r = _ratio(c.get(f"{fam}_gold_hit", c[f"{fam}_hit"]), c[f"{fam}_gold"])
        out.update({f"{fam}_precision": p, f"{fam}_recall": r, f"{fam}_fscore": _f(p, r)})
    return out


HEADER = ["coverage_hit", "coverage_total", "coverage",
          "token_hit", "token_discovered", "token_gold", "token_precision", "token_recall", "token_fscore",
          "type_hit", "type_discovered", "type_gold", "type_precision", "type_recall", "type_fscore",
          "boundary_hit", "boundary_discovered", "boundary_gold_hit", "boundary_gold", "boundary_precision",
          "boundary_recall", "boundary_fscore"]


def _count(x: float) -> str:
    """A count column: an integer (a non-integral sum prints as a value, core.numbers)."""
    return str(int(x)) if x.is_integer() and abs(x) < 2 ** 53 else fmt_value(x)


def table_text(key: str, ids: Sequence[str], X: np.ndarray, total_counts: dict[str, float],
               total_scores: dict[str, float | None] | None = None, prefix: str = "") -> str:
    """TSV text: `key` then HEADER columns, one row per id (X: len(ids) x COUNTS), TOTAL last.
    TOTAL's metrics are `total_scores` when given (the reported ones), else computed from
    total_counts."""
    lines = [f"{key}\t" + "\t".join(prefix + h for h in HEADER)]
    rows = [(i, dict(zip(COUNTS, map(float, x)))) for i, x in zip(ids, np.asarray(X))]
    rows.append(("TOTAL", {k: float(total_counts[k]) for k in COUNTS}))
    for i, c in rows:
        m = metrics(c)
        if i == "TOTAL" and total_scores is not None:
            m = {k: total_scores.get(k) for k in m}
        lines.append(i + "\t" + "\t".join(_count(c[h]) if h in c else fmt_value(m[h]) for h in HEADER))
    return "\n".join(lines) + "\n"


def write_tables(details_dir: str, files: tuple[Sequence[str], np.ndarray],
                 speakers: tuple[Sequence[str], np.ndarray], total_counts: dict[str, float],
                 total_scores: dict[str, float | None] | None = None) -> None:
    """details/per_file.tsv and details/per_speaker.tsv (written whole or not at all)."""
    for name, key, (ids, X) in (("per_file.tsv", "file", files), ("per_speaker.tsv", "speaker", speakers)):
        with atomic_write(os.path.join(details_dir, name)) as f:
            f.write(table_text(key, ids, X, total_counts, total_scores))


# ----------------------------------------------------------------------------- zrc2020

# termeval.tde.zrc2020.units FILE_COLUMNS -> the generic count columns
ZRC2020_COLUMNS = ("cov_hit", "cov_n", "tok_hit", "tok_n", "tok_gold", "type_hit", "type_seen", "type_gold",
                   "bnd_hit", "bnd_disc", "bnd_hit", "bnd_gold")


def zrc2020_tables(details_dir: str, corpus, shards, parts: dict, counts: dict) -> None:
    """The two tables of a zrc2020 run from the merge's intermediate arrays (the unit tables
    of termeval.tde.zrc2020.units, by file and by speaker); TOTAL's metrics are computed from the
    corpus counts (equal to the reported scores: tests/test_tde_tables.py)."""
    out = []
    for unit in ("file", "speaker"):
        t = tables(corpus, shards, parts, unit)[1]
        idx = [t.columns.index(c) for c in ZRC2020_COLUMNS]
        out.append((t.ids, t.X[:, idx]))
    X = out[0][1]
    total = dict(zip(COUNTS, X.sum(axis=0).tolist()))
    total.update(type_hit=counts["type_hits"], type_discovered=counts["types_seen"], type_gold=counts["gold_types"])
    write_tables(details_dir, out[0], out[1], total)


# ----------------------------------------------------------------------------- zr2015 / zr2017

ZR2015_COLUMNS = ("cov_num", "cov_den", "tok_hit", "tok_disc", "tok_gold", "type_hit", "type_seen", "type_gold",
                  "bnd_dhit", "bnd_disc", "bnd_ghit", "bnd_gold")


def zr2015_tables(details_dir: str, info: dict, packed_units: dict, values: dict, benchmark: str) -> None:
    """The tables of a zr2015/zr2017 run from its fold statistics (`info`: the prepared run's
    unit_ids and nfolds; `packed_units[set][fold]`: termeval.tde.zr2015.units.pack of each fold):
    counts of each file summed over the folds of the set; per_file.tsv/per_speaker.tsv for the
    cross-speaker folds, per_file_within.tsv/per_speaker_within.tsv for the within-speaker ones.
    The scores are means of per-fold values, so TOTAL shows the reported `cross_`/`within_`
    scores next to the summed counts (with one fold, --folds none, they are the ratios of the
    counts)."""
    ui = info.get("unit_ids")
    if ui is None:
        return
    cols = [COLUMNS["file"].index(c) for c in ZR2015_COLUMNS]
    files = list(ui["files"])
    spk_ids, owner = np.unique(np.asarray(ui["speakers"], dtype=str), return_inverse=True)
    for s in SETS:
        packed = [(packed_units[s].get(i) or {}).get("file") for i in range(info["nfolds"][s])]
        t = build("file", "file", files, np.arange(len(files)), {s: packed}, benchmark)
        X = t.X[s].sum(axis=1)[:, cols]                     # files x columns, summed over folds
        S = np.zeros((len(spk_ids), X.shape[1]))
        np.add.at(S, owner.ravel(), X)
        total = dict(zip(COUNTS, X.sum(axis=0).tolist()))
        scores = {k: values.get(f"{s}_{k}") for k in metrics(total)}
        suffix = "" if s == "cross" else "_within"
        for name, key, ids, M in ((f"per_file{suffix}.tsv", "file", files, X),
                                  (f"per_speaker{suffix}.tsv", "speaker", spk_ids.tolist(), S)):
            with atomic_write(os.path.join(details_dir, name)) as f:
                f.write(table_text(key, ids, M, total, scores))
