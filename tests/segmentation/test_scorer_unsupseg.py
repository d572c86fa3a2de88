"""Hand-computed cases for --compat unsupseg (felixkreuk/UnsupSeg utils.py
PrecisionRecallMetric), and a differential run of that class when $UNSUPSEG_DIR points to a
checkout of felixkreuk/UnsupSeg (torch and wandb are stubbed when absent: the metric is numpy
and scipy)."""
from __future__ import annotations

import importlib.util
import math
import os
import sys
import types

import numpy as np
import pytest

from termeval.segmentation.scorers import unsupseg


def tier(*utts):
    """(utt, onset, offset) of contiguous intervals ending at the given times, from 0."""
    u, on, off = [], [], []
    for i, ends in enumerate(utts):
        prev = 0.0
        for e in ends:
            u.append(i), on.append(prev), off.append(e)
            prev = e
    return np.array(u, dtype=np.int64), np.array(on), np.array(off)


def counts(ref, pred, durations, tol=0.02):
    end = np.array(durations, dtype=np.float64)
    return unsupseg.utterance_counts(ref, pred, np.zeros(len(end)), end, 0.01, tol).tolist()


def test_frames_truncate_with_slack():
    assert unsupseg.frames([0.03, 0.019, 0.025, 0.0999999], 0.01).tolist() == [3, 1, 2, 9]
    assert unsupseg.tolerance_frames(0.02, 0.01) == 2


def test_internal_boundaries_are_all_ends_but_the_last():
    # words 0.1-0.3, 0.3-0.5 in a 1 s utterance: ends 0.1 (silence), 0.3, 0.5, 1.0 -> 10 30 50
    u, f = unsupseg.internal((np.array([0, 0]), np.array([0.1, 0.3]), np.array([0.3, 0.5])),
                             np.array([0.0]), np.array([1.0]), 0.01)
    assert f.tolist() == [10, 30, 50]
    # the last word ends the utterance: its end is not a boundary
    u, f = unsupseg.internal(tier([0.3, 1.0]), np.array([0.0]), np.array([1.0]), 0.01)
    assert f.tolist() == [30]


def test_lenient_both_ways():
    # gold 10, predictions 9 and 11: both correct, the gold found once
    assert counts(tier([0.10, 1.0]), tier([0.09, 0.11, 1.0]), [1.0]) == [[2, 1, 2, 1]]
    # gold 10 and 12, one prediction 11: one correct, two found
    assert counts(tier([0.10, 0.12, 1.0]), tier([0.11, 1.0]), [1.0]) == [[1, 2, 1, 2]]
    # at the tolerance (2 frames) and past it
    assert counts(tier([0.10, 1.0]), tier([0.12, 0.50, 1.0]), [1.0]) == [[1, 1, 2, 1]]
    assert counts(tier([0.10, 1.0]), tier([0.13, 1.0]), [1.0]) == [[0, 0, 1, 1]]


def test_fallback_prediction_at_the_last_frame():
    # no predicted boundary (one segment, or no segment): a prediction at frame n - 1 = 99,
    # which finds a gold boundary at 98
    no_seg = (np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0))
    assert counts(tier([0.98, 1.0]), tier([1.0]), [1.0]) == [[1, 1, 1, 1]]
    assert counts(tier([0.50, 1.0]), no_seg, [1.0]) == [[0, 0, 1, 1]]


def test_utterance_without_gold_boundary():
    # one word over the whole utterance: no gold boundary; the prediction counts as wrong
    assert counts(tier([1.0]), tier([0.5, 1.0]), [1.0]) == [[0, 0, 1, 0]]


def test_duplicate_frames_count_twice():
    # ends 0.101 and 0.105 are both frame 10: two gold boundaries, both found by 11
    assert counts(tier([0.101, 0.105, 1.0]), tier([0.11, 1.0]), [1.0]) == [[1, 2, 1, 2]]


def test_smoothed_scores():
    s = unsupseg.scores(np.array([1, 1, 2, 1]))
    p, r = 1 / 2.00001, 1 / 1.00001
    f = 2 * p * r / (p + r + 1e-5)
    os_ = r / (p + 1e-7) - 1
    rval = 1 - (math.sqrt((1 - r) ** 2 + os_ ** 2) + abs((-os_ + r - 1) / math.sqrt(2))) / 2
    assert s == {"boundary_precision": p, "boundary_recall": r, "boundary_fscore": f, "boundary_rvalue": rval}
    s = unsupseg.scores(np.array([0, 0, 3, 0]))
    assert s["boundary_precision"] == 0.0 and s["boundary_recall"] == 0.0 and s["boundary_fscore"] == 0.0


def _load_utils(path):
    """UnsupSeg's utils.py with torch and wandb stubbed when they are not installed."""
    if importlib.util.find_spec("torch") is None:
        torch = types.ModuleType("torch")
        nn = types.ModuleType("torch.nn")
        nn.Module = object
        torch.nn, torch.Tensor = nn, type("Tensor", (), {})
        sys.modules.setdefault("torch", torch)
        sys.modules.setdefault("torch.nn", nn)
    if importlib.util.find_spec("wandb") is None:
        sys.modules.setdefault("wandb", types.ModuleType("wandb"))
    spec = importlib.util.spec_from_file_location("unsupseg_utils", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.skipif(not os.environ.get("UNSUPSEG_DIR"), reason="$UNSUPSEG_DIR: a checkout of felixkreuk/UnsupSeg")
def test_differential_against_precision_recall_metric():
    ut = _load_utils(os.path.join(os.environ["UNSUPSEG_DIR"], "utils.py"))
    rng = np.random.default_rng(11)
    for _ in range(100):
        n_utt = int(rng.integers(1, 5))
        metric = ut.PrecisionRecallMetric()
        gold, pred, dur = [], [], []
        for _ in range(n_utt):
            n = int(rng.integers(20, 120))
            g = np.unique(rng.integers(1, n - 1, int(rng.integers(1, 10))))
            peaks = np.unique(rng.integers(1, n - 1, int(rng.integers(0, 8))))
            peaks = peaks[np.concatenate(([True], np.diff(peaks) > 1))] if len(peaks) else peaks
            x = np.linspace(0, 1, n)                 # no peak: the n - 1 fallback
            if len(peaks):
                x = np.zeros(n)
                x[peaks] = 1.0
            metric.data.append(([float(v) for v in g], x, n))
            gold.append(g.tolist() + [n]), pred.append(peaks.tolist() + [n]), dur.append(n / 100)
        (p, r, f, rval), _ = metric.get_stats(prominence=0.05, width=None, distance=None)
        ref = tier(*[[v / 100 for v in x] for x in gold])
        hyp = tier(*[[v / 100 for v in x] for x in pred])
        end = np.array(dur)
        mine = unsupseg.scores(unsupseg.utterance_counts(ref, hyp, np.zeros(n_utt), end, 0.01, 0.02).sum(axis=0))
        assert mine == {"boundary_precision": p, "boundary_recall": r, "boundary_fscore": f, "boundary_rvalue": rval}
