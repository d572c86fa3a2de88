"""Phone boundaries of the mapped units against the gold (discophon 0.2.0
`evaluate/segmentation.py`, Räsänen et al. 2009's search regions).

Boundaries are the label changes of a whole sequence (the mapped units every `step` ms, the
gold phones every 10 ms), in integer ms from the file start; the end of the sequence is not
one. Each gold boundary b gets the window [max(b - 20, 0), b + 20]; neighbouring windows are
split at m = (b_i + b_i+1) // 2, the earlier keeping m and the later starting at m + 1. A
window holding at least one predicted boundary is a hit (TP); FP = predicted - TP, FN = gold -
TP, summed over files. P = TP / (TP + FP), R = TP / (TP + FN), F = 2TP / (2TP + FP + FN),
OS = (TP + FP) / (TP + FN) - 1, R-value = 1 - (sqrt((1 - R)^2 + OS^2) + |R - 1 - OS| / sqrt(2)) / 2.
"""
from __future__ import annotations

import math

import numpy as np

MARGIN_MS = 20


def change_times(seq: np.ndarray, starts: np.ndarray, step_ms: int) -> tuple[np.ndarray, np.ndarray]:
    """(sequence index, ms) of every label change inside each sequence, in order."""
    if len(seq) < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    change = seq[1:] != seq[:-1]
    inner = starts[1:-1]
    change[inner[(inner > 0) & (inner < len(seq))] - 1] = False      # a change across two sequences is none
    pos = np.flatnonzero(change) + 1
    which = np.searchsorted(starts, pos, side="right") - 1
    return which.astype(np.int64), (pos - starts[which]) * np.int64(step_ms)


def windows(gf: np.ndarray, gt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The search window [lo, hi] (ms) of each gold boundary (file gf, time gt, sorted): +-20 ms,
    split with its neighbours of the same file at their midpoint."""
    lo = np.maximum(gt - MARGIN_MS, 0)
    hi = gt + MARGIN_MS
    same = gf[1:] == gf[:-1]
    mid = (gt[:-1] + gt[1:]) // 2
    hi[:-1] = np.where(same, np.minimum(hi[:-1], mid), hi[:-1])
    lo[1:] = np.where(same, np.maximum(lo[1:], mid + 1), lo[1:])
    return lo, hi


def file_statuses(gt: np.ndarray, pt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One file's boundaries as `hits` counts them (gold gt and predicted pt, ms, sorted):
    whether each gold boundary is hit (a predicted one in its window: TP; the others FN), and
    whether each predicted one is the first of a hit window (the others, in no window or after
    the first of theirs, are the FP = predicted - TP the counts imply)."""
    gt, pt = np.asarray(gt, np.int64), np.asarray(pt, np.int64)
    if not len(gt):
        return np.zeros(0, bool), np.zeros(len(pt), bool)
    lo, hi = windows(np.zeros(len(gt), np.int64), gt)
    a, b = np.searchsorted(pt, lo, side="left"), np.searchsorted(pt, hi, side="right")
    hit = b > a
    first = np.zeros(len(pt), bool)
    first[a[hit]] = True
    return hit, first


def hits(gold_seq: np.ndarray, gold_starts: np.ndarray, pred_seq: np.ndarray, pred_starts: np.ndarray,
         pred_of: np.ndarray, step_ms: int, gold_step_ms: int = 10) -> np.ndarray:
    """(files x 3) int64 [gold boundaries, predicted boundaries, hits] of each gold file f
    against the predicted sequence pred_of[f] (-1: none, no prediction)."""
    nf = len(gold_starts) - 1
    gf, gt = change_times(gold_seq, gold_starts, gold_step_ms)
    pf_seq, pt = change_times(pred_seq, pred_starts, step_ms)
    owner = np.full(len(pred_starts) - 1, -1, np.int64)        # predicted sequence -> gold file
    used = pred_of >= 0
    owner[pred_of[used]] = np.flatnonzero(used)
    pf = owner[pf_seq]
    keep = pf >= 0
    pf, pt = pf[keep], pt[keep]
    if len(pf) > 1 and np.any(pf[1:] < pf[:-1]):       # units in another order than the gold's files
        order = np.argsort(pf, kind="stable")            # (times stay sorted within a file)
        pf, pt = pf[order], pt[order]
    out = np.zeros((nf, 3), np.int64)
    out[:, 0] = np.bincount(gf, minlength=nf)
    out[:, 1] = np.bincount(pf, minlength=nf)
    if not len(gt):
        return out
    lo, hi = windows(gf, gt)
    span = np.int64(max(int(gt.max()), int(pt.max()) if len(pt) else 0) + 4 * MARGIN_MS + 1)
    keys = pf * span + pt
    found = np.searchsorted(keys, gf * span + hi, side="right") > np.searchsorted(keys, gf * span + lo, side="left")
    out[:, 2] = np.bincount(gf, weights=found, minlength=nf).astype(np.int64)
    return out


def values(tp: int, fp: int, fn: int) -> dict[str, float | None]:
    """P, R, F, OS and R-value of summed counts (None where undefined: discophon raises there)."""
    p = tp / (tp + fp) if tp + fp else None
    r = tp / (tp + fn) if tp + fn else None
    f = 2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn else None
    os_ = (tp + fp) / (tp + fn) - 1 if tp + fn else None
    rval = None
    if r is not None and os_ is not None:
        r1 = math.sqrt((1 - r) ** 2 + os_ ** 2)
        r2 = abs(-os_ + r - 1) / math.sqrt(2)
        rval = 1 - (r1 + r2) / 2
    return {"precision": p, "recall": r, "fscore": f, "os": os_, "rvalue": rval}
