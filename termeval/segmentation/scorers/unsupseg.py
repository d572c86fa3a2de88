"""--compat unsupseg: felixkreuk/UnsupSeg `utils.py` PrecisionRecallMetric (2020).

What that code does, reproduced here on termeval's inputs:

* frames: a time t (seconds from the utterance start) is frame floor(t / frame_shift) (the
  script's int() of a sample index over the samples per frame; 1e-6 frame of slack absorbs
  float error, so 0.03 / 0.01 = 2.9999999999999996 is frame 3); the utterance has
  n = floor(duration / frame_shift) frames;
* gold boundaries: the ends of every interval of the tier (silences included,
  termeval.segmentation.scorers.tier.tier_ends) but the last one, as the `.phn` reader keeps
  every end time but the last (`[:-1]`); predicted boundaries: the same of the predicted
  segments (a peak detector's boundaries are the ends of the segments it makes). Both are
  lists: two ends in one frame count twice;
* an utterance without a predicted boundary gets one at frame n - 1 (detect_peaks' fallback
  when no peak is found);
* lenient matching both ways: a prediction is correct if some gold boundary is within the
  tolerance (2 frames), a gold boundary is found if some prediction is within it, so one
  prediction can find two gold boundaries and two predictions can hit one;
* P = correct / (predictions + 1e-5), R = found / (gold + 1e-5), F = 2PR / (P + R + 1e-5),
  OS = R / (P + 1e-7) - 1 and R-value = 1 - (|r1| + |r2|) / 2 with
  r1 = sqrt((1 - R)^2 + OS^2), r2 = (-OS + R - 1) / sqrt(2). The script reports P, R, F and
  R-value (OS is not reported, no token scores);
* an utterance without a gold boundary makes the script fail (the minimum of an empty
  distance array); here its predictions count as wrong and it adds no gold boundary.
The peak-detection parameter search of get_stats (on the validation set) is the model's
tuning, not the score: termeval scores the boundaries it is given.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from termeval.segmentation.scorers.tier import drop_last, point_keys, tier_ends, window_ranges

EPS = 1e-5        # the script's self.eps in P, R and F
EPS_OS = 1e-7     # its EPS in OS


def frames(t: np.ndarray, frame_shift: float) -> np.ndarray:
    return np.floor(np.asarray(t, dtype=np.float64) / frame_shift + 1e-6).astype(np.int64)


def tolerance_frames(tolerance: float, frame_shift: float) -> int:
    return int(math.floor(tolerance / frame_shift + 0.5 + 1e-6))


def internal(iv, start: np.ndarray, end: np.ndarray, frame_shift: float) -> tuple[np.ndarray, np.ndarray]:
    """(utt, frame) of the ends of every interval of the gap-filled tier but the last."""
    u, t = tier_ends(iv[0], iv[1], iv[2], start, end)
    u, t = drop_last(u, t)
    return u, frames(t, frame_shift)


def with_fallback(pred: tuple[np.ndarray, np.ndarray], n_frames: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Predicted boundaries plus frame n - 1 for every utterance without one, sorted."""
    u, f = pred
    none = np.flatnonzero(np.bincount(u, minlength=len(n_frames)) == 0)
    u = np.concatenate((u, none))
    f = np.concatenate((f, n_frames[none] - 1))
    order = np.lexsort((f, u))
    return u[order], f[order]


def _near(targets: np.ndarray, items: np.ndarray, tol: int) -> np.ndarray:
    lo, hi = window_ranges(targets, items, tol)
    return hi > lo


def utterance_counts(ref, pred, start: np.ndarray, end: np.ndarray, frame_shift: float,
                     tolerance: float) -> np.ndarray:
    """Per utterance [correct predictions, found gold boundaries, predictions, gold boundaries].
    ref, pred: (utt, onset, offset) absolute seconds, sorted by utterance then onset."""
    n_utt, tol = len(start), tolerance_frames(tolerance, frame_shift)
    gu, gf = internal(ref, start, end, frame_shift)
    pu, pf = with_fallback(internal(pred, start, end, frame_shift), frames(end - start, frame_shift))
    gk, pk = point_keys(gu, gf), point_keys(pu, pf)
    gk_sorted = np.sort(gk)
    pk_sorted = np.sort(pk)
    correct = _near(gk_sorted, pk, tol)
    found = _near(pk_sorted, gk, tol)
    return np.stack((np.bincount(pu[correct], minlength=n_utt), np.bincount(gu[found], minlength=n_utt),
                     np.bincount(pu, minlength=n_utt), np.bincount(gu, minlength=n_utt)),
                    axis=1).astype(np.int64)


def scores(total: np.ndarray) -> dict[str, float]:
    """The script's get_metrics on summed utterance_counts."""
    correct, found, n_pred, n_gold = (int(x) for x in total)
    p = correct / (n_pred + EPS)
    r = found / (n_gold + EPS)
    f = 2 * (p * r) / (p + r + EPS)
    os_ = r / (p + EPS_OS) - 1
    r1 = math.sqrt((1 - r) ** 2 + os_ ** 2)
    r2 = (-os_ + r - 1) / math.sqrt(2)
    rval = 1 - (abs(r1) + abs(r2)) / 2
    return {"boundary_precision": p, "boundary_recall": r, "boundary_fscore": f, "boundary_rvalue": rval}


def score(ref: Any, pred: Any, utts: Any, p: Any, tokens: bool = False) -> dict:
    """The registry's face (termeval.segmentation.scorers): per utterance boundary counts
    [n_ref, n_pred, correct predictions, found references] (the matching is lenient both ways,
    so the two hit counts differ); every utterance is scored."""
    c = utterance_counts((ref.utt, ref.onset, ref.offset), (pred.utt, pred.onset, pred.offset),
                         utts.start, utts.end, p.frame_shift, p.tolerance)
    return {"boundary": c[:, [3, 2, 0, 1]], "token": None, "scored": np.ones(len(utts), dtype=bool)}


def values(c: np.ndarray) -> dict[str, float | None]:
    """The script's get_metrics on summed counts [n_ref, n_pred, correct, found]."""
    s = scores(np.asarray(c)[[2, 3, 1, 0]])
    return {k.replace("boundary_", ""): v for k, v in s.items()}


def definitions(p: Any) -> dict:
    return {
        "scorer": "unsupseg",
        "reproduces": "felixkreuk/UnsupSeg utils.py PrecisionRecallMetric.get_stats, get_metrics; "
                      "detect_peaks' fallback",
        "frames": "floor(t / frame_shift), t in seconds from the utterance start",
        "reference_boundaries": "the end of every interval of the tier (silences included) but the last",
        "predicted_boundaries": "the end of every interval of the predicted tier (gaps included) but the "
                                "last; frame n - 1 when there is none (n = the utterance's frames)",
        "matching": "lenient both ways: a prediction is correct if a gold boundary is within the "
                    "tolerance, a gold boundary found if a prediction is",
        "tolerance": float(p.tolerance),
        "tolerance_frames": tolerance_frames(p.tolerance, p.frame_shift),
        "frame_shift": float(p.frame_shift),
        "formulas": "P = correct / (#pred + 1e-5), R = found / (#ref + 1e-5), F = 2PR / (P + R + 1e-5), "
                    "OS = R / (P + 1e-7) - 1 (not reported), R-value (Räsänen 2009) with that OS",
        "utterances": "every utterance; one without a gold boundary adds none and its predictions are wrong",
    }
