"""Options of the gold preparation and the interval table every reader returns: columns as
numpy arrays, file ids and labels factorised, each interval remembering its source file and
line so that any later check can name them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

import numpy as np

from termeval.core.errors import InputError

from termeval.gold.options import DEFAULT_SILENCE_LABELS  # noqa: E402,F401  (declared with the options)
DATA_FILES = ("phones", "words", "utt2spk", "spk2utt", "reco2dur")


@dataclass
class Options:
    sil_label: str = "SIL"
    silence_labels: tuple[str, ...] = DEFAULT_SILENCE_LABELS
    fill_gaps: bool = True
    drop_silence: bool = False
    sort: bool = False
    boundary_tolerance: float = 0.001
    snap_words: bool = False
    time_decimals: int = 6
    strip_stress: bool = False
    strip_position: bool = True


# --------------------------------------------------------------------------------------------
# Interval tables


@dataclass
class Intervals:
    """Intervals of one tier. Interval i: file `files[file[i]]`, label `labels[label[i]]`,
    read from `paths[src[i]]` line `line[i]` (0 when unknown)."""
    files: list[str]
    file: np.ndarray
    onset: np.ndarray
    offset: np.ndarray
    labels: list[str]
    label: np.ndarray
    line: np.ndarray
    src: np.ndarray
    paths: list[str]
    pos: np.ndarray | None = None  # CTM phones: position suffix 0 none, 1 B, 2 I, 3 E, 4 S

    def __len__(self) -> int:
        return len(self.onset)

    def error(self, i: int, message: str) -> InputError:
        line = int(self.line[i]) if len(self.line) else 0
        path = self.paths[int(self.src[i])] if len(self.src) and self.src[i] >= 0 else None
        return InputError(message, path, line or None)

    def where(self, i: int) -> str:
        """'path:line' of interval i, for messages that mention a second interval."""
        e = self.error(i, "")
        return (f"{e.path}:{e.line}" if e.line else f"{e.path}") if e.path else "(filled)"

    def take(self, idx: np.ndarray) -> "Intervals":
        return Intervals(self.files, self.file[idx], self.onset[idx], self.offset[idx], self.labels,
                         self.label[idx], self.line[idx], self.src[idx], self.paths,
                         None if self.pos is None else self.pos[idx])

    def with_files(self, files: list[str], file: np.ndarray) -> "Intervals":
        return Intervals(files, file, self.onset, self.offset, self.labels, self.label, self.line,
                         self.src, self.paths, self.pos)

    def file_name(self, i: int) -> str:
        return self.files[int(self.file[i])]

    def label_name(self, i: int) -> str:
        return self.labels[int(self.label[i])]


def factorize(names: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """(sorted unique names, index of each name). Fast when equal names come in runs."""
    n = len(names)
    if n == 0:
        return [], np.zeros(0, dtype=np.int64)
    arr = np.array(names, dtype=str) if not isinstance(names, np.ndarray) else names
    heads = np.concatenate(([0], np.flatnonzero(arr[1:] != arr[:-1]) + 1))
    uniq, inv = np.unique(arr[heads], return_inverse=True)
    codes = np.repeat(inv.astype(np.int64), np.diff(np.append(heads, n)))
    return [str(u) for u in uniq], codes


def dict_codes(names: Iterable[str]) -> tuple[list[str], np.ndarray]:
    """(table in first-seen order, codes): cheap for small vocabularies such as labels."""
    table: dict[str, int] = {}
    codes = np.fromiter((table.setdefault(x, len(table)) for x in names), dtype=np.int64)
    return list(table), codes


def relabel(table: list[str], codes: np.ndarray, fn: Callable[[str], str]) -> tuple[list[str], np.ndarray]:
    """Apply fn to every entry of a code table and merge entries that became equal."""
    new = [fn(x) for x in table]
    merged, remap = dict_codes(new)
    return merged, remap[codes] if len(codes) else codes


def make_intervals(files: Sequence[str], onset, offset, labels: Sequence[str], line, src,
                   paths: list[str]) -> Intervals:
    ftab, fcode = factorize(files)
    ltab, lcode = dict_codes(labels)
    return Intervals(ftab, fcode, np.asarray(onset, dtype=np.float64),
                     np.asarray(offset, dtype=np.float64), ltab, lcode,
                     np.asarray(line, dtype=np.int64), np.asarray(src, dtype=np.int32), paths)


def sorted_codes(table: list[str], codes: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Re-index a factorised column so that its table is sorted (C order)."""
    order = sorted(range(len(table)), key=table.__getitem__)
    rank = np.empty(len(order), dtype=np.int64)
    rank[np.array(order, dtype=np.int64)] = np.arange(len(order))
    return [table[i] for i in order], rank[codes] if len(codes) else codes



def round_times(t: np.ndarray, decimals: int) -> np.ndarray:
    """Round to `decimals` places: rint(t*10^d)/10^d is the double nearest to the decimal
    value (the division of two exact integers is correctly rounded), i.e. float('%.{d}f')."""
    scale = 10.0 ** decimals
    x = t * scale
    out = np.rint(x) / scale
    # x may itself be inexact: near a half-way point decide with Python's exact decimal rounding
    # (t * scale is off by at most half an ulp of x)
    near_tie = np.flatnonzero(np.abs(x - np.floor(x) - 0.5) <= 4 * np.spacing(np.abs(x)))
    for i in near_tie.tolist():
        out[i] = float(f"{t[i]:.{decimals}f}")
    return out
