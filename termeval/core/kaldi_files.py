"""Strict readers of the Kaldi data-dir files, one per kind, used by every caller:

  segments            `<utt> <reco> <start> <end>` (end -1 = to the end of the recording)
  utt2spk             `<utt> <speaker>`
  reco2dur / utt2dur  `<id> <seconds>`
  phones.txt / words.txt   OpenFst symbol tables `<symbol> <integer-id>`

Strict means: UTF-8 (BOM tolerated, CRLF tolerated), no NUL byte, the exact number of fields
on every non-blank line, finite numbers, no duplicate keys, and an `InputError` naming the
file and line for the first problem. All go through `textio.read_table` (numpy tokeniser), so
a million-line segments file reads in about a second.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from termeval.core.errors import InputError
from termeval.core.textio import read_table


def _first_duplicate(keys: list[str]) -> tuple[int, int] | None:
    """(row, first row) of the first key seen twice, or None."""
    seen: dict[str, int] = {}
    for r, k in enumerate(keys):
        j = seen.setdefault(k, r)
        if j != r:
            return r, j
    return None


def read_symbol_table(path: str) -> dict[str, str]:
    """OpenFst symbol table (`<symbol> <int>`) as {id-text: symbol}; ids are ASCII digits."""
    cols = read_table(path, (2,), "'<symbol> <integer-id>'", strings=(0, 1))
    syms = cols.strings(0)
    ids = cols.strings(1)
    table: dict[str, str] = {}
    for r, (s, i) in enumerate(zip(syms, ids)):
        if not (i.isascii() and i.isdigit()):  # '²'.isdigit() is True but int('²') fails
            raise InputError(f"symbol id '{i}' is not a non-negative integer", path, int(cols.line[r]))
        key = str(int(i))
        if key in table:
            raise InputError(f"duplicate symbol id {i}", path, int(cols.line[r]))
        table[key] = s
    return table


@dataclass
class Segment:
    reco: str
    start: float
    end: float
    line: int


def read_segments(path: str) -> dict[str, Segment]:
    """Kaldi `segments`: {utt: Segment}; start >= 0 and end > start (or end = -1)."""
    cols = read_table(path, (4,), "'<utt> <reco> <start> <end>'", {2: "segment start", 3: "segment end"},
                      (0, 1))
    utts, recos = cols.strings(0), cols.strings(1)
    start, end = cols.floats(2), cols.floats(3)
    out: dict[str, Segment] = {}
    for r, u in enumerate(utts):
        ln = int(cols.line[r])
        if start[r] < 0:
            raise InputError(f"negative segment start {cols.token(r, 2)}", path, ln)
        if end[r] != -1 and end[r] <= start[r]:
            raise InputError("segment end is not after its start", path, ln)
        if u in out:
            raise InputError(f"duplicate utterance id '{u}' (first on line {out[u].line})", path, ln)
        out[u] = Segment(recos[r], float(start[r]), float(end[r]), ln)
    return out


def read_utt2spk(path: str) -> dict[str, tuple[str, int]]:
    """Kaldi `utt2spk`: {utt: (speaker, line)}."""
    cols = read_table(path, (2,), "'<file> <speaker>'", strings=(0, 1))
    out: dict[str, tuple[str, int]] = {}
    for r, (u, s) in enumerate(zip(cols.strings(0), cols.strings(1))):
        if u in out:
            raise InputError(f"duplicate file id '{u}' (first on line {out[u][1]})", path, int(cols.line[r]))
        out[u] = (s, int(cols.line[r]))
    return out


def read_durations(path: str, positive: bool = True) -> dict[str, float]:
    """Kaldi `reco2dur`/`utt2dur`: {id: seconds}, in file order. Values must be finite and
    > 0 (>= 0 when positive=False); a value like 1e400 is reported, not turned into inf."""
    cols = read_table(path, (2,), "'<id> <duration>'", {1: "duration"}, (0,))
    keys = cols.strings(0)
    dur = cols.floats(1)
    bad = (dur <= 0) if positive else (dur < 0)
    if bad.any():
        r = int(np.argmax(bad))
        what = "zero" if dur[r] == 0 else "negative"
        raise InputError(f"{what} duration {cols.token(r, 1)} (durations must be {'> 0' if positive else '>= 0'})",
                         path, int(cols.line[r]))
    dup = _first_duplicate(keys)
    if dup is not None:
        r, j = dup
        raise InputError(f"duplicate id '{keys[r]}' (first on line {int(cols.line[j])})", path, int(cols.line[r]))
    return dict(zip(keys, dur.tolist()))
