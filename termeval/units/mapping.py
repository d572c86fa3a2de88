"""Units mapped to phones (discophon 0.2.0 `evaluate/assignment.py`).

many-to-one: each unit to the row of its largest count, the first row on ties (numpy argmax on
the rows in discophon's order); a unit never seen in the counted frames (an all-zero column)
goes to the first row, the most frequent phone, as xarray's idxmax sends it.
one-to-one: the maximum-weight assignment of the square (rows x units) matrix
(scipy.optimize.linear_sum_assignment on the same matrix discophon builds, so ties resolve alike).
"""
from __future__ import annotations

import numpy as np

from termeval.core.errors import InputError


def many_to_one(count: np.ndarray) -> np.ndarray:
    """Row of each unit (column)."""
    return count.argmax(axis=0).astype(np.int64)


def one_to_one(count: np.ndarray) -> np.ndarray:
    """Row of each unit of a square matrix (InputError otherwise)."""
    from scipy.optimize import linear_sum_assignment   # scipy: only where a mapping is solved
    n_rows, n_units = count.shape
    if n_rows != n_units:
        raise InputError(f"one-to-one needs as many units as phone classes (phonemes + silence): "
                         f"{n_units} units, {n_rows} phone classes")
    rows, cols = linear_sum_assignment(count, maximize=True)
    out = np.empty(n_units, np.int64)
    out[cols] = rows
    return out


def mapping(count: np.ndarray, kind: str) -> np.ndarray:
    return many_to_one(count) if kind == "many-to-one" else one_to_one(count)
