"""Fold aggregation of the 2015/2017 tools (spec §4.7-4.8).

P/R families: drop every fold where P or R is NaN; nothing left -> P = R = [0.0]; F per fold
(0 when P = R = 0); NED: drop NaN folds, default [1.0]; coverage: drop NaN, default [0.0].
Summaries: mean, std (population), min, max, and the number of valid folds.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from termeval.core.scores import fscore


def fold_fscore(p: float, r: float) -> float:
    """termeval.core.scores.fscore, NaN (not None) where undefined: fold tables hold floats."""
    f = fscore(p, r)
    return math.nan if f is None else f


def clean_pr(p: Sequence[float], r: Sequence[float]) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(P, R, F per fold, number of valid folds): folds where P or R is NaN dropped; none left
    -> P = R = [0.0]."""
    p, r = np.asarray(p, dtype=np.float64), np.asarray(r, dtype=np.float64)
    ok = ~np.isnan(p) & ~np.isnan(r)
    n = int(ok.sum())
    if n == 0:
        p, r = np.array([0.0]), np.array([0.0])
    else:
        p, r = p[ok], r[ok]
    return p, r, np.array([fold_fscore(a, b) for a, b in zip(p, r)]), n


def clean_one(x: Sequence[float], default: float) -> tuple[np.ndarray, int]:
    """(values, number of valid folds): NaN folds dropped; none left -> [default]."""
    x = np.asarray(x, dtype=np.float64)
    ok = ~np.isnan(x)
    n = int(ok.sum())
    return (x[ok] if n else np.array([default])), n


def summary(values: np.ndarray, nvalid: int) -> dict[str, float | int]:
    return {"mean": float(values.mean()), "std": float(values.std()), "min": float(values.min()),
            "max": float(values.max()), "nfolds": int(nvalid)}


def aggregate_pr(p: Sequence[float], r: Sequence[float]) -> tuple[dict, dict, dict]:
    p, r, f, n = clean_pr(p, r)
    return summary(p, n), summary(r, n), summary(f, n)


def aggregate_one(x: Sequence[float], default: float) -> dict:
    return summary(*clean_one(x, default))
