"""Unit quality from the co-occurrence counts: PNMI and the two purities.

discophon 0.2.0 (`evaluate/quality.py` pnmi): PNMI = I(phone; unit) / H(phone) over the nonzero
cells of the (rows x n_units) count matrix, clipped to [0, 1]; 0 when there is no frame or
a single phone has every frame. Computed with the same array operations on the same matrix
(rows in discophon's order), so the doubles are discophon's.

Purities (HuBERT, Hsu et al. 2021): phone purity = sum over units of the frames of their most
frequent phone / frames; cluster purity = sum over phones of the frames of their most
frequent unit / frames; exact fractions of the integer counts.

fairseq (`examples/hubert/measure_teacher_quality.py`): the same quantities from the joint
probability table p_xy of the phones (rows, sorted labels) and units (columns, sorted as
strings) seen in the cut frames, with 1e-8 added inside every log:
  H(x) = -sum p log(p + 1e-8), MI = sum p_xy log(p_xy / (p_x p_y) + 1e-8),
  ref pur = sum_unit max_phone p_xy, hyp pur = sum_phone max_unit p_xy.
"""
from __future__ import annotations

import numpy as np


def pnmi(count: np.ndarray) -> float:
    """discophon's PNMI of an int64 count matrix (rows: phones, columns: units)."""
    total = count.sum()
    if total == 0 or (count.sum(axis=1) > 0).sum() <= 1:
        return 0.0
    proba = count / total
    px, py = proba.sum(axis=1, keepdims=True), proba.sum(axis=0, keepdims=True)
    joint = proba[proba > 0]
    independent = (px @ py)[proba > 0]
    mutual_info = (joint * np.log(joint / independent)).sum()
    px_positive = px[px > 0]
    entropy_x = -(px_positive * np.log(px_positive)).sum()
    return float((mutual_info / entropy_x).clip(0, 1).item())


def purities(count: np.ndarray) -> tuple[float | None, float | None]:
    """(phone purity, cluster purity), exact; None without frames."""
    total = int(count.sum())
    if total == 0:
        return None, None
    return int(count.max(axis=0).sum()) / total, int(count.max(axis=1).sum()) / total


def fairseq_table(flat: np.ndarray, labels: list[str]) -> np.ndarray:
    """fairseq's p_xy from the (labels x unit ids) counts: the phones seen (rows, sorted by
    label) and the units seen (columns, sorted as strings: "10" before "2"), over their sum."""
    rows = [i for i in sorted(range(len(labels)), key=labels.__getitem__) if flat[i].any()]
    cols = sorted(np.flatnonzero(flat.any(axis=0)).tolist(), key=str)
    p_xy = flat[np.ix_(rows, cols)].astype(float)
    p_xy /= p_xy.sum()
    return p_xy


def _purity(p_xy: np.ndarray, axis: int) -> float:
    return float(p_xy.max(axis=axis).sum())


def _entropy(p: np.ndarray) -> float:
    return float((-p * np.log(p + 1e-8)).sum())


def fairseq_quality(p_xy: np.ndarray) -> dict[str, float]:
    """fairseq's purities, entropies and mutual information of p_xy (its numerics)."""
    p_x = p_xy.sum(axis=1, keepdims=True)
    p_y = p_xy.sum(axis=0, keepdims=True)
    pmi = np.log(p_xy / np.matmul(p_x, p_y) + 1e-8)
    mi = float((p_xy * pmi).sum())
    h_x, h_y = _entropy(p_x), _entropy(p_y)
    return {"ref_purity": _purity(p_xy, 0), "hyp_purity": _purity(p_xy, 1), "ref_entropy": h_x,
            "hyp_entropy": h_y, "mutual_information": mi, "pnmi": mi / h_x if h_x else float("nan")}
