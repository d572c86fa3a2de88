"""The details tables a stage has just written, read back for report.html (its own output,
bounded: the first MAX_ROWS rows; the file has them all).

Three layouts are read: TSV with a header line (`details/per_term.tsv`), CSV without quoting
(`details/alignment.csv`), and the score-dir tables whose header is a `# name name ...` comment
and whose columns are separated by spaces, the last one possibly holding spaces
(`details/clusters.txt`: its top transcription).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

MAX_ROWS = 1000


@dataclass
class Table:
    title: str
    source: str                  # the file, relative to the exp dir
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    total: int = 0               # rows in the file


def count_lines(path: str) -> int:
    n = 0
    last = b"\n"
    with open(path, "rb") as f:
        while True:
            block = f.read(1 << 20)
            if not block:
                break
            n += block.count(b"\n")
            last = block[-1:]
    return n + (last != b"\n")


def read(out: str, rel: str, title: str, max_rows: int = MAX_ROWS) -> Table | None:
    """The first max_rows rows of <out>/<rel> (None when the run did not write it)."""
    path = os.path.join(out, rel)
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        header = f.readline().rstrip("\r\n")
        if rel.endswith(".csv"):            # F4DE's alignment.csv (no field holds a comma)
            columns = header.split(",")
            split = (lambda line: line.split(","))
        elif header.startswith("#"):
            columns = header.lstrip("#").split()
            split = (lambda line: line.split(None, len(columns) - 1))
        else:
            columns = header.split("\t")
            split = (lambda line: line.split("\t"))
        rows = []
        for line in f:
            if len(rows) >= max_rows:
                break
            line = line.rstrip("\r\n")
            if line:
                rows.append(split(line))
    total = count_lines(path) - 1 if len(rows) >= max_rows else len(rows)
    return Table(title, rel, columns, rows, total)


def column(table: Table, name: str) -> list[float | None]:
    """A column's numbers (None where not a number: NA, -)."""
    if name not in table.columns:
        return []
    k = table.columns.index(name)
    out: list[float | None] = []
    for row in table.rows:
        try:
            out.append(float(row[k]))
        except (ValueError, IndexError):
            out.append(None)
    return out


def labels(table: Table, k: int = 0) -> list[str]:
    return [row[k] if k < len(row) else "" for row in table.rows]
