"""--compat malan-strict / malan-lenient: s-malan/evaluation `boundary_word.py` (2024).

What that script does, reproduced here on termeval's inputs:

* frames: a time t (seconds from the utterance start, the parsed double) is frame
  `round(t / ms * 1000)` with ms = --frame-shift in integer milliseconds (20: 20 ms frames),
  evaluated in that order and rounded half to even (numpy's round: 0.05 s is frame 2,
  0.07 s is frame 4 since 0.07 / 20 * 1000 = 3.5000000000000004, 0.13 s is frame 7);
* gold boundaries: the ends of every interval of the TextGrid tier, silences included, and
  so the utterance end (termeval.segmentation.scorers.tier.tier_ends); predicted boundaries:
  the end of every predicted segment (the `.list` file: one end time per segment), sorted;
  both are lists (two ends in one frame count twice);
* per utterance, when both lists are non-empty and their last boundaries are within the
  tolerance (in frames), both last boundaries are removed (a hit that is not counted);
* hits: each gold boundary in order scans the predicted list left to right and pops every
  prediction within the tolerance; strict stops at the first pop; lenient goes on, and each
  pop shifts the list under the enumeration, so the prediction after a popped one is never
  looked at by that gold boundary (tier.first_free and tier.alternate);
* P = hits / predictions, R = hits / gold, F; 0, 0, 0 when there is no hit (`values`);
* tokens: per utterance the intervals between consecutive entries of [0] + the predicted
  list AS THE HIT SCAN LEFT IT (an utterance whose last pair was removed scanned a copy and
  keeps its whole list; any other utterance has lost its popped predictions) against
  [0] + the whole gold list; a predicted interval is correct when a not yet used gold
  interval has its start within the tolerance of the predicted start and its end within
  the tolerance of the predicted end, the first such gold interval in order being used up;
  P = correct / predicted intervals, R = correct / gold intervals.

The script stores frames as int16: from 32768 frames (655 s at 20 ms) on they wrap. termeval
computes in int64 and says so in a warning (`warnings`).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from termeval.core.errors import InputError
from termeval.segmentation.scorers.tier import alternate, first_free, point_keys, tier_ends, window_ranges

INT16_MAX = 32767


def frame_ms(frame_shift: float) -> int:
    """--frame-shift as the script's integer milliseconds per frame."""
    ms = round(frame_shift * 1000)
    if ms < 1 or abs(frame_shift * 1000 - ms) > 1e-9:
        raise InputError(f"--compat malan-*: --frame-shift must be a whole number of milliseconds, got {frame_shift:g}")
    return ms


def check(p: Any) -> None:
    """InputError for a frame shift that is not a whole number of milliseconds."""
    frame_ms(p.frame_shift)


def frames(t: np.ndarray, ms: int) -> np.ndarray:
    """The script's frame of each time (seconds from the utterance start)."""
    return np.round(np.asarray(t, dtype=np.float64) / ms * 1000).astype(np.int64)


def tolerance_frames(tolerance: float, frame_shift: float) -> int:
    return int(math.floor(tolerance / frame_shift + 0.5 + 1e-6))


def boundary_lists(ref, pred, start: np.ndarray, end: np.ndarray, ms: int):
    """(utt, frame) of the gold and predicted lists, sorted. ref, pred: (utt, onset, offset)
    absolute seconds, sorted by utterance then onset."""
    gu, gt = tier_ends(ref[0], ref[1], ref[2], start, end)
    pu = np.asarray(pred[0], dtype=np.int64)
    order = np.lexsort((pred[2], pu))
    pu = pu[order]
    return (gu, frames(gt, ms)), (pu, frames(pred[2][order] - start[pu], ms))


def _last_index(u: np.ndarray, n_utt: int) -> np.ndarray:
    """Index of each utterance's last element (-1: none); u sorted."""
    out = np.full(n_utt, -1, dtype=np.int64)
    out[u] = np.arange(len(u))
    return out


def hit_scan(gold, pred, n_utt: int, tol: int, lenient: bool):
    """The script's eval_segmentation on sorted (utt, frame) lists.

    Returns per utterance [predictions, gold, hits] after the last-pair removal, and the mask
    of the predictions still in the utterance's list when the scan is over."""
    (gu, gf), (pu, pf) = gold, pred
    gl, pl = _last_index(gu, n_utt), _last_index(pu, n_utt)
    both = np.flatnonzero((gl >= 0) & (pl >= 0))
    cut = both[np.abs(pf[pl[both]] - gf[gl[both]]) <= tol]
    g_in = np.ones(len(gu), dtype=bool)
    p_in = np.ones(len(pu), dtype=bool)
    g_in[gl[cut]] = False
    p_in[pl[cut]] = False
    gi, pi = np.flatnonzero(g_in), np.flatnonzero(p_in)
    gk, pk = point_keys(gu[gi], gf[gi]), point_keys(pu[pi], pf[pi])
    lo, hi = window_ranges(pk, gk, tol)
    owner = (alternate if lenient else first_free)(lo, hi, len(pk))
    popped = pi[owner >= 0]
    counts = np.stack((np.bincount(pu[pi], minlength=n_utt), np.bincount(gu[gi], minlength=n_utt),
                       np.bincount(pu[popped], minlength=n_utt)), axis=1).astype(np.int64)
    left = np.ones(len(pu), dtype=bool)
    copied = np.zeros(n_utt, dtype=bool)
    copied[cut] = True
    left[popped[~copied[pu[popped]]]] = False
    return counts, left


