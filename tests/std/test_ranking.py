"""Ranked-retrieval and operating figures (termeval/std/ranking.py), hand-computed as in
docs/std-metrics.md, plus F4DE's own DETCurve.pm unit vectors for AP."""
from __future__ import annotations

import numpy as np
import pytest

from termeval.std.ranking import operating_curve, ranking

# docs/std-metrics.md worked example: term A (R = 3): 0.9 T, 0.8 N, 0.7 T, 0.6 N;
# term B (R = 1): 0.5 N, 0.5 T (a tie: non-targets rank first)
TERM = np.array([0, 0, 0, 0, 1, 1])
SCORE = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.5])
TARGET = np.array([1, 0, 1, 0, 0, 1], bool)
NTRUE = np.array([3, 1])


def test_ap_map_p_at_n_r_precision_by_hand():
    r = ranking(TERM, SCORE, TARGET, NTRUE, np.ones(2, bool), p_at=(2, 10))
    assert r.ap.tolist() == pytest.approx([(1 + 2 / 3) / 3, 1 / 2], abs=1e-15)
    assert r.map == pytest.approx(19 / 36, abs=1e-15)
    assert r.p_at[2].tolist() == [0.5, 0.5] and r.p_at[10].tolist() == [0.2, 0.1]
    assert r.mean_p_at == pytest.approx({2: 0.5, 10: 0.15})
    assert r.r_precision.tolist() == pytest.approx([2 / 3, 0.0])
    assert r.mean_r_precision == pytest.approx(1 / 3)
    assert r.map_f4de == pytest.approx(r.map)  # positive scores of equal length: same order
    assert r.n_ranked.tolist() == [4, 2]


def test_terms_without_references():
    # a term with no references: AP undefined (not in MAP); F4DE's MAP counts it as 0 (-inc)
    r = ranking(np.array([0, 1]), np.array([0.9, 0.8]), np.array([True, False]), np.array([1, 0]),
                np.ones(2, bool))
    assert r.map == 1.0 and np.isnan(r.ap[1]) and r.map_f4de == 0.5


def test_f4de_map_sorts_scores_as_strings():
    # "-0.5" > "-0.25" as strings (Perl cmp): F4DE ranks the target first
    r = ranking(np.array([0, 0]), np.array([-0.5, -0.25]), np.array([True, False]), np.array([1]),
                np.ones(1, bool))
    assert r.ap[0] == 0.5 and r.ap_f4de[0] == 1.0


def test_f4de_detcurve_unit_vectors():
    # DETCurve.pm "Full system coverage of trials" (AP 0.563333) and "Omitted Trials" (5 more
    # references never detected: AP 0.281666); targets at ranks 1, 3, 6, 10, 20
    sc = [0.04, 0.05, 0.10, 0.10, 0.10, 0.15, 0.17, 0.20, 0.25, 0.65, 0.69, 0.70, 0.70, 0.73, 0.75,
          0.85, 0.90, 0.92, 0.98, 1.0]
    tg = np.zeros(20, bool)
    tg[[0, 10, 14, 17, 19]] = True
    for R, ap in ((5, 0.563333), (10, 0.281666)):
        r = ranking(np.zeros(20, np.int64), np.array(sc), tg, np.array([R]), np.ones(1, bool))
        assert f"{r.ap[0]:.6f}"[:7] == f"{ap:.6f}"[:7]
        assert r.ap_f4de[0] == r.ap[0]
    # "No System output": AP 0
    r = ranking(np.zeros(0, np.int64), np.zeros(0), np.zeros(0, bool), np.array([5]), np.ones(1, bool))
    assert r.ap[0] == 0.0


def test_fa_per_hour_and_recall_by_hand():
    oc = operating_curve(SCORE, TARGET, 4, 0.5)  # 4 references, half an hour of audio
    assert oc.threshold.tolist() == [0.9, 0.8, 0.7, 0.6, 0.5]
    assert oc.recall.tolist() == [0.25, 0.25, 0.5, 0.5, 0.75]
    assert oc.fa_per_hour.tolist() == [0.0, 2.0, 2.0, 4.0, 6.0]
    assert oc.fa_per_hour_at_recall(0.5) == (2.0, 0.7)
    assert oc.fa_per_hour_at_recall(0.75) == (6.0, 0.5)
    assert oc.fa_per_hour_at_recall(1.0) == (None, None)
    assert oc.recall_at_fa_per_hour(0) == (0.25, 0.9)
    assert oc.recall_at_fa_per_hour(5) == (0.5, 0.6)
    oc2 = operating_curve(np.array([1.0]), np.array([False]), 4, 0.5)
    assert oc2.recall_at_fa_per_hour(1) == (0.0, None)


def _text_rank(score):
    """Rank of each score's repr among the distinct reprs (what F4DE's string sort orders by)."""
    texts = sorted({repr(float(v)) for v in score})
    return np.array([texts.index(repr(float(v))) for v in score], float)


def test_f4de_string_key_equals_sorting_the_texts():
    # plain scores (+0.0 or in [1e-4, 10)) are ordered by value, the others placed by their
    # text: the key must be the rank of the text among all texts, whatever the mixture
    from termeval.std import ranking as rk
    rng = np.random.default_rng(5)
    plain = np.r_[rng.choice([0.0, 1e-4, 0.5, 0.05, 0.25, 1.0, 9.5], 300),
                  np.round(rng.random(300), 3), 10 * rng.random(300)]
    assert rk._string_key(plain) is None
    for others in ([1e-5], [10.0], [-0.0], [-0.5, -0.25], [1.5e-5, 2e-7, 12.0, 100.5, -3.0, 9.999e-5],
                   list(rng.normal(0, 50, 40))):
        s = np.r_[plain, others, others[:1]]
        assert np.array_equal(rk._string_key(s), _text_rank(s)), others
    assert np.array_equal(rk._string_key(np.array([-0.0, 0.0, 1e-5])), [0.0, 1.0, 2.0])
    # the F4DE AP from the plain shortcut is the AP of the text ranks
    term = rng.integers(0, 30, len(plain))
    target = rng.random(len(plain)) < 0.2
    R = np.bincount(term[target], minlength=30) + 1
    fast = ranking(term, plain, target, R, np.ones(30, bool)).ap_f4de
    assert np.array_equal(fast, rk._ap(term, _text_rank(plain), target, R, 30), equal_nan=True)
    # some terms with scores outside the plain range (re-ranked by text), the others not
    mixed = plain.copy()
    mixed[:40] = rng.choice([12.5, 1e-6, -0.3, 55.0, 2e-5], 40)
    ref = rk._ap(term, _text_rank(mixed), target, R, 30)
    got = ranking(term, mixed, target, R, np.ones(30, bool)).ap_f4de
    assert np.array_equal(got, ref, equal_nan=True)
    assert not np.array_equal(got, ranking(term, mixed, target, R, np.ones(30, bool)).ap, equal_nan=True)
    # '10.0' < '9.5' as text: the text sort ranks 10.0 below 9.5
    r = ranking(np.array([0, 0]), np.array([10.0, 9.5]), np.array([True, False]), np.array([1]),
                np.ones(1, bool))
    assert r.ap[0] == 1.0 and r.ap_f4de[0] == 0.5
