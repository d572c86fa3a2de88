"""Praat TextGrids of a run's timeline (`--textgrids true`): one `<recording>.TextGrid` per
recording, in Praat's long text format (what Praat writes with "Save as text file"; the
`textgrid` package and termeval/gold/textgrid.py read it), written whole or not at all.

Each Tier of the Recording (termeval/report/timeline.py) becomes a tier of the same name: an
IntervalTier (gaps filled with empty intervals, as Praat requires) or a TextTier of points.
Intervals that overlap (the fragments of term discovery, the detections of term detection) are
laid out in lanes, one tier each: `fragments`, `fragments 2`, ... Zero-length intervals
cannot stand in a Praat tier and are left out; points at one time are joined into one mark
(`missed+spurious`). Times are written with every digit (the shortest text of the double).

Steps that share an exp dir share its details/textgrids/: each names its tiers `<stage>: <tier>`
(`zrc2020: phones`, `segmentation: boundary errors`) and, when it updates a recording's file,
replaces only its own tiers and keeps the others as they were (`read_grid` reads back the files
this writer wrote; `merged`). The grid's span grows to cover every tier, a kept interval tier
gaining empty intervals at its ends.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from termeval.core.errors import InputError
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


def _tiers(tier: Tier, lo: float, hi: float, prefix: str = "") -> list[list[str]]:
    """The Praat tiers of one Tier, named prefix + its name (several lanes when its intervals
    overlap)."""
    name = prefix + tier.name
    start = np.asarray(tier.start, dtype=np.float64)
    text = tier.texts()
    if tier.points:
        order = np.argsort(start, kind="stable")
        return [_point_tier(name, lo, hi, start[order].tolist(), [text[i] for i in order.tolist()])]
    end = np.asarray(tier.end, dtype=np.float64)
    keep = np.flatnonzero(end > start)
    keep = keep[np.lexsort((end[keep], start[keep]))]
    lane = lanes(start[keep], end[keep])
    out = []
    for k in range(int(lane.max()) + 1 if len(lane) else 1):
        sel = keep[lane == k]
        out.append(_interval_tier(name if k == 0 else f"{name} {k + 1}", lo, hi, start[sel].tolist(),
                                  end[sel].tolist(), [text[i] for i in sel.tolist()]))
    return out


@dataclass
class GridTier:
    """A tier as a TextGrid file holds it: its name and rows, (xmin, xmax, text) of every
    interval (gap fillers included) or (time, mark) of every point."""
    name: str
    points: bool
    rows: list


def _span(rec: Recording) -> tuple[float, float]:
    lo, hi = float(rec.start), float(rec.end)
    for t in rec.tiers:
        if len(t):
            lo = min(lo, float(np.min(t.start)))
            hi = max(hi, float(np.max(t.start if t.points else t.end)))
    return lo, hi


def _kept(tier: GridTier, lo: float, hi: float) -> list[str]:
    """A kept tier over the grid's [lo, hi]: its rows as they were, an interval tier extended
    by an empty interval at an end the grid has grown past."""
    if tier.points:
        return _point_tier(tier.name, lo, hi, [t for t, _ in tier.rows], [x for _, x in tier.rows])
    rows = list(tier.rows)
    if rows and lo < rows[0][0]:
        rows.insert(0, (lo, rows[0][0], ""))
    if rows and hi > rows[-1][1]:
        rows.append((rows[-1][1], hi, ""))
    return _interval_tier(tier.name, lo, hi, [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])


def text_of(rec: Recording | None, prefix: str = "", kept: list[GridTier] | None = None, at: int | None = None) -> str:
    """The TextGrid of one recording: its tiers named `prefix` + name, inserted at position `at`
    (None: after) among the `kept` tiers of an earlier file; the span covers every item."""
    kept = kept or []
    lo, hi = _span(rec) if rec is not None else (np.inf, -np.inf)
    for k in kept:
        if k.rows:
            lo = min(lo, k.rows[0][0])
            hi = max(hi, max(r[0] for r in k.rows) if k.points else k.rows[-1][1])
    lo, hi = float(lo), float(hi)
    mine = [lines for t in (rec.tiers if rec is not None else ()) for lines in _tiers(t, lo, hi, prefix)]
    others = [_kept(k, lo, hi) for k in kept]
    at = len(others) if at is None else at
    tiers = others[:at] + mine + others[at:]
    head = ['File type = "ooTextFile"', 'Object class = "TextGrid"', "", f"xmin = {lo!r} ", f"xmax = {hi!r} ",
            "tiers? <exists> ", f"size = {len(tiers)} ", "item []: "]
    body = []
    for i, lines in enumerate(tiers, 1):
        body.append(lines[0] % i)
        body.extend(lines[1:])
    return "\n".join(head + body) + "\n"


# ----------------------------------------------------------------------------- reading back

_HEAD = ['File type = "ooTextFile"', 'Object class = "TextGrid"', ""]
_LINE = re.compile(r'^ *([a-z?]+(?: \[\d*\])?|intervals: size|points: size|tiers\?) = (.*) $')


def _value(line: str, key: str) -> str:
    m = _LINE.match(line)
    if m is None or m.group(1) != key:
        raise ValueError(f"expected '{key} = ...', got {line[:60]!r}")
    return m.group(2)


def _text(value: str) -> str:
    if len(value) < 2 or value[0] != '"' or value[-1] != '"':
        raise ValueError(f"expected a quoted text, got {value[:60]!r}")
    return value[1:-1].replace('""', '"')


def read_grid(text: str) -> list[GridTier]:
    """The tiers of a TextGrid this module wrote (its long text layout, line for line);
    ValueError on anything else."""
    lines = text.split("\n")
    if lines[:3] != _HEAD or len(lines) < 8 or lines[5] != "tiers? <exists> " or lines[7] != "item []: ":
        raise ValueError("not a TextGrid written by termeval (its header)")
    n = int(_value(lines[6], "size"))
    i, tiers = 8, []
    for _ in range(n):
        kind = _text(_value(lines[i + 1], "class"))
        name = _text(_value(lines[i + 2], "name"))
        points = kind == "TextTier"
        if not points and kind != "IntervalTier":
            raise ValueError(f"unknown tier class {kind!r}")
        size = int(_value(lines[i + 5], "points: size" if points else "intervals: size"))
        i += 6
        rows: list = []
        if points:
            for _ in range(size):
                rows.append((float(_value(lines[i + 1], "number")), _text(_value(lines[i + 2], "mark"))))
                i += 3
        else:
            for _ in range(size):
                rows.append((float(_value(lines[i + 1], "xmin")), float(_value(lines[i + 2], "xmax")),
                             _text(_value(lines[i + 3], "text"))))
                i += 4
        tiers.append(GridTier(name, points, rows))
    if lines[i:] != [""]:
        raise ValueError("text after the last tier")
    return tiers


def _old(path: str) -> list[GridTier]:
    """The tiers of an earlier file (InputError when it is not one termeval wrote: edited?)."""
    try:
        with open(path, encoding="utf-8") as f:
            return read_grid(f.read())
    except (ValueError, IndexError, UnicodeDecodeError) as e:
        raise InputError(f"cannot update this TextGrid, not one termeval wrote ({e}): move it away (or remove "
                         "details/textgrids) and run the step again", path) from None


def merged(rec: Recording | None, prefix: str, old_path: str | None) -> str | None:
    """A recording's TextGrid when its earlier file `old_path` (None: none) is updated: the
    earlier tiers not named `prefix...` kept, the recording's own (named prefix + name) in the
    place of the earlier own ones; None when no tier is left."""
    kept = _old(old_path) if old_path is not None and os.path.isfile(old_path) else []
    own = [k for k, t in enumerate(kept) if t.name.startswith(prefix)]
    at = sum(1 for k in range(own[0]) if not kept[k].name.startswith(prefix)) if own else None
    kept = [t for t in kept if not t.name.startswith(prefix)]
    if rec is None and not any(t.rows for t in kept):
        return None
    return text_of(rec, prefix, kept, at)


def write_all(directory: str, recordings: Iterable[Recording], prefix: str = "",
              old_dir: str | None = None) -> list[str]:
    """<directory>/<recording>.TextGrid for every recording (atomic files), tiers named `prefix`
    + name; with `old_dir`, each merged with the file of the same name there (`merged`).
    Returns the file names. Two recordings whose names map to one file name get a numbered suffix."""
    os.makedirs(directory, exist_ok=True)
    seen: set[str] = set()
    for rec in recordings:
        name = file_name(rec.name)
        k = 1
        while name in seen:
            k += 1
            name = file_name(f"{rec.name}_{k}")
        seen.add(name)
        text = merged(rec, prefix, os.path.join(old_dir, name) if old_dir else None)
        with atomic_write(os.path.join(directory, name)) as f:
            f.write(text)
    return sorted(seen)


def strip_all(directory: str, old_dir: str, prefix: str, skip: set[str]) -> list[str]:
    """The files of `old_dir` (but `skip`) holding tiers named `prefix...`, written into
    `directory` without them (a file left without tiers is not written); returns their names
    (each one the run owns: replaced, or withdrawn)."""
    mark = f'name = "{prefix}'.encode("utf-8")
    touched = []
    for name in sorted(os.listdir(old_dir)):
        path = os.path.join(old_dir, name)
        if name in skip or not name.endswith(".TextGrid") or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            if mark not in f.read():
                continue
        touched.append(name)
        text = merged(None, prefix, path)
        if text is not None:
            os.makedirs(directory, exist_ok=True)
            with atomic_write(os.path.join(directory, name)) as f:
                f.write(text)
    return touched
