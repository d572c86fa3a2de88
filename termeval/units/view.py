"""What report.html and --textgrids show of a unit scoring run (score_units, score_discophon):
the per-utterance, per-phone and mapping tables, the confusion matrix P(phone | unit) as a
heatmap, and per recording a timeline of the gold phones (10 ms frames), the units, the units
mapped to phones (the run's mapping), and the boundaries of the mapped units as discophon
counts them (units/boundaries.py): each gold boundary (a phone change) has a window of +-20 ms
split halfway to its neighbours; a hit has a mapped-unit boundary in its window (marked at the
gold boundary), a missed one none, and a spurious mark is a mapped-unit boundary in no window or
not the first of its window. Summed over the recordings: bnd_hit, bnd_ref - bnd_hit and
bnd_pred - bnd_hit of details/.../per_utterance.tsv.

Fed by what the stage holds: the gold frames and unit sequences (score_units), or the first
files of each (language, split) kept by the jobs (score_discophon: `head`, `Head`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

import numpy as np

from termeval.report.timeline import Recording, Tier
from termeval.units.boundaries import change_times, file_statuses
from termeval.units.report import probability_order

NOTES = ("Timeline: the gold phones (10 ms frames), the units, and the units mapped to phones by the run's "
         "mapping; boundary hits and errors of the mapped units by discophon's rule: each gold phone boundary "
         "has a window of +-20 ms split halfway to its neighbours; hit (at the gold boundary): a mapped-unit "
         "boundary in its window; missed: none; spurious: a mapped-unit boundary in no window, or after the "
         "first of its window.",)
# score_discophon: the rows of each pair's per-utterance table in the page (the file has them all)
PAIR_UTTERANCE_ROWS = 100


def tables(d: str, name: str = "", rows: int | None = None) -> tuple[tuple, ...]:
    """The tables of details dir `d` (titles prefixed by `name`)."""
    pre = f"{name}: " if name else ""
    return ((f"{pre}per utterance", f"{d}/per_utterance.tsv", *([rows] if rows else [])),
            (f"{pre}per phone", f"{d}/per_phone.tsv"),
            (f"{pre}unit -> phone mapping", f"{d}/mapping.tsv"))


def plots(d: str) -> tuple[dict, ...]:
    return ({"kind": "bars", "table": f"{d}/per_utterance.tsv", "label": "utterance", "title": "Per utterance",
             "values": ["per", "bnd_precision", "bnd_recall"], "ylabel": "value"},
            {"kind": "bars", "table": f"{d}/per_phone.tsv", "label": "phone", "values": ["share", "best_unit_share"],
             "title": "Per phone: its share of the frames, the share of its most frequent unit", "ylabel": "share"})


def confusion(count: np.ndarray, names: Sequence[str], title: str = "P(phone | unit)") -> dict:
    """The heatmap spec of P(phone | unit): the phones seen (rows, discophon's order), the units
    seen grouped by their most probable phone (as the confusion plot of details/)."""
    units, proba = probability_order(count)
    keep = count.sum(axis=1) > 0
    return {"kind": "heatmap", "values": proba[keep], "rows": [n for n, k in zip(names, keep.tolist()) if k],
            "columns": [f"unit {u}" for u in units.tolist()], "title": title,
            "xlabel": f"units ({len(units)} seen), grouped by their most probable phone", "ylabel": "phone"}


def _runs(seq: np.ndarray, step: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(start s, end s, value) of the runs of equal values of a sequence of `step` s each."""
    if not len(seq):
        return np.zeros(0), np.zeros(0), seq
    cut = np.flatnonzero(np.r_[True, seq[1:] != seq[:-1]])
    ends = np.r_[cut[1:], len(seq)]
    return cut * step, ends * step, seq[cut]


@dataclass
class Head:
    """The recordings a timeline shows: gold frames (phone codes into `labels`) and the unit
    sequence of each (None: no units), the mapping of unit ids to rows named `rows`."""
    files: list[str]
    labels: list[str]
    phone: np.ndarray          # codes, files concatenated
    pstarts: np.ndarray
    units: np.ndarray          # unit ids, the files' sequences concatenated
    ustarts: np.ndarray
    has_units: np.ndarray      # bool per file
    unit_row: np.ndarray
    rows: list[str]
    step_ms: int


def recording(h: Head, f: int, name: str | None = None) -> Recording:
    g = h.phone[h.pstarts[f]:h.pstarts[f + 1]]
    on, off, code = _runs(g, 0.01)
    tiers = [Tier("phones (gold)", on, off, code, h.labels)]
    end = len(g) * 0.01
    if h.has_units[f]:
        u = h.units[h.ustarts[f]:h.ustarts[f + 1]]
        step = h.step_ms / 1000.0
        uon, uoff, uval = _runs(u, step)
        mapped = h.unit_row[u]
        mon, moff, mval = _runs(mapped, step)
        gt = change_times(g, np.array([0, len(g)]), 10)[1]
        pt = change_times(mapped, np.array([0, len(mapped)]), h.step_ms)[1]
        hit, first = file_statuses(gt, pt)
        t = np.r_[gt[~hit], pt[~first]] / 1000.0
        status = np.r_[np.full(int((~hit).sum()), "missed", dtype=object), np.full(int((~first).sum()), "spurious",
                                                                                    dtype=object)]
        order = np.argsort(t, kind="stable")
        tiers += [Tier("units", uon, uoff, uval, colour="class"),
                  Tier("phones (mapped units)", mon, moff, mval, h.rows, colour="class"),
                  Tier("boundary hits", gt[hit] / 1000.0, None, ["hit"] * int(hit.sum()), colour="hit"),
                  Tier("boundary errors", t[order], None, status[order], colour="status")]
        end = max(end, len(u) * step)
    return Recording(name or h.files[f], 0.0, end, tiers)


def recordings(h: Head, limit: int | None) -> Iterator[Recording]:
    """The first `limit` files (None: all) in the gold's order."""
    n = len(h.files) if limit is None else min(limit, len(h.files))
    for f in range(n):
        yield recording(h, f)


def head(gold, units, unit_of: np.ndarray, unit_row: np.ndarray, rows: Sequence[str], step_ms: int,
         n: int | None = None) -> Head:
    """The first n gold files (None: all) and their units: views of the stage's arrays when n
    is None, else copies of what they need (what a discophon job keeps)."""
    k = len(gold.files) if n is None else min(n, len(gold.files))
    up = np.asarray(unit_of[:k], np.int64)
    has = up >= 0
    if n is None and np.array_equal(up, np.arange(k)):      # the units in the gold's order: views
        return Head(list(gold.files), list(gold.labels), gold.phone, gold.starts, units.values, units.starts, has,
                    unit_row, list(rows), step_ms)
    pst = gold.starts[:k + 1]
    phone = gold.phone[pst[0]:pst[-1]].astype(np.int32)
    lens = np.where(has, units.starts[np.maximum(up, 0) + 1] - units.starts[np.maximum(up, 0)], 0)
    ust = np.r_[0, np.cumsum(lens)].astype(np.int64)
    seqs = [units.values[units.starts[u]:units.starts[u + 1]] for u in up[has].tolist()]
    vals = np.concatenate(seqs).astype(np.int32) if seqs else np.zeros(0, np.int32)
    return Head(list(gold.files[:k]), list(gold.labels), phone, pst - pst[0], vals, ust, has, np.asarray(unit_row),
                list(rows), step_ms)


def pair_recordings(heads: Sequence[tuple[str, Head]], limit: int | None) -> Iterator[Recording]:
    """score_discophon: the kept files of every (language, split) taken in turn (the first file
    of each pair, then the second, ...), named `<code>-<split>/<file>`, the first `limit`."""
    done = 0
    for f in range(max((len(h.files) for _, h in heads), default=0)):
        for name, h in heads:
            if f < len(h.files) and (limit is None or done < limit):
                done += 1
                yield recording(h, f, f"{name}/{h.files[f]}")
