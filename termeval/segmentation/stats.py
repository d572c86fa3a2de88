"""Additive statistics of one share of the utterances (one job of --nj N).

Everything the scores need is a sum over utterances: per utterance the boundary and token
counts [n_ref, n_pred, hits] (also for each tolerance of the sweep), and the contingency
table cells (reference label, cluster) -> count. A merge adds them up, so N jobs give the
numbers of one.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from termeval.core.errors import InputError

from termeval.segmentation import compat
from termeval.segmentation.boundary import boundary_counts, edge_distance, interval_points, micro, sweep_counts
from termeval.segmentation.clusters import SIL_LABEL, contingency, overlap_labels
from termeval.segmentation.inputs import NO_LABEL, Intervals, Utterances
from termeval.segmentation.matching import keys
from termeval.segmentation import scorer_registry as scorers
from termeval.segmentation.inputs import speech_only
from termeval.segmentation.syllables import gold_label_counts, matched_cells
from termeval.segmentation.token import token_counts

SWEEP_MS = tuple(range(5, 55, 5))       # default mode: boundary F at 5, 10, ..., 50 ms
SWEEP_FRAMES = tuple(range(0, 6))       # compat: 0..5 frames


DEFAULT_FRAME_SHIFT = 0.01     # seconds: frame input and --compat vqwordseg, unless --frame-shift


def frame_shift_for(compat: str, given: float | None) -> float:
    """The frame shift of a mode: --frame-shift when given, else the named scorer's own, else 0.01."""
    if given is not None:
        return given
    named = scorers.get(compat)
    return named.frame_shift if named is not None and named.frame_shift is not None else DEFAULT_FRAME_SHIFT


@dataclass
class Settings:
    tolerance: float = 0.02
    frame_shift: float = DEFAULT_FRAME_SHIFT
    level: str = "word"
    compat: str = "none"
    frame_shift_given: bool = False     # --frame-shift given: every frame-based row of --compat all uses it

    @property
    def framed(self) -> bool:
        """Whether the mode counts in frames (vqwordseg, unsupseg, malan-*)."""
        named = scorers.get(self.compat)
        return self.compat == "vqwordseg" or (named is not None and named.frame_shift is not None)

    @property
    def tol_frames(self) -> int:
        return int(np.floor(self.tolerance / self.frame_shift + 0.5 + 1e-6))

    def sweep(self) -> list[float]:
        """Tolerances of the sweep, seconds."""
        if self.framed:
            return [k * self.frame_shift for k in SWEEP_FRAMES]
        return [ms / 1000 for ms in SWEEP_MS]


def _select(iv: Intervals, sel: np.ndarray, n_utt: int) -> Intervals:
    mask = np.zeros(n_utt, dtype=bool)
    mask[sel] = True
    return iv.take(np.flatnonzero(mask[iv.utt]))


def job_stats(ref: Intervals, pred: Intervals, utts: Utterances, sel: np.ndarray, s: Settings) -> dict:
    """Statistics of the utterances `sel` (indices into utts)."""
    n = len(utts)
    ref, pred = _select(ref, sel, n), _select(pred, sel, n)
    scorer = scorers.get(s.compat)
    if scorer is not None:
        out = _named_counts(scorer, ref, pred, utts, n, s)
    elif s.compat == "vqwordseg":
        out = _compat_counts(ref, pred, utts, n, s)
    else:
        out = _default_counts(ref, pred, utts, n, s)
    scored = out.pop("scored")
    rows = sel[scored[sel]]
    res = {
        "utts": [utts.ids[u] for u in rows.tolist()],
        "boundary": out["boundary"][rows].tolist(),
        "token": out["token"][rows].tolist(),
        "sweep": [c[rows].tolist() for c in out["sweep"]],
        "utts_skipped": int(len(sel) - len(rows)),
        "cells": [[], [], []],   # label names, cluster names, counts
        "utt_cells": [[], [], [], []],   # the same per utterance (termeval.segmentation.units)
    }
    if s.level == "syllable" and pred.labels and (pred.label != NO_LABEL).all():   # a job without segments too
        res["syllable_cells"] = matched_cells(ref, pred, utts.start)   # SD-HuBERT's matched pairs
        res["syllable_gold"] = gold_label_counts(ref)                  # every gold syllable: snmi's entropy
    lab = out.get("label")
    if lab is not None and pred.labels:
        keep = scored[out["pred_utt"]]
        t = contingency(lab[keep], out["cluster"][keep], out["label_names"], pred.labels)
        res["cells"] = [_names(t.labels, t.row), _names(t.clusters, t.col), t.count.tolist()]
        trip, cnt = count_triples(out["pred_utt"][keep], lab[keep], out["cluster"][keep])
        res["utt_cells"] = [_names(utts.ids, trip[:, 0]), _names(out["label_names"], trip[:, 1]),
                            _names(pred.labels, trip[:, 2]), cnt.tolist()]
    return res


def _names(names: list[str], idx: np.ndarray) -> list[str]:
    """[names[i] for i in idx] (the shard's JSON holds names, not indices)."""
    return list(map(names.__getitem__, idx.tolist()))


