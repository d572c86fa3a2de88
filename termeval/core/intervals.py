"""Searches in values grouped by file: the one implementation of "where does time t of file f
fall among the sorted times of that file" (phone edges, segment starts, fold intervals, word
edges), used by the gold checks, zr2015 and zrc2020.

References are sorted by (file, value); `starts` = termeval.core.datadir.file_starts(file, nfiles)
delimits each file's slice. Queries are grouped by file (a stable argsort, skipped when they
already come sorted, as fragments do) and each file's slice is searched with one
numpy.searchsorted: exact, no float keys, memory proportional to the queries.
"""
from __future__ import annotations

import numpy as np

from termeval.core.datadir import file_starts


def search(starts: np.ndarray, values: np.ndarray, q_file: np.ndarray, q_val: np.ndarray,
           side: str = "left") -> np.ndarray:
    """Global index starts[f] + searchsorted(values[starts[f]:starts[f+1]], q, side) of each
    query (f, q): its insertion point inside its file's slice; -1 for a file outside
    0..len(starts)-2 (e.g. -1, an unknown file)."""
    q_file = np.asarray(q_file, dtype=np.int64)
    q_val = np.asarray(q_val, dtype=np.float64)
    out = np.full(len(q_file), -1, dtype=np.int64)
    if not len(q_file):
        return out
    presorted = bool(np.all(q_file[1:] >= q_file[:-1]))
    order = None if presorted else np.argsort(q_file, kind="stable")
    fs = q_file if presorted else q_file[order]
    qs = file_starts(fs, len(starts) - 1)
    for f in np.flatnonzero(qs[1:] > qs[:-1]).tolist():
        a, b = int(starts[f]), int(starts[f + 1])
        sl = slice(int(qs[f]), int(qs[f + 1]))
        idx = sl if presorted else order[sl]
        out[idx] = a + np.searchsorted(values[a:b], q_val[idx], side=side)
    return out


def last_le(ref_file: np.ndarray, ref_val: np.ndarray, q_file: np.ndarray, q_val: np.ndarray,
            strict: bool = False) -> np.ndarray:
    """For each query, index of the last reference of the same file with value <= q (< q if
    strict), references sorted by (file, value); -1 if there is none."""
    ref_file = np.asarray(ref_file, dtype=np.int64)
    q_file = np.asarray(q_file, dtype=np.int64)
    if not len(q_file):
        return np.zeros(0, dtype=np.int64)
    if not len(ref_file):
        return np.full(len(q_file), -1, dtype=np.int64)
    starts = file_starts(ref_file, max(int(ref_file[-1]), int(q_file.max())) + 1)
    r = search(starts, np.asarray(ref_val, dtype=np.float64), q_file, q_val,
               side="left" if strict else "right") - 1
    return np.where(r >= starts[np.maximum(q_file, 0)], r, -1)    # unknown files: r = -2


def nearest_edges(ef: np.ndarray, et: np.ndarray, qf: np.ndarray, qt: np.ndarray, nfiles: int,
                  ties: str = "lower") -> np.ndarray:
    """For each query (qf, qt), the time of the nearest edge (ef, et) of the same file (edges
    sorted by (file, time)), NaN if the file has none. On equal distances the lower edge wins
    (ties="lower": gold word-edge checks) or the upper one (ties="upper": the zr2015 tools'
    `has_close`, which keeps the lower one only when strictly closer)."""
    qt = np.asarray(qt, dtype=np.float64)
    best = np.full(len(qt), np.nan)
    if not len(qt):
        return best
    et = np.asarray(et, dtype=np.float64)
    qf = np.asarray(qf, dtype=np.int64)
    es = file_starts(np.asarray(ef, dtype=np.int64), nfiles)
    k = search(es, et, qf, qt)                               # first edge >= q in the file
    first, last = es[qf], es[qf + 1] - 1
    has = last >= first
    lo = et[np.clip(np.maximum(k - 1, first), 0, max(len(et) - 1, 0))] if len(et) else best
    hi = et[np.clip(np.minimum(k, last), 0, max(len(et) - 1, 0))] if len(et) else best
    pick_lo = (qt - lo <= hi - qt) if ties == "lower" else (qt - lo < hi - qt)
    best[has] = np.where(pick_lo, lo, hi)[has]
    return best