def _intervals(u: np.ndarray, f: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(utt, start, end) of the intervals between consecutive entries of [0] + list."""
    start = np.zeros(len(f), dtype=np.int64)
    start[1:] = f[:-1]
    first = np.ones(len(u), dtype=bool)
    first[1:] = u[1:] != u[:-1]
    start[first] = 0
    return u, start, f


def token_scan(gold, pred_left, n_utt: int, tol: int) -> np.ndarray:
    """The script's get_word_token_boundaries: per utterance [predicted, gold, correct]."""
    gu, gs, ge = _intervals(*gold)
    pu, ps, pe = _intervals(*pred_left)
    lo1, hi1 = window_ranges(point_keys(gu, gs), point_keys(pu, ps), tol)
    lo2, hi2 = window_ranges(point_keys(gu, ge), point_keys(pu, pe), tol)
    lo, hi = np.maximum(lo1, lo2), np.minimum(hi1, hi2)
    hi = np.maximum(hi, lo)
    owner = first_free(lo, hi, len(gu))
    return np.stack((np.bincount(pu, minlength=n_utt), np.bincount(gu, minlength=n_utt),
                     np.bincount(pu[owner[owner >= 0]], minlength=n_utt)), axis=1).astype(np.int64)


def utterance_counts(ref, pred, start: np.ndarray, end: np.ndarray, frame_shift: float,
                     tolerance: float, lenient: bool, tokens: bool = True) -> np.ndarray:
    """Per utterance [predictions, gold, hits, predicted tokens, gold tokens, correct tokens]
    (additive: the scores of any set of utterances come from the sums; token counts 0 unless
    `tokens`)."""
    ms, tol = frame_ms(frame_shift), tolerance_frames(tolerance, frame_shift)
    n_utt = len(start)
    gold, pr = boundary_lists(ref, pred, start, end, ms)
    b, left = hit_scan(gold, pr, n_utt, tol, lenient)
    if not tokens:
        return np.concatenate((b, np.zeros_like(b)), axis=1)
    t = token_scan(gold, (pr[0][left], pr[1][left]), n_utt, tol)
    return np.concatenate((b, t), axis=1)


def warnings(utts: Any, p: Any) -> list[str]:
    """The warning when a frame exceeds the script's int16 (it would wrap; termeval does not)."""
    n = frames(utts.end - utts.start, frame_ms(p.frame_shift))
    long = int((n > INT16_MAX).sum()) if len(n) else 0
    if not long:
        return []
    return [f"{long} utterances are longer than {INT16_MAX} frames of {frame_ms(p.frame_shift)} ms: "
            "s-malan's boundary_word.py stores frames as int16 and would wrap them; scored without "
            "wrapping (score utterances, e.g. --segments from a VAD, as the script's .list files are)"]


def values(c: np.ndarray) -> dict[str, float | None]:
    """P, R, F, OS, R-value of summed counts [n_ref, n_pred, hits] (boundaries or tokens), as
    get_p_r_f1, get_os, get_rvalue and get_word_token_boundaries give them: P and R are 0 when
    there is no hit; where the script gives F = -inf (no boundary at all, or token P + R = 0)
    F is 0, as everywhere in termeval; OS and R-value (-inf there) are undefined when P = 0; token
    P without any predicted token (a division by zero in the script) is 0."""
    n_ref, n_pred, hit = (int(x) for x in c[:3])
    p = hit / n_pred if hit else 0.0
    r = hit / n_ref if hit else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    if not p:
        return {"precision": p, "recall": r, "fscore": f, "os": None, "rvalue": None}
    os_ = r / p - 1
    r1 = math.sqrt((1 - r) ** 2 + os_ ** 2)
    r2 = (-os_ + r - 1) / math.sqrt(2)
    return {"precision": p, "recall": r, "fscore": f, "os": os_, "rvalue": 1 - (abs(r1) + abs(r2)) / 2}


def score(ref: Any, pred: Any, utts: Any, p: Any, tokens: bool = True) -> dict:
    """The registry's face (termeval.segmentation.scorers): per utterance boundary and token
    counts [n_ref, n_pred, hits]; every utterance is scored (one without segments has an
    empty list, its gold boundaries all missed)."""
    c = utterance_counts((ref.utt, ref.onset, ref.offset), (pred.utt, pred.onset, pred.offset),
                         utts.start, utts.end, p.frame_shift, p.tolerance, lenient(p), tokens)
    return {"boundary": c[:, [1, 0, 2]], "token": c[:, [4, 3, 5]] if tokens else None,
            "scored": np.ones(len(utts), dtype=bool)}


def lenient(p: Any) -> bool:
    return p.compat == "malan-lenient"


def definitions(p: Any) -> dict:
    return {
        "scorer": "malan-lenient" if lenient(p) else "malan-strict",
        "reproduces": "s-malan/evaluation boundary_word.py eval_segmentation, get_p_r_f1, get_os, "
                      "get_rvalue, get_word_token_boundaries",
        "frames": f"round-half-even(t / {frame_ms(p.frame_shift)} * 1000), t in seconds from the utterance start",
        "reference_boundaries": "the end of every interval of the tier, silences and the utterance end included",
        "predicted_boundaries": "the end of every predicted segment",
        "matching": ("each gold boundary in order pops every prediction within the tolerance, "
                     "skipping the one after each pop" if lenient(p) else
                     "each gold boundary in order pops the first prediction within the tolerance")
                    + "; the last pair is removed first when within the tolerance",
        "tokens": "intervals between consecutive entries of [0] + the lists as the hit scan leaves them; "
                  "start and end within the tolerance, each gold token used once",
        "tolerance": float(p.tolerance),
        "tolerance_frames": tolerance_frames(p.tolerance, p.frame_shift),
        "frame_shift": float(p.frame_shift),
        "formulas": "P = hits / #pred, R = hits / #ref, F = 2PR/(P+R), OS = R/P - 1, R-value (Räsänen 2009)",
        "utterances": "every utterance",
    }
