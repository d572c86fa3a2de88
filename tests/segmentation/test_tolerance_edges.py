"""Every boundary scorer at exactly its tolerance and one step beyond, on both sides: seconds
compared in integer microseconds (default), in float64 (harwath), integer milliseconds (rasanen),
or frames (vqwordseg, unsupseg, malan). One gold boundary at 1.00 s of a 2 s utterance, one
predicted boundary moved by d."""
from __future__ import annotations

import numpy as np
import pytest

from termeval.segmentation.stats import Settings, job_stats

from test_segmentation_scorers import iv, utts


def _row(compat: str, cut: float, tol: float, frame_shift: float, at: float) -> np.ndarray:
    u = utts([3.0])
    ref = iv([(0, 0.3, at, "a"), (0, at, 2.7, "b")])
    pred = iv([(0, 0.0, 0.3, "x"), (0, 0.3, cut, "y"), (0, cut, 2.7, "x"), (0, 2.7, 3.0, "y")])
    return np.asarray(job_stats(ref, pred, u, np.array([0]), Settings(tol, frame_shift, "word", compat))["boundary"][0])


def hits(compat: str, d_ms: float, tol: float = 0.02, frame_shift: float = 0.01, at: float = 1.0) -> int:
    """Whether the gold boundary `at` (words a 0.3-at, b at-2.7 in a 3 s utterance) is hit by a
    prediction cutting at at + d_ms (segments 0-0.3-cut-2.7-3.0): the hits against those of a
    cut exactly at `at`, where every boundary is hit."""
    base = _row(compat, at, tol, frame_shift, at)
    row = _row(compat, at + d_ms / 1000, tol, frame_shift, at)
    assert (row[:2] == base[:2]).all()
    return 1 - int(base[-1] - row[-1])


@pytest.mark.parametrize("compat,inside,outside", [
    ("none", 20, 20.001),            # integer microseconds: 20 ms is a hit, 20.001 ms not
    ("rasanen", 20, 21),             # integer milliseconds, window b - 20 .. b + 20 inclusive
    ("vqwordseg", 20, 30),           # 2 frames of 10 ms
    ("unsupseg", 20, 30),            # 2 frames of 10 ms
])
def test_at_the_tolerance_and_beyond(compat, inside, outside):
    for sign in (1, -1):
        assert hits(compat, sign * inside) == 1, (compat, sign * inside)
        assert hits(compat, sign * outside) == 0, (compat, sign * outside)


def test_float_ties_of_the_default_and_harwath():
    # 1.98 -> 2.00: 0.020000000000000018 in float64, exactly 20 ms in microseconds
    assert 2.00 - 1.98 > 0.02
    assert hits("none", 20, at=1.98) == 1 and hits("none", -20, at=2.0) == 1
    u = utts([3.0])
    ref = iv([(0, 0.5, 1.98, "a")])
    from termeval.segmentation.scorers import harwath
    from test_segmentation_scorers import P, total
    assert total(harwath.score(ref, iv([(0, 0.5, 2.00)]), u, P())) == [2, 2, 1]      # a miss in float
    assert total(harwath.score(ref, iv([(0, 0.5, 1.96)]), u, P())) == [2, 2, 1]      # 1.98 - 1.96: a miss too
    assert total(harwath.score(ref, iv([(0, 0.5, 1.961)]), u, P())) == [2, 2, 2]


@pytest.mark.parametrize("mode", ["malan-strict", "malan-lenient"])
def test_malan_frames(mode):
    # 20 ms frames, tolerance 1 frame: 1.00 s is frame 50; 1.02 (frame 51) hits, 1.04 (52) not;
    # 1.03 is frame round(51.5) = 52 (half to even): not a hit
    ok = Settings(0.02, 0.02, "word", mode)
    u = utts([2.0])
    ref = iv([(0, 0.3, 1.0, "a"), (0, 1.0, 1.7, "b")])
    for cut, want in ((1.02, 1), (0.98, 1), (1.04, 0), (0.96, 0), (1.03, 0), (1.01, 1)):
        pred = iv([(0, 0.0, 0.3, "x"), (0, 0.3, cut, "y"), (0, cut, 1.7, "x"), (0, 1.7, 2.0, "y")])
        row = job_stats(ref, pred, u, np.array([0]), ok)["boundary"][0]
        # gold ends 0.3 1.0 1.7 2.0 (the last pair 2.0/2.0 removed), predicted 0.3 cut 1.7 2.0
        assert row[2] - 2 == want, (cut, row)
