"""Phone error rate of the mapped units (discophon 0.2.0 `evaluate/recognition.py`).

Per file: the units mapped to phones and the gold frames, each with consecutive repeats
removed, on the whole sequences (not cut to each other); their Levenshtein distance (unit
costs) and the length of the deduplicated gold. PER = sum of distances / sum of lengths over
the files (so it can exceed 1). The distances are rapidfuzz's (C++; the same edit distance as
discophon's numba loop).
"""
from __future__ import annotations

import numpy as np
from rapidfuzz.distance import Levenshtein


def runs(seq: np.ndarray) -> np.ndarray:
    """The sequence with consecutive repeats removed."""
    if not len(seq):
        return seq
    return seq[np.r_[True, seq[1:] != seq[:-1]]]


def all_runs(seq: np.ndarray, starts: np.ndarray) -> tuple[list, np.ndarray]:
    """Every sequence without its consecutive repeats, at once: (values as one list, new starts)."""
    head = np.ones(len(seq), bool)
    if len(seq) > 1:
        head[1:] = seq[1:] != seq[:-1]
    head[starts[:-1][starts[:-1] < len(seq)]] = True         # a sequence never continues the previous
    new_starts = np.zeros(len(starts), np.int64)
    counts = np.cumsum(head, dtype=np.int64)
    new_starts[1:] = counts[starts[1:] - 1] if len(seq) else 0
    return seq[head].tolist(), new_starts


def edit_counts(hyp: np.ndarray, hstarts: np.ndarray, ref: np.ndarray, rstarts: np.ndarray,
                pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distance, reference length) of each (hyp sequence, ref sequence) index pair."""
    dist = np.zeros(len(pairs), np.int64)
    length = np.zeros(len(pairs), np.int64)
    h_vals, h_st = all_runs(hyp, hstarts)
    r_vals, r_st = all_runs(ref, rstarts)
    distance = Levenshtein.distance
    for k, (h, r) in enumerate(pairs.tolist()):
        b = r_vals[r_st[r]:r_st[r + 1]]
        dist[k] = distance(h_vals[h_st[h]:h_st[h + 1]], b)
        length[k] = len(b)
    return dist, length
