"""The rules of kamperh/vqwordseg `eval_segmentation.py` (commit d062717), for --compat vqwordseg.

Everything is in integer frames relative to the utterance: a time t of an utterance starting at
u becomes frame(t) - frame(u) with frame(x) = floor(x / frame_shift + 0.5) (half up; 1e-6 frame
of slack absorbs float error, so 0.015 / 0.01 = 1.4999999999999998 gives 2). Frame input (an
interval directory) is used as written. The script then sees each utterance as a boolean
vector of n frames, True at the last frame of each segment (n = the last segment's end), so:

* boundaries: the predicted ones are the segment ends minus one, without the final frame
  n_pred - 1; the reference ones are the reference segment ends minus one that lie below
  n_pred - 1 (which is exactly "drop the final boundary when both have the same length,
  truncate a longer reference, keep the final boundary of a shorter one"); segment starts and
  gaps are not represented; an end at frame 0 marks the last frame (numpy index -1);
* tokens: both sides become the contiguous segments between consecutive boundaries
  (a gap joins the next segment); a reference longer than the prediction is cut at n_pred;
* utterances without a reference interval or without a predicted segment are skipped;
* clusters: labels from the original intervals; a segment overlapping nothing takes the
  utterance's first reference label; purity only visits clusters whose id (rank of the
  cluster names sorted as underscore-separated integers over the whole segmentation) is
  below the number of distinct clusters scored;
* F (and OS, R-value) is -inf when P + R = 0 (resp. P = 0) and a count of 0 predicted or
  reference boundaries raises ZeroDivisionError: here F is 0 and the others undefined, with
  a note.
"""
from __future__ import annotations

import numpy as np

from termeval.segmentation.inputs import Intervals, Utterances
from termeval.segmentation.matching import unique_sorted


def frame(t: np.ndarray, frame_shift: float) -> np.ndarray:
    return np.floor(np.asarray(t, dtype=np.float64) / frame_shift + 0.5 + 1e-6).astype(np.int64)


def to_frames(iv: Intervals, utts: Utterances, frame_shift: float) -> tuple[np.ndarray, np.ndarray]:
    """Utterance-relative (start, end) frames of intervals."""
    if iv.frames is not None:
        return iv.frames
    base = frame(utts.start[iv.utt], frame_shift) if len(iv) else np.zeros(0, dtype=np.int64)
    return frame(iv.onset, frame_shift) - base, frame(iv.offset, frame_shift) - base


def lengths(utt: np.ndarray, end: np.ndarray, n_utt: int) -> np.ndarray:
    """Boolean-vector length per utterance: the largest segment end (-1: no segment)."""
    out = np.full(n_utt, -1, dtype=np.int64)
    np.maximum.at(out, utt, end)
    return out


def end_points(utt: np.ndarray, end: np.ndarray, length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct (utt, end - 1) with index -1 wrapping to the last frame, sorted."""
    pos = end - 1
    pos = np.where(pos < 0, length[utt] - 1, pos)
    code = unique_sorted(utt.astype(np.int64) * (1 << 40) + pos)
    return code >> 40, code & ((1 << 40) - 1)


def boundary_points(ref: tuple, pred: tuple, n_utt: int):
    """(utt, pos) of the counted reference and predicted boundaries.
    ref/pred = (utt, start, end) frame arrays of the scored utterances."""
    lr, lp = lengths(ref[0], ref[2], n_utt), lengths(pred[0], pred[2], n_utt)
    ru, rp = end_points(ref[0], ref[2], lr)
    pu, pp = end_points(pred[0], pred[2], lp)
    keep_r = rp < lp[ru] - 1
    keep_p = pp != lp[pu] - 1
    return (ru[keep_r], rp[keep_r]), (pu[keep_p], pp[keep_p])


def _segments(u: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Contiguous segments between sorted boundary frames p (per utterance u)."""
    start = np.zeros(len(p), dtype=np.int64)
    same = np.zeros(len(p), dtype=bool)
    same[1:] = u[1:] == u[:-1]
    start[1:] = p[:-1] + 1
    start = np.where(same, start, 0)
    return u, start, p + 1


def token_segments(ref: tuple, pred: tuple, n_utt: int):
    """(utt, start, end) of the reference and predicted token segments."""
    lr, lp = lengths(ref[0], ref[2], n_utt), lengths(pred[0], pred[2], n_utt)
    ru, rp = end_points(ref[0], ref[2], lr)
    pu, pp = end_points(pred[0], pred[2], lp)
    long = lr > lp
    keep = ~long[ru] | (rp < lp[ru] - 1)
    ru, rp = ru[keep], rp[keep]
    cut = np.flatnonzero(long & (lp > 0))      # a truncated reference ends at the prediction's end
    code = unique_sorted(np.concatenate((ru * (1 << 40) + rp, cut * (1 << 40) + lp[cut] - 1)))
    ru, rp = code >> 40, code & ((1 << 40) - 1)
    return _segments(ru, rp), _segments(pu, pp)


def key_sort(name: str) -> tuple:
    """The script's cluster order: names as lists of underscore-separated integers (it fails on
    other names; those sort after, by text)."""
    try:
        return (0, [int(x) for x in name.split("_") if x != ""], name)
    except ValueError:
        return (1, [], name)


def cluster_ranks(names: list[str], all_names: list[str]) -> np.ndarray:
    """Rank of each cluster name among all cluster names of the segmentation."""
    rank = {x: i for i, x in enumerate(sorted(set(all_names), key=key_sort))}
    return np.array([rank[x] for x in names], dtype=np.int64)


def purity(col_max: np.ndarray, col_size: np.ndarray, rank: np.ndarray) -> float | None:
    """The script's purity: only clusters ranked below the number of clusters scored."""
    scored = col_size > 0
    visit = scored & (rank < int(scored.sum()))
    n = int(col_size[visit].sum())
    return float(col_max[visit].sum()) / n if n else None
