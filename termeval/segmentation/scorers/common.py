"""What the named scorers share: the gold tier without its silence intervals, distinct points
per utterance on float seconds, the range of reference points within a float tolerance of each
predicted point, per-utterance counts and the usual P/R/F/OS/R-value of summed counts."""
from __future__ import annotations

import numpy as np

from termeval.segmentation.boundary import micro
from termeval.segmentation.inputs import SILENCE, speech_only  # noqa: F401  (the scorers' gold without silence)
from termeval.segmentation.matching import keys
from termeval.segmentation.rvalue import standard_values  # noqa: F401  (the scorers' default values())


def distinct(utt: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct (utterance, time) pairs of float times (np.unique per utterance)."""
    utt, t = np.asarray(utt, dtype=np.int64), np.asarray(t, dtype=np.float64)
    order = np.lexsort((t, utt))
    u, x = utt[order], t[order]
    keep = np.ones(len(u), dtype=bool)
    keep[1:] = (u[1:] != u[:-1]) | (x[1:] != x[:-1])
    return u[keep], x[keep]


def float_ranges(gu: np.ndarray, gt: np.ndarray, pu: np.ndarray, pt: np.ndarray,
                 tol: float) -> tuple[np.ndarray, np.ndarray]:
    """For each predicted point, the range [lo, hi] of reference points (sorted by utterance,
    then time) of its utterance with abs(g - p) <= tol in float64, as the scripts compare.
    The range is found on integer microseconds widened by 2 us, then shrunk with the exact
    float test (fl(g - p) is monotone in g, so the matching points are contiguous)."""
    gk, pk = keys(gu, micro(gt)), keys(pu, micro(pt))
    w = int(micro(tol)) + 2
    lo = np.searchsorted(gk, pk - w, side="left")
    hi = np.searchsorted(gk, pk + w, side="right") - 1
    n = len(gt)

    def ok(i: np.ndarray) -> np.ndarray:
        j = np.clip(i, 0, max(n - 1, 0))
        return (i >= 0) & (i < n) & (gu[j] == pu) & (np.abs(gt[j] - pt) <= tol) if n else np.zeros(len(i), bool)

    for side, step in ((lo, 1), (hi, -1)):
        while True:
            bad = (lo <= hi) & ~ok(side)
            if not bad.any():
                break
            side[bad] += step
    return lo, hi


def per_utt(n: int, ref_utt: np.ndarray, pred_utt: np.ndarray, hit_utt: np.ndarray) -> np.ndarray:
    """[n_ref, n_pred, hits] per utterance (n rows)."""
    return np.stack((np.bincount(ref_utt, minlength=n), np.bincount(pred_utt, minlength=n),
                     np.bincount(hit_utt, minlength=n)), axis=1).astype(np.int64)
