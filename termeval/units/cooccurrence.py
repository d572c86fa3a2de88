"""The phone x unit co-occurrence counts of the frames units and gold phones share, and the
order discophon gives their rows.

Each unit of `step` ms is repeated step / 10 times against the 10 ms gold frames; the longer
sequence of a file is cut to the shorter (discophon refuses a difference beyond the repeat
count, fairseq cuts whatever it is). Counts are kept per file (the statistics jobs add up and
the bootstrap resamples) as cells (file, phone, unit, frames).

Rows (discophon 0.2.0 `cooccurrence_matrix`): the phones in the order of their first frame in
the cut sequences of the files in order, then `<missing-k>` rows up to n_phonemes + 1 rows;
sorted by decreasing frame count, ties in the reverse of that order (xarray's descending
sortby reverses a stable ascending sort). More distinct phones than rows is an error.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

CHUNK_FRAMES = 1 << 22     # frames expanded at once (memory bound, not the result)
FIRST_SHIFT = 32           # first-frame key: file << 32 | frame


@dataclass
class Pairing:
    """unit_of[f]: the unit sequence of gold file f (-1: none); cut[f]: frames counted."""
    unit_of: np.ndarray
    cut: np.ndarray
    repeat: int


def frame_chunks(phone: np.ndarray, pstarts: np.ndarray, units: np.ndarray, ustarts: np.ndarray,
                 pairing: Pairing, files: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """(file, frame in file, phone code, unit) of the cut frames of `files`, a few million at a time."""
    r = pairing.repeat
    files = files[pairing.unit_of[files] >= 0]
    if not len(files):
        return
    m = pairing.cut[files]
    ends = np.cumsum(m)
    lo = 0
    while lo < len(files):
        hi = int(np.searchsorted(ends, (ends[lo - 1] if lo else 0) + CHUNK_FRAMES, side="right"))
        hi = max(hi, lo + 1)
        f, mm = files[lo:hi], m[lo:hi]
        total = int(mm.sum())
        rel = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(mm) - mm, mm)
        ff = np.repeat(f, mm)
        ph = phone[pstarts[ff] + rel]
        un = units[ustarts[pairing.unit_of[ff]] + rel // r]
        yield ff, rel, ph, un
        lo = hi


def file_cells(gold_phone: np.ndarray, gold_starts: np.ndarray, units: np.ndarray, ustarts: np.ndarray,
               pairing: Pairing, files: np.ndarray, n_labels: int, n_cols: int) -> dict[str, np.ndarray]:
    """Per-file cells and first frames of the cut frames of `files`:
    cell_file, cell_phone, cell_unit, cell_count (int64), and first[label] (file << 32 | frame,
    -1 when the label does not occur here)."""
    first = np.full(n_labels, -1, np.int64)
    parts: list[tuple[np.ndarray, np.ndarray]] = []
    width = np.int64(n_labels) * np.int64(n_cols)
    for ff, rel, ph, un in frame_chunks(gold_phone, gold_starts, units, ustarts, pairing, files):
        head = np.flatnonzero(np.r_[True, ph[1:] != ph[:-1]])        # a label first occurs at a run start
        labels, at = np.unique(ph[head], return_index=True)
        at = head[at]
        key = (ff[at] << FIRST_SHIFT) | rel[at]
        known = first[labels]
        first[labels] = np.where(known < 0, key, np.minimum(known, key))
        code = ff * width + ph.astype(np.int64) * n_cols + un
        # runs of one (file, phone, unit) first: far fewer keys to sort
        change = np.flatnonzero(np.r_[True, code[1:] != code[:-1]])
        runs = np.diff(np.r_[change, len(code)])
        keys, inv = np.unique(code[change], return_inverse=True)
        parts.append((keys, np.bincount(inv.ravel(), weights=runs).astype(np.int64)))
    if not parts:
        z = np.zeros(0, np.int64)
        return {"cell_file": z, "cell_phone": z, "cell_unit": z, "cell_count": z, "first": first}
    keys = np.concatenate([k for k, _ in parts])
    counts = np.concatenate([c for _, c in parts])
    if len(parts) > 1:       # a file never spans two chunks, but keep the cells unique anyway
        keys, inv = np.unique(keys, return_inverse=True)
        counts = np.bincount(inv.ravel(), weights=counts).astype(np.int64)
    return {"cell_file": keys // width, "cell_phone": (keys % width) // n_cols, "cell_unit": keys % n_cols,
            "cell_count": counts, "first": first}


def merge_first(parts: list[np.ndarray]) -> np.ndarray:
    """The earliest first-frame key of each label over shards (-1: never)."""
    out = np.full(len(parts[0]), -1, np.int64)
    for p in parts:
        both = (out >= 0) & (p >= 0)
        out = np.where(both, np.minimum(out, p), np.where(out >= 0, out, p))
    return out


@dataclass
class Rows:
    """The rows of the co-occurrence matrix in discophon's order: names, and the gold label code
    of each (-1 for a `<missing-k>` row)."""
    names: list[str]
    code: np.ndarray


def discophon_rows(first: np.ndarray, totals_by_label: np.ndarray, labels: list[str], n_rows: int) -> tuple[Rows, int | None]:
    """Rows of the labels seen in the cut frames, in discophon's order; the second item is the
    label code that makes one row too many (None if they fit)."""
    seen = np.flatnonzero(first >= 0)
    seen = seen[np.argsort(first[seen], kind="stable")]          # first-appearance order
    if len(seen) > n_rows:
        return Rows([], np.zeros(0, np.int64)), int(seen[n_rows])
    code = np.r_[seen, np.full(n_rows - len(seen), -1)].astype(np.int64)
    names = [labels[c] for c in seen.tolist()] + [f"<missing-{k}>" for k in range(len(seen), n_rows)]
    totals = np.r_[totals_by_label[seen], np.zeros(n_rows - len(seen), totals_by_label.dtype)]
    order = np.argsort(totals, kind="stable")[::-1]          # xarray sortby(ascending=False)
    return Rows([names[i] for i in order.tolist()], code[order]), None


def matrix(cells: dict[str, np.ndarray], rows: Rows, n_labels: int, n_cols: int) -> np.ndarray:
    """The (rows x n_cols) int64 co-occurrence matrix of summed cells."""
    flat = np.bincount(cells["cell_phone"] * n_cols + cells["cell_unit"], weights=cells["cell_count"],
                       minlength=n_labels * n_cols).astype(np.int64).reshape(n_labels, n_cols)
    out = np.zeros((len(rows.code), n_cols), np.int64)
    real = rows.code >= 0
    out[real] = flat[rows.code[real]]
    return out
