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


def edit_counts(hyp: np.ndarray, hstarts: np.ndarray, ref: np.ndarray, rstarts: np.ndarray,
                pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distance, reference length) of each (hyp sequence, ref sequence) index pair."""
    dist = np.zeros(len(pairs), np.int64)
    length = np.zeros(len(pairs), np.int64)
    for k, (h, r) in enumerate(pairs.tolist()):
        a = runs(hyp[hstarts[h]:hstarts[h + 1]])
        b = runs(ref[rstarts[r]:rstarts[r + 1]])
        dist[k] = Levenshtein.distance(a.tolist(), b.tolist())
        length[k] = len(b)
    return dist, length
