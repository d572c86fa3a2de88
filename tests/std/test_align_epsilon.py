"""F4DE's alignment weights at their edges: the joint weight of a (detection, reference) pair is
1 + 1e-8 * time congruence + 1e-6 * score congruence (KWSEval's kernel: time congruence = the
overlap over the reference's duration, score congruence = the score normalised to [0, 1]), so a
difference of scores outweighs a difference of overlaps exactly when 1e-6 * dS > 1e-8 * dT.
Hand cases on each side of that line, and random competitions against a brute force written
here from KWSEval's kernel (not with termeval's weights)."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

from termeval.std.align import align_f4de


def _align(refs, dets, scores, score_range=(0.0, 1.0)):
    g_r, g_d = np.zeros(len(refs), np.int64), np.zeros(len(dets), np.int64)
    rb, re_ = (np.array([r[i] for r in refs], float) for i in (0, 1))
    db, de = (np.array([d[i] for d in dets], float) for i in (0, 1))
    return align_f4de(g_r, rb, re_, g_d, db, de, np.array(scores, float), score_range=score_range)


@pytest.mark.parametrize("ds,winner", [(0.005, 1), (0.0099, 1), (0.0101, 0), (0.02, 0), (0.0, 1)])
def test_score_against_overlap(ds, winner):
    # one reference 10.0-11.0; detection 0 touches its end (overlap 0, mid-point 11.2 in the 0.5 s
    # window), detection 1 covers it (overlap share 1): detection 0 wins only when 1e-6 * ds > 1e-8 * 1
    # (F4DE's time congruence is not clipped: a detection after the reference has a negative one)
    refs = [(10.0, 11.0)]
    dets = [(11.0, 11.4), (10.0, 11.0)]
    dm, rm, _ = _align(refs, dets, [0.5 + ds, 0.5])
    assert rm.tolist() == [winner]


def test_overlap_decides_equal_scores_and_score_equal_overlaps():
    refs = [(10.0, 11.0)]
    assert _align(refs, [(10.0, 10.6), (10.0, 10.5)], [0.7, 0.7])[1].tolist() == [0]     # more overlap
    assert _align(refs, [(10.0, 10.5), (10.0, 10.5)], [0.7, 0.7 + 1e-9])[1].tolist() == [1]   # higher score


def test_more_alignments_beat_any_score():
    # d0 (score 1) could take r0; then d1 (score 0) aligns nowhere: F4DE gives r0 to d1, r1 to d0
    refs = [(1.0, 1.5), (2.0, 2.5)]
    dets = [(1.5, 2.0), (1.0, 1.5)]           # d0's mid-point 1.75 lies in both windows, d1's only in r0's
    dm, rm, _ = _align(refs, dets, [1.0, 0.0])
    assert dm.tolist() == [1, 0]


def weight(ref, det, score, lo=0.0, hi=1.0, tol=0.5):
    """KWSEval's _bipartiteKernel in doubles, as its Perl computes it (a tie in doubles is a tie
    for F4DE too); None outside the window. Totals are added exactly (Fractions of the doubles)."""
    (b, e), (db, de) = ref, det
    mid = db + (de - db) / 2
    if not b - tol <= mid <= e + tol:
        return None
    t = (min(de, e) - max(db, b)) / max(e - b, 0.00001)
    s = (score - lo) / max(hi - lo, 0.00001)
    return Fraction(1 + 1e-8 * t + 1e-6 * s)


def brute(refs, dets, scores) -> Fraction:
    """The maximum total joint weight over every one-to-one alignment."""
    best = Fraction(0)
    for perm in itertools.product(range(-1, len(refs)), repeat=len(dets)):
        used = [p for p in perm if p >= 0]
        if len(used) != len(set(used)):
            continue
        ws = [weight(refs[p], dets[d], scores[d]) for d, p in enumerate(perm) if p >= 0]
        if None not in ws:
            best = max(best, sum(ws, Fraction(0)))
    return best


def test_random_competitions_at_the_epsilon_line():
    # score offsets whose differences fall just off the multiples of 1e-3 (= 1e-2 x the overlap
    # differences the durations below make), on both sides: no exact tie for the floats to decide
    rng = random.Random(5)
    for _ in range(150):
        refs = sorted((b, b + rng.choice((0.2, 0.5, 1.0))) for b in (rng.choice((1.0, 2.0, 3.0)) for _ in range(2)))
        refs = [r for i, r in enumerate(refs) if i == 0 or r[0] > refs[i - 1][1]]
        dets, scores = [], []
        base = rng.random() * 0.5
        for _ in range(rng.randint(2, 4)):
            b = rng.choice(refs)[0] + rng.choice((-0.3, 0.0, 0.1, 0.4))
            dets.append((round(b, 3), round(b + rng.choice((0.1, 0.3, 0.5)), 3)))
            scores.append(base + rng.choice((0.0, 0.00347, 0.00953, 0.01061, 0.0297)))
        dm, rm, _ = _align(refs, dets, scores)
        got = sum((weight(refs[r], dets[d], scores[d]) for d, r in enumerate(dm.tolist()) if r >= 0), Fraction(0))
        assert got == brute(refs, dets, scores), (refs, dets, scores, dm.tolist())
