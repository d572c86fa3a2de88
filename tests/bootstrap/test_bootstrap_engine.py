"""The resampling engine: nominal coverage, determinism, paired tests, storage."""
from __future__ import annotations

import numpy as np
import pytest

from termeval.bootstrap.engine import (UnitStats, bootstrap_ci, evaluate, merge_units, paired_test,
                                       percentile_ci, resample)
from termeval.bootstrap.units import data_identity, load_units, save_units
from termeval.core.scores import Metric, format_line

RATIO = {"p": ("ratio", "hit", "n")}


def table(hit, n, unit="file"):
    X = np.c_[hit, n]
    return UnitStats(unit, [f"u{i:04d}" for i in range(len(n))], ["hit", "n"], X, dict(RATIO),
                     {"p": float(np.sum(hit) / np.sum(n))})


def test_coverage_of_a_ratio_is_nominal():
    """Units of random size with binomial hits: the 95% interval covers the true p at ~95%."""
    rng = np.random.default_rng(20240501)
    p_true, draws, covered = 0.3, 300, 0
    for d in range(draws):
        n = rng.integers(5, 60, size=80)
        hit = rng.binomial(n, p_true)
        ci = bootstrap_ci(table(hit, n), 400, seed=d)["p"]
        covered += ci["lo"] <= p_true <= ci["hi"]
    rate = covered / draws
    assert 0.90 <= rate <= 0.985, rate


def test_coverage_of_a_mean_is_nominal():
    """A mean over units (the ATWV form) with normal unit values: coverage ~90% at level 0.9."""
    rng = np.random.default_rng(7)
    covered, draws = 0, 300
    for d in range(draws):
        v = rng.normal(0.5, 0.2, size=60)
        us = UnitStats("term", [str(i) for i in range(60)], ["v", "one"], np.c_[v, np.ones(60)],
                       {"m": ("ratio", "v", "one")}, {"m": float(v.mean())})
        ci = bootstrap_ci(us, 400, seed=1000 + d, level=0.9)["m"]
        covered += ci["lo"] <= 0.5 <= ci["hi"]
    assert 0.84 <= covered / draws <= 0.95, covered / draws


def test_deterministic_for_a_seed():
    rng = np.random.default_rng(1)
    n = rng.integers(1, 30, size=200)
    us = table(rng.binomial(n, 0.5), n)
    a, b, c = resample(us, 300, 5), resample(us, 300, 5), resample(us, 300, 6)
    assert np.array_equal(a["p"], b["p"])
    assert not np.array_equal(a["p"], c["p"])


def test_centred_on_the_exact_value():
    """theta* = exact + r(w) - r(1): a surrogate's offset moves the interval, not its width."""
    us = table(np.array([1, 2, 3, 4.0]), np.array([4, 4, 4, 4.0]))
    ref = bootstrap_ci(us, 200, 3)["p"]
    us.exact["p"] += 0.1
    moved = bootstrap_ci(us, 200, 3)["p"]
    assert moved["lo"] == pytest.approx(ref["lo"] + 0.1) and moved["hi"] == pytest.approx(ref["hi"] + 0.1)
    us.exact["p"] = None
    assert bootstrap_ci(us, 50, 3)["p"]["lo"] is None


def test_fscore_and_maxratio():
    us = UnitStats("term", ["a", "b"], ["x", "y", "d"], [[1, 3, 2], [0, 0, 2]],
                   {"P": ("ratio", "x", "d"), "R": ("ratio", "y", "d"), "F": ("fscore", "P", "R"),
                    "M": ("maxratio", ["x", "y"], "d")})
    v = evaluate(us, np.array([[1.0, 3.0, 4.0], [0.0, 0.0, 4.0], [1.0, 1.0, 0.0]]))
    assert v["P"][0] == 0.25 and v["R"][0] == 0.75 and v["F"][0] == pytest.approx(2 * .25 * .75 / 1.0)
    assert v["F"][1] == 0.0                       # P + R = 0
    assert np.isnan(v["F"][2]) and np.isnan(v["P"][2])
    assert v["M"][0] == 0.75


def test_identical_systems_give_zero_and_p_one():
    rng = np.random.default_rng(3)
    n = rng.integers(1, 30, size=50)
    a = table(rng.binomial(n, 0.4), n)
    for test in ("bootstrap", "permutation"):
        r = paired_test(a, a, 500, 11, test=test)["p"]
        assert r["diff"] == 0.0 and r["lo"] == 0.0 and r["hi"] == 0.0 and r["p"] == 1.0


def test_different_systems_are_significant():
    rng = np.random.default_rng(4)
    n = rng.integers(20, 40, size=60)
    a, b = table(rng.binomial(n, 0.6), n), table(rng.binomial(n, 0.3), n)
    for test in ("bootstrap", "permutation"):
        r = paired_test(a, b, 500, 2, test=test)["p"]
        assert r["diff"] > 0.2 and r["lo"] > 0.2 and r["p"] < 0.01, r
    # same distribution: not significant, interval contains 0
    c = table(rng.binomial(n, 0.6), n)
    r = paired_test(a, c, 500, 2)["p"]
    assert r["lo"] < 0 < r["hi"] or r["p"] > 0.01


