"""--compat unsupseg against felixkreuk/UnsupSeg utils.py: PrecisionRecallMetric.get_stats at a
fixed prominence (the test-time call) with its detect_peaks, on 240 generated cases
(tests/differential/cases.py: gold and peak frames, peaks 2 and 3 frames from a gold boundary,
utterances without a peak: the n - 1 fallback), recorded in
tests/fixtures/differential/unsupseg.json and compared on every run; against the class itself
when $UNSUPSEG_DIR names its checkout (torch and wandb stubbed: the metric is numpy and scipy).

The script works in frames: the gold boundaries (the .phn ends but the last) and the peak
indices. termeval is given the same as times, a fraction of a frame after each frame start
(floor(t / 10 ms) gives the frame back), as a user's seconds would be.
"""
from __future__ import annotations

import os

import pytest

from tests.differential import cases as gen
from tests.differential.harness import Scored, check_digests, compare, live, load_fixture, write_gold, write_pred

CASES = gen.unsupseg_cases()
KEYS = ("precision", "recall", "fscore", "rvalue")


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> Scored:
    d = str(tmp_path_factory.mktemp("unsupseg"))
    utts = [u for c in CASES for u in c.utts]
    data = write_gold(utts, d)
    pred = write_pred(utts, os.path.join(d, "pred.txt"))
    return Scored(data, pred, compat="unsupseg", level="phone", tolerance=0.02, frame_shift=0.01)


def _ours(scored: Scored, c: gen.Case) -> dict:
    v = scored.case([u.name for u in c.utts])
    return {k: v[f"phone_boundary_{k}"] for k in KEYS}


def test_recorded_cases_equal(scored):
    fx = load_fixture("unsupseg")
    check_digests(fx, CASES)
    bad = []
    for c, row in zip(CASES, fx["cases"]):
        bad += compare(_ours(scored, c), row["out"], KEYS, f"case {c.index} ({c.kind})")
    assert not bad, "\n".join(bad[:20])
    assert any(not u.units for c in CASES for u in c.utts)      # the fallback is exercised


def test_live_metric(scored):
    sub = CASES[::6]
    res = live("unsupseg", "UNSUPSEG_DIR", sub)
    bad = []
    for c, r in zip(sub, res):
        bad += compare(_ours(scored, c), r["out"], KEYS, f"case {c.index}")
    assert not bad, "\n".join(bad[:20])
