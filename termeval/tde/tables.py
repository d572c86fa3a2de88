"""Per-file and per-speaker tables of the term discovery benchmarks (pyannote.metrics' report():
one row per file, TOTAL last): details/per_file.tsv and details/per_speaker.tsv with the
coverage, token, type and boundary counts and P/R/F of each recording or speaker, rows in the
data dir's order (files C-sorted as in reco2dur, speakers as in spk2utt).

The counts come from the statistics the benchmark already computed (zrc2020: the per-file and
per-speaker unit tables of termeval.tde.zrc2020.units, zrc2020/tables.py; zr2015/zr2017: the
fold tables of termeval.tde.zr2015.units, summed over the folds of a fold set, zr2015/tables.py). TOTAL holds the corpus counts and
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