def test_paired_needs_the_same_units():
    a = table(np.array([1.0, 2]), np.array([3.0, 3]))
    b = table(np.array([1.0, 2, 3]), np.array([3.0, 3, 3]))
    with pytest.raises(ValueError, match="units"):
        paired_test(a, b, 10, 1)


def test_percentile_ci_ignores_undefined():
    assert percentile_ci(np.array([np.nan, 1.0, 1.0]), 0.95) == (1.0, 1.0)
    assert percentile_ci(np.array([np.nan]), 0.95) is None


def test_merge_units_orders_by_id():
    ids, X = merge_units(["b", "a", "b"], [np.array([[1.0, 2]]), np.array([[3.0, 4], [5, 6]])])
    assert ids == ["a", "b"] and X.tolist() == [[3, 4], [6, 8]]


def test_save_load_round_trip(tmp_path):
    us = UnitStats("term", ["a", "b"], ["x", "d"], [[1, 2], [3, 4]],
                   {"P": ("ratio", "x", "d"), "M": ("maxratio", ["x"], "d")}, {"P": 0.5, "M": None})
    save_units(str(tmp_path / "u.npz"), us)
    back = load_units(str(tmp_path / "u.npz"))
    assert back.ids == us.ids and back.columns == us.columns and np.array_equal(back.X, us.X)
    assert back.exact == us.exact and back.metrics["P"] == ("ratio", "x", "d")
    assert bootstrap_ci(back, 20, 1)["M"]["lo"] is None


def test_data_identity(tmp_path):
    f = tmp_path / "phones"
    f.write_text("a 0 1 x\n")
    i1 = data_identity([str(f)], {"benchmark": "zrc2020"})
    assert i1 == data_identity([str(f)], {"benchmark": "zrc2020"})
    assert i1 != data_identity([str(f)], {"benchmark": "zr2017"})
    f.write_text("a 0 1 y\n")
    assert i1 != data_identity([str(f)], {"benchmark": "zrc2020"})


def test_score_line_with_interval():
    m = Metric("ned", 0.880713, "357082 pairs", {"lo": 0.87412, "hi": 0.88691, "level": 0.95})
    assert format_line(m) == "ned 0.880713 [ 357082 pairs ] ci95 0.8741 0.8869"
    assert format_line(Metric("x", 1.0, "", {"lo": None, "hi": None, "level": 0.9})) == "x 1.000000 ci90 - -"


def test_lincomb_and_maxlincomb():
    us = UnitStats("term", ["a", "b"], ["h1", "h2", "t", "f1", "f2", "e"],
                   [[1, 0.5, 1, 0.1, 0.0, 1], [0, 0, 0, 0.2, 0.1, 1]],
                   {"A": ("lincomb", ((1.0, "h1", "t"), (-2.0, "f1", "e"))),
                    "M": ("maxlincomb", ((1.0, ("h1", "h2"), "t"), (-2.0, ("f1", "f2"), "e")))})
    v = {k: float(x[0]) for k, x in evaluate(us, us.X.sum(axis=0)).items()}
    assert v["A"] == pytest.approx(1.0 - 2 * 0.15)
    assert v["M"] == pytest.approx(max(1.0 - 2 * 0.15, 0.5 - 2 * 0.05))


def test_paired_interval_excludes_zero_exactly_when_p_below_alpha():
    """issue 31 (`type_fscore -0.033 ci95 -0.0680 -0.0013 p 0.053`): the interval and the
    bootstrap p come from the same replicates and agree by construction, for any replicates
    (ties, exact zeros, undefined values) and any level."""
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from termeval.bootstrap.engine import paired_summary

    values = st.one_of(st.integers(-5, 5).map(lambda k: k / 100), st.floats(-1, 1), st.just(float("nan")))

    @settings(max_examples=600, deadline=None)
    @given(st.lists(values, min_size=1, max_size=300),
           st.one_of(st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99]), st.floats(0.01, 0.999)))
    def check(reps, level):
        dd = np.array(reps, dtype=float)
        r = paired_summary(0.3, 0.25, dd, 0.05, [], "bootstrap", level, {})
        if not np.isfinite(dd).any():
            assert r["lo"] is None and r["p"] is None
            return
        assert r["lo"] <= r["hi"] and 0 <= r["p"] <= 1
        # p < alpha, or no replicate reached 0 (p is then the bound 2/N): the interval excludes 0
        assert (r["lo"] > 0 or r["hi"] < 0) == (r["p"] < 1 - level or r["p_upper_bound"]), (r, level)
    check()
    # and on random paired resamples of real tables
    rng = np.random.default_rng(5)
    for seed in range(30):
        n = rng.integers(5, 30, size=40)
        a, b = table(rng.binomial(n, 0.5), n), table(rng.binomial(n, 0.5 - 0.02 * (seed % 4)), n)
        for level in (0.9, 0.95):
            r = paired_test(a, b, 200, seed, level)["p"]
            assert (r["lo"] > 0 or r["hi"] < 0) == (r["p"] < 1 - level), r
