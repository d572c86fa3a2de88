"""Precision, recall, F, over-segmentation and R-value from hit counts.

OS = R/P - 1 (how many more boundaries were predicted than exist, relative to the reference);
R-value (Räsänen et al. 2009) = 1 - (|r1| + |r2|)/2 with r1 = sqrt((1-R)^2 + OS^2) and
r2 = (-OS + R - 1)/sqrt(2). Undefined values are None (written `-`): P without predictions,
R without reference items, OS and R-value when P = 0 (the vqwordseg script prints -inf there).
F is 0 when P + R = 0 (the script prints -inf).
"""
from __future__ import annotations

import math
from typing import Any

from termeval.core.scores import fscore


def prf(hits: int, n_pred: int, n_ref: int) -> tuple[float | None, float | None, float | None]:
    p = hits / n_pred if n_pred else None
    r = hits / n_ref if n_ref else None
    return p, r, fscore(p, r)


def over_segmentation(p: float | None, r: float | None) -> float | None:
    if p is None or r is None or p == 0:
        return None
    return r / p - 1


def r_value(p: float | None, r: float | None) -> float | None:
    os_ = over_segmentation(p, r)
    if os_ is None:
        return None
    r1 = math.sqrt((1 - r) ** 2 + os_ ** 2)
    r2 = (-os_ + r - 1) / math.sqrt(2)
    return 1 - (abs(r1) + abs(r2)) / 2


def standard_values(c: Any) -> dict[str, float | None]:
    """P = hits/n_pred, R = hits/n_ref, F, OS = R/P - 1, R-value of summed counts [n_ref, n_pred, hits]
    (None where a denominator is 0; F = 0 when P + R = 0)."""
    p, r, f = prf(int(c[2]), int(c[1]), int(c[0]))
    return {"precision": p, "recall": r, "fscore": f, "os": over_segmentation(p, r), "rvalue": r_value(p, r)}
