"""Praat TextGrids of a run's timeline (`--textgrids true`): one `<recording>.TextGrid` per
recording, in Praat's long text format (what Praat writes with "Save as text file"; the
`textgrid` package and termeval/gold/textgrid.py read it), written whole or not at all.

Each Tier of the Recording (termeval/report/timeline.py) becomes a tier of the same name: an
IntervalTier (gaps filled with empty intervals, as Praat requires) or a TextTier of points.
Intervals that overlap (the fragments of term discovery, the detections of term detection) are
laid out in lanes, one tier each: `fragments`, `fragments 2`, ... Zero-length intervals
cannot stand in a Praat tier and are left out; points at one time are joined into one mark
(`missed+spurious`). Times are written with every digit (the shortest text of the double).
"""
from __future__ import annotations

import os
import re
from typing import Iterable

import numpy as np

from termeval.core.textio import atomic_write
from termeval.report.timeline import Recording, Tier, lanes

_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]")


def file_name(recording: str) -> str:
    """`<recording>.TextGrid`, with what a file name cannot hold replaced by '_' (a recording id
    is one token of a Kaldi file: never empty, never a space)."""
    name = _UNSAFE.sub("_", recording)
    return (name if name not in ("", ".", "..") else "_" + name) + ".TextGrid"


def _q(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _interval_tier(name: str, lo: float, hi: float, start: list, end: list, text: list[str]) -> list[str]:
    """An IntervalTier from [lo, hi] of sorted, non-overlapping intervals, gaps filled."""
    rows: list[tuple[float, float, str]] = []
    t = lo
    for s, e, x in zip(start, end, text):
        if s > t:
            rows.append((t, s, ""))
        rows.append((s, e, x))
        t = e
    if hi > t or not rows:
        rows.append((t, hi, ""))
    out = ['    item [%d]:', '        class = "IntervalTier" ', f"        name = {_q(name)} ",
           f"        xmin = {lo!r} ", f"        xmax = {hi!r} ", f"        intervals: size = {len(rows)} "]
    for i, (s, e, x) in enumerate(rows, 1):
        out += [f"        intervals [{i}]:", f"            xmin = {s!r} ", f"            xmax = {e!r} ",
                f"            text = {_q(x)} "]
    return out


def _point_tier(name: str, lo: float, hi: float, time: list, text: list[str]) -> list[str]:
    joined: list[tuple[float, str]] = []
    for t, x in zip(time, text):
        if joined and joined[-1][0] == t:
            if x not in joined[-1][1].split("+"):
                joined[-1] = (t, joined[-1][1] + "+" + x)
        else:
            joined.append((t, x))
    out = ['    item [%d]:', '        class = "TextTier" ', f"        name = {_q(name)} ",
           f"        xmin = {lo!r} ", f"        xmax = {hi!r} ", f"        points: size = {len(joined)} "]
    for i, (t, x) in enumerate(joined, 1):
        out += [f"        points [{i}]:", f"            number = {t!r} ", f"            mark = {_q(x)} "]
    return out


def _tiers(tier: Tier, lo: float, hi: float) -> list[list[str]]:
    """The Praat tiers of one Tier (several lanes when its intervals overlap)."""
    start = np.asarray(tier.start, dtype=np.float64)
    text = tier.texts()
    if tier.points:
        order = np.argsort(start, kind="stable")
        return [_point_tier(tier.name, lo, hi, start[order].tolist(), [text[i] for i in order.tolist()])]
    end = np.asarray(tier.end, dtype=np.float64)
    keep = np.flatnonzero(end > start)
    keep = keep[np.lexsort((end[keep], start[keep]))]
    lane = lanes(start[keep], end[keep])
    out = []
    for k in range(int(lane.max()) + 1 if len(lane) else 1):
        sel = keep[lane == k]
        out.append(_interval_tier(tier.name if k == 0 else f"{tier.name} {k + 1}", lo, hi, start[sel].tolist(),
                                  end[sel].tolist(), [text[i] for i in sel.tolist()]))
    return out


def text_of(rec: Recording) -> str:
    """The TextGrid of one recording; its span covers every item."""
    lo, hi = float(rec.start), float(rec.end)
    for t in rec.tiers:
        if len(t):
            lo = min(lo, float(np.min(t.start)))
            hi = max(hi, float(np.max(t.start if t.points else t.end)))
    tiers = [lines for t in rec.tiers for lines in _tiers(t, lo, hi)]
    head = ['File type = "ooTextFile"', 'Object class = "TextGrid"', "", f"xmin = {lo!r} ", f"xmax = {hi!r} ",
            "tiers? <exists> ", f"size = {len(tiers)} ", "item []: "]
    body = []
    for i, lines in enumerate(tiers, 1):
        body.append(lines[0] % i)
        body.extend(lines[1:])
    return "\n".join(head + body) + "\n"


def write_all(directory: str, recordings: Iterable[Recording]) -> int:
    """<directory>/<recording>.TextGrid for every recording (atomic files); returns how many.
    Two recordings whose names map to one file name get a numbered suffix."""
    os.makedirs(directory, exist_ok=True)
    seen: set[str] = set()
    n = 0
    for rec in recordings:
        name = file_name(rec.name)
        k = 1
        while name in seen:
            k += 1
            name = file_name(f"{rec.name}_{k}")
        seen.add(name)
        with atomic_write(os.path.join(directory, name)) as f:
            f.write(text_of(rec))
        n += 1
    return n
