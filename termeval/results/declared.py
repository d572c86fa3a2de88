"""The result tables every benchmark declares (termeval/core/declaration.py Table, Measure):
which tables RESULTS.md has and in which order, each one's headline columns, and per metric
whether lower is better (--bold-best) and whether --percent shows it in percent. A metric no
table declares is shown plain (not in percent, higher is better); a table without headline
columns shows its first ten metrics in the order they were written."""
from __future__ import annotations

from termeval.core.declaration import Measure, Table
from termeval.quesst.options import TABLES as QUESST_TABLES
from termeval.resources.options import TABLES as RESOURCES_TABLES
from termeval.segmentation.options import TABLES as SEGMENTATION_TABLES
from termeval.std.options import TABLES as STD_TABLES
from termeval.tde.benchmarks import TABLES as TDE_TABLES
from termeval.textseg.options import TABLES as TEXTSEG_TABLES
from termeval.units.options import TABLES as UNITS_TABLES

# in the order of RESULTS.md (a table of an undeclared family comes after these, by title)
TABLES: dict[str, Table] = {t.family: t for t in (*TDE_TABLES, *STD_TABLES, *QUESST_TABLES, *RESOURCES_TABLES,
                                                   *SEGMENTATION_TABLES, *UNITS_TABLES, *TEXTSEG_TABLES)}


def _by_name() -> dict[str, Measure]:
    out: dict[str, Measure] = {}
    for t in TABLES.values():
        for m in t.measures:
            seen = out.setdefault(m.name, m)
            if (seen.lower_is_better, seen.percent) != (m.lower_is_better, m.percent):
                raise ValueError(f"{m.name}: declared with other flags in table {t.family}")
    return out


MEASURES = _by_name()


def headline(family: str) -> list[str] | None:
    """The headline columns of a family's table (None: not declared, or no headline)."""
    t = TABLES.get(family)
    cols = t.columns() if t is not None else []
    return cols or None


def lower_is_better(metric: str) -> bool:
    m = MEASURES.get(metric)
    return m is not None and m.lower_is_better


def is_percent(metric: str) -> bool:
    """--percent shows it times 100 (F-scores, precisions, recalls, coverage and NED, and their
    _std, as declared)."""
    m = MEASURES.get(metric)
    return m is not None and m.percent