def count_triples(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (a, b, c) rows of three non-negative integer columns in lexicographic order
    and their counts: np.unique(np.stack((a, b, c), axis=1), axis=0, return_counts=True), on
    one int64 code per row when the three fit in 62 bits (np.unique over rows sorts a
    structured view, about ten times slower)."""
    a, b, c = (np.asarray(x, dtype=np.int64) for x in (a, b, c))
    if not len(a):
        return np.zeros((0, 3), dtype=np.int64), np.zeros(0, dtype=np.int64)
    nb, nc = int(b.max()) + 1, int(c.max()) + 1
    if (int(a.max()) + 1) * nb * nc >= 1 << 62:
        return np.unique(np.stack((a, b, c), axis=1), axis=0, return_counts=True)
    code = np.sort((a * nb + b) * nc + c)
    first = np.flatnonzero(np.concatenate(([True], code[1:] != code[:-1])))
    u = code[first]
    rows = np.stack((u // (nb * nc), u // nc % nb, u % nc), axis=1)
    return rows, np.diff(np.append(first, len(code)))


def _default_counts(ref: Intervals, pred: Intervals, utts: Utterances, n: int, s: Settings) -> dict:
    rs, re = micro(ref.onset), micro(ref.offset)
    ps, pe = micro(pred.onset), micro(pred.offset)
    u = np.arange(n)
    edge_s, edge_e = keys(u, micro(utts.start)), keys(u, micro(utts.end))
    rpts, ppts = interval_points(ref.utt, rs, re), interval_points(pred.utt, ps, pe)
    rd, pd = edge_distance(rpts, edge_s, edge_e), edge_distance(ppts, edge_s, edge_e)
    tols = [int(micro(t)) for t in [s.tolerance] + s.sweep()]   # the sweep holds the tolerance (20 ms)
    bnd = sweep_counts(rpts, rd, ppts, pd, sorted(set(tols)), n)
    out = {"boundary": bnd[tols[0]], "sweep": [bnd[t] for t in tols[1:]],
           "token": token_counts(ref.utt, rs, re, pred.utt, ps, pe, int(micro(s.tolerance)), n),
           "scored": np.ones(n, dtype=bool), "pred_utt": pred.utt}
    if pred.labels and len(pred) and (pred.label != NO_LABEL).all():
        best = overlap_labels(ref.utt, rs, re, pred.utt, ps, pe)
        sil = len(ref.labels)
        out["label"] = np.where(best >= 0, ref.label[np.maximum(best, 0)], sil)
        out["label_names"] = list(ref.labels) + [SIL_LABEL]
        out["cluster"] = pred.label
    return out


def _named_counts(scorer: scorers.Scorer, ref: Intervals, pred: Intervals, utts: Utterances, n: int,
                  s: Settings) -> dict:
    """Counts of a named scorer (termeval.segmentation.scorers) on the gold without its silence
    intervals (inputs.speech_only): no cluster cells, token counts zero when the scorer
    has none (they are not written)."""
    impl = scorer.impl()
    ref = speech_only(ref)
    r = impl.score(ref, pred, utts, s, tokens=scorer.token)
    token = r["token"] if r["token"] is not None else np.zeros((n, 3), dtype=np.int64)
    sweep = [impl.score(ref, pred, utts, replace(s, tolerance=t), tokens=False)["boundary"] for t in s.sweep()]
    return {"boundary": r["boundary"], "token": token, "sweep": sweep, "scored": r["scored"], "pred_utt": pred.utt}


def _compat_counts(ref: Intervals, pred: Intervals, utts: Utterances, n: int, s: Settings) -> dict:
    rf, pf = compat.to_frames(ref, utts, s.frame_shift), compat.to_frames(pred, utts, s.frame_shift)
    # the script scores only utterances with a reference interval and a predicted segment
    scored = (np.bincount(ref.utt, minlength=n) > 0) & (np.bincount(pred.utt, minlength=n) > 0)
    rk, pk = scored[ref.utt], scored[pred.utt]
    r = (ref.utt[rk], rf[0][rk], rf[1][rk])
    p = (pred.utt[pk], pf[0][pk], pf[1][pk])
    for side, (u, _, e) in (("reference", r), ("predicted", p)):
        empty = np.flatnonzero(compat.lengths(u, e, n)[np.unique(u)] <= 0)
        if len(empty):    # the script's boolean vector would be empty: it fails (IndexError)
            raise InputError(f"--compat vqwordseg: utterance {utts.ids[int(np.unique(u)[empty[0]])]}: every "
                             f"{side} segment ends at frame 0 (eval_segmentation.py fails on it)")
    (rbu, rbp), (pbu, pbp) = compat.boundary_points(r, p, n)
    rb, pb = keys(rbu, rbp), keys(pbu, pbp)
    (tru, trs, tre), (tpu, tps, tpe) = compat.token_segments(r, p, n)
    out = {"boundary": boundary_counts(rb, pb, s.tol_frames, n),
           "sweep": [boundary_counts(rb, pb, k, n) for k in SWEEP_FRAMES],
           "token": token_counts(tru, trs, tre, tpu, tps, tpe, s.tol_frames, n),
           "scored": scored, "pred_utt": pred.utt}
    if pred.labels and len(pred) and (pred.label != NO_LABEL).all():
        # reference intervals sorted by (utt, start, end): frames keep that order
        best = overlap_labels(ref.utt, rf[0], rf[1], pred.utt, pf[0], pf[1])
        first = np.searchsorted(ref.utt, pred.utt, side="left")
        first = np.minimum(first, max(len(ref) - 1, 0))
        idx = np.where(best >= 0, best, first)
        out["label"] = ref.label[idx] if len(ref) else np.zeros(len(pred), dtype=np.int64)
        out["label_names"] = list(ref.labels)
        out["cluster"] = pred.label
    return out
