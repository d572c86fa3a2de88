"""STD scoring: hand-computed worked examples of docs/std.md (§2.6, §6.1, §6.2, §6.4) to 1e-6."""
from __future__ import annotations

import math

import numpy as np
import pytest

from termeval.std import cnxe as cx
from termeval.std.align import align_f4de, align_kaldi, _hungarian_max
from termeval.std.ecf import Ecf, file_id, in_ecf, round4
from termeval.std.twv import beta_from, compute_twv, trials_per_term

BETA_SWS = beta_from(0.00015, 100, 1)


def test_beta_presets():
    assert BETA_SWS == pytest.approx(66.656667, abs=1e-6)
    assert beta_from(1e-4, 10, 1) == pytest.approx(999.9)
    assert 1 / (1 + BETA_SWS) == pytest.approx(0.0147805, abs=1e-7)
    assert 1 / (1 + beta_from(0.0008, 100, 1)) == pytest.approx(0.0741290, abs=1e-7)


def test_trials_rate_times_duration_and_f4de_division():
    assert trials_per_term(100.0, 1.0) == 100
    assert trials_per_term(100.0, 2.0) == 200
    assert trials_per_term(100.0, 2.0, f4de_divide=True) == 50   # F4DE's bug
    assert trials_per_term(20.0, 2.0, f4de_divide=True) == 10    # MetricTWV unit test


def _toy(include_notarget=False, beta=BETA_SWS):
    # docs/std.md §6.1: q1 (4 refs), q2 (1 ref), q3 (none); N = 100
    term = np.array([0, 0, 0, 0, 0, 1, 1, 2])
    score = np.array([.9, .7, .4, .8, .3, .6, .95, .65])
    yes = np.array([1, 1, 0, 1, 0, 1, 1, 1], bool)
    tgt = np.array([1, 1, 1, 0, 0, 1, 0, 0], bool)
    ntrue = np.array([4, 1, 0])
    ev = np.array([1, 1, include_notarget], bool)
    k = ev[term]
    return compute_twv(3, ntrue, ev, 100, beta, term[k], score[k], yes[k], tgt[k])


def test_toy_atwv_mtwv_otwv_stwv():
    r = _toy()
    assert r.atwv == pytest.approx(0.066180, abs=1e-6)
    assert r.term_twv[0] == pytest.approx(-0.194340, abs=1e-6)
    assert r.term_twv[1] == pytest.approx(0.326700, abs=1e-6)
    assert r.actual_threshold == pytest.approx(0.5)
    assert r.mtwv == pytest.approx(0.191180, abs=1e-6)
    assert r.mtwv_threshold == 0.4
    assert r.p_miss_at_mtwv == pytest.approx(0.125)
    assert r.p_fa_at_mtwv == pytest.approx(0.01026, abs=1e-5)
    assert r.otwv == pytest.approx(0.288350, abs=1e-6)
    assert r.stwv == pytest.approx(0.875)
    sweep = dict(zip(r.det_thr.tolist(), r.det_twv.tolist()))
    expected = {0.3: -0.155990, 0.4: 0.191180, 0.6: 0.066180, 0.7: -0.433820, 0.8: -0.558820,
                0.9: -0.211650, 0.95: -0.336650}
    for t, v in expected.items():
        assert sweep[t] == pytest.approx(v, abs=1e-6)


def test_toy_include_notarget_and_sws2012():
    r = _toy(include_notarget=True)
    assert r.atwv == pytest.approx(0.071931, abs=1e-6)
    assert r.mtwv == pytest.approx(0.1969, abs=5e-5) and r.mtwv_threshold == 0.4
    assert _toy(beta=19.0).atwv == pytest.approx(0.555082, abs=1e-6)


def _unit_blocks(with_skip):
    she = [(0.1, 0), (0.2, 0), (0.3, 1), (0.4, 0), (0.5, 0), (0.6, 0), (0.7, 1), (0.8, 0), (0.9, 1), (1.0, 1)]
    he = [(0.41, 1), (0.51, 0), (0.61, 0), (0.7, 1)]
    ns = [(0.41, 0), (0.51, 0), (0.61, 0), (0.7, 0)]
    blocks = [she, he, ns] + ([ns] if with_skip else [])
    t, s, g = [], [], []
    for q, b in enumerate(blocks):
        for sc, tg in b:
            t.append(q), s.append(sc), g.append(tg)
    ntrue = np.array([4, 4, 2] + ([0, 0] if with_skip else []))
    Q = len(ntrue)
    return compute_twv(Q, ntrue, np.ones(Q, bool), 10, 999.9, np.array(t), np.array(s),
                       np.ones(len(s), bool), np.array(g, bool))


def test_f4de_metrictwv_unit_vectors():
    r = _unit_blocks(False)
    got = {round(t, 2): (pm, pf, tw) for t, pm, pf, tw in zip(r.det_thr, r.det_pmiss, r.det_pfa, r.det_twv)}
    exp = {0.1: (.500, .611, -610.550), 0.2: (.500, .556, -555.000), 0.3: (.500, .500, -499.450),
           0.4: (.583, .500, -499.533), 0.41: (.583, .444, -443.983), 0.5: (.667, .403, -402.404),
           0.51: (.667, .347, -346.854), 0.6: (.667, .250, -249.642), 0.61: (.667, .194, -194.092),
           0.7: (.667, .097, -96.879), 0.8: (.833, .056, -55.383), 0.9: (.833, 0, 0.167),
           1.0: (.917, 0, 0.083)}
    assert set(got) == set(exp)
    for t, (pm, pf, tw) in exp.items():
        assert round(got[t][0], 3) == pm and round(got[t][1], 3) == pf and round(got[t][2], 3) == tw
    assert r.mtwv == pytest.approx(1 / 6) and r.mtwv_threshold == 0.9


def test_f4de_metrictwv_unit_vectors_with_empty_blocks():
    r = _unit_blocks(True)
    got = {round(t, 2): (pm, pf, tw) for t, pm, pf, tw in zip(r.det_thr, r.det_pmiss, r.det_pfa, r.det_twv)}
    for t, (pm, pf, tw) in {0.1: (.5, .447, -446.122), 0.41: (.583, .347, -346.215),
                            0.7: (.667, .078, -77.992), 1.0: (.917, 0, 0.083)}.items():
        assert (round(got[t][0], 3), round(got[t][1], 3), round(got[t][2], 3)) == (pm, pf, tw)


# --- alignment (docs/std.md §2.6 examples A, B, C)

def _al(refs, dets, mode, scores=None):
    g_r = np.zeros(len(refs), np.int64)
    g_d = np.zeros(len(dets), np.int64)
    rb, re_ = np.array(refs, float).T
    db, de = np.array(dets, float).T
    if mode == "f4de":
        return align_f4de(g_r, rb, re_, g_d, db, de, np.array(scores, float))
    return align_kaldi(g_r, rb, re_, g_d, db, de)


def test_example_a_long_reference():
    dm, rm, _ = _al([(10.0, 12.0)], [(12.0, 12.6)], "f4de", [0.9])
    assert dm.tolist() == [0]
    dm, rm, _ = _al([(10.0, 12.0)], [(12.0, 12.6)], "kaldi")
    assert dm.tolist() == [-1]


def test_example_b_greedy_versus_optimal():
    refs = [(0.6, 1.4), (1.4, 1.8)]
    dets = [(1.3, 1.5), (1.8, 2.2)]
    dm, rm, st = _al(refs, dets, "f4de", [0.9, 0.8])
    assert dm.tolist() == [0, 1] and rm.tolist() == [0, 1]
    dm, rm, _ = _al(refs, dets, "kaldi")
    assert dm.tolist() == [1, -1] and rm.tolist() == [-1, 0]  # 1 hit, 1 FA, 1 miss


def test_example_c_score_tie_break():
    dm, rm, _ = _al([(5.0, 5.5)], [(5.0, 5.5), (5.0, 5.5)], "f4de", [0.3, 0.8])
    assert rm.tolist() == [1] and dm.tolist() == [-1, 0]


def test_window_is_inclusive_at_exactly_half_a_second():
    # mid = 2.0 is exactly 0.5 s after the end 1.5 (and 0.5 s before 2.5)
    dm, _, _ = _al([(1.0, 1.5)], [(1.9, 2.1)], "f4de", [1.0])
    assert dm.tolist() == [0]
    dm, _, _ = _al([(2.5, 3.0)], [(1.9, 2.1)], "f4de", [1.0])
    assert dm.tolist() == [0]
    dm, _, _ = _al([(1.0, 1.4999)], [(1.9, 2.1)], "f4de", [1.0])
    assert dm.tolist() == [-1]


def test_branching_cluster_uses_exact_matching():
    # d0 may take r0 or r1, d1 may take r1 or r2, d2 only r1: maximum = 3 matches
    refs = [(1.0, 1.2), (2.0, 2.2), (3.0, 3.2)]
    dets = [(1.45, 1.65), (2.45, 2.65), (2.0, 2.2)]
    dm, rm, st = _al(refs, dets, "f4de", [0.9, 0.9, 0.1])
    assert sorted(rm.tolist()) == [0, 1, 2] and st["hungarian_clusters"] == 1


def test_alignment_matches_brute_force_on_random_clusters():
    import itertools
    rng = np.random.default_rng(3)
    for _ in range(60):
        nr, nd = rng.integers(1, 4), rng.integers(1, 5)
        rb = np.sort(rng.uniform(0, 4, nr)); refs = [(b, b + rng.uniform(0.1, 0.6)) for b in rb]
        db = rng.uniform(0, 4.5, nd); dets = [(b, b + rng.uniform(0.1, 0.6)) for b in db]
        sc = rng.uniform(0, 1, nd)
        dm, rm, _ = _al(refs, dets, "f4de", sc)
        # brute force: max cardinality, then max total score (scores dominate the time term here)
        allowed = [[b - 0.5 <= (d0 + d1) / 2 <= e + 0.5 for (b, e) in refs] for (d0, d1) in dets]
        best = (-1, -1.0)
        for perm in itertools.product(range(-1, nr), repeat=nd):
            used = [p for p in perm if p >= 0]
            if len(used) != len(set(used)) or any(p >= 0 and not allowed[i][p] for i, p in enumerate(perm)):
                continue
            best = max(best, (len(used), round(sum(sc[i] for i, p in enumerate(perm) if p >= 0), 9)))
        got = (int((dm >= 0).sum()), round(float(sc[dm >= 0].sum()), 9))
        assert got[0] == best[0]
        assert got[1] == pytest.approx(best[1], abs=1e-6)


def test_hungarian_small():
    w = np.array([[1.0, 1.1, 0], [0, 1.0, 0]])
    assert sorted(_hungarian_max(w)) == [(0, 0), (1, 1)]


# --- ECF

def test_file_id_and_ecf_filter():
    assert file_id("a/b/docA.wav") == "docA" and file_id("FILE01.sph") == "FILE01" and file_id("x.y") == "x.y"
    ek = np.array([0, 0, 1])
    tb = np.array([0.0, 50.0, 0.0])
    te = np.array([10.0, 60.0, 5.0])
    key = np.array([0, 0, 0, 1, 2, 1])
    beg = np.array([1.0, 10.0, 49.0, 4.0, 0.0, 5.0])
    end = np.array([2.0, 11.0, 51.0, 5.0, 1.0, 5.5])
    assert in_ecf(ek, tb, te, key, beg, end).tolist() == [True, False, False, True, False, False]


def test_total_duration_rules():
    e = Ecf(np.array(["a", "a", "b"], dtype=object), np.array([1, 1, 1]), np.array([0.0, 5.0, 0.0]),
            np.array([10.0, 10.0, 4.0]), round4(np.array([10.0, 15.0, 4.0])),
            np.array(["cts", "cts", "splitcts"], dtype=object))
    assert e.total_duration("union") == 19.0
    assert e.total_duration("f4de") == 5.0 + 10.0 + 2.0  # cut at the next start; splitcts halved


# --- Cnxe (docs/std.md §6.4)

def _sws_points():
    return cx.points(np.array([2.0, -1.0]), np.array([1.0, 1.0]), np.array([0.5, -1.0]), np.array([1.0, 7.0]))


@pytest.mark.parametrize("p_tar, cn, cmin, g, d, pav", [
    (0.5, 0.804994, 0.792385, 1.016862, 0.317800, 0.688722),
    (1 / (1 + BETA_SWS), 0.821864, 0.739891, 1.815891, 0.549770, 0.566201),
    (0.0741290, 0.780776, 0.739433, 1.414298, 0.456636, 0.594544),
])
def test_cnxe_sws_example(p_tar, cn, cmin, g, d, pav):
    pts = _sws_points()
    assert cx.cnxe(*pts, p_tar) == pytest.approx(cn, abs=1e-6)
    fit = cx.min_cnxe_affine(*pts, p_tar)
    assert fit.cnxe == pytest.approx(cmin, abs=1e-6)
    assert fit.gamma == pytest.approx(g, abs=1e-6) and fit.delta == pytest.approx(d, abs=1e-6)
    assert not fit.separable
    assert cx.min_cnxe_pav(*pts, p_tar) == pytest.approx(pav, abs=1e-6)


@pytest.mark.parametrize("p_tar, cn, cmin, g, d, pav", [
    (0.5, 0.481637, 0.446985, 1.295587, 0.579182, 0.254516),
    (0.0741290, 0.596742, 0.491301, 1.976198, 0.364401, 0.287888),
])
def test_cnxe_quesst_example(p_tar, cn, cmin, g, d, pav):
    pts = cx.points(np.array([2.0, -0.5, 1.5]), np.ones(3), np.array([0.3, -10, -1.0, -10, -10]), np.ones(5))
    assert cx.cnxe(*pts, p_tar) == pytest.approx(cn, abs=1e-6)
    fit = cx.min_cnxe_affine(*pts, p_tar)
    assert (fit.cnxe, fit.gamma, fit.delta) == pytest.approx((cmin, g, d), abs=1e-6)
    assert cx.min_cnxe_pav(*pts, p_tar) == pytest.approx(pav, abs=1e-6)


def test_stable_log_sigmoid_and_extreme_scores():
    assert cx.softplus(np.array([-1000.0, 0.0, 1000.0])).tolist() == [0.0, math.log(2), 1000.0]
    pts = cx.points(np.array([1e6]), np.array([1.0]), np.array([-1e6]), np.array([1e6]))
    assert cx.cnxe(*pts, 0.01) == pytest.approx(0.0, abs=1e-12)
    fit = cx.min_cnxe_affine(*pts, 0.01)
    assert fit.cnxe <= 1e-6 and fit.separable


def test_separable_is_a_property_of_the_data():
    # whatever the score scale, strict separation is separable and a tie at the boundary is not
    for scale in (1e-3, 1.0, 1e3):
        pts = cx.points(scale * np.array([2.0, 3.0]), np.ones(2), scale * np.array([1.0, -1.0]), np.ones(2))
        assert cx.min_cnxe_affine(*pts, 0.5).separable
        pts = cx.points(scale * np.array([1.0, 3.0]), np.ones(2), scale * np.array([1.0, -1.0]), np.ones(2))
        assert not cx.min_cnxe_affine(*pts, 0.5).separable


def test_prefix_sum_sweep_matches_per_threshold_recount():
    rng = np.random.default_rng(7)
    Q, N, beta = 6, 300, 66.656667
    ntrue = np.array([3, 5, 1, 8, 2, 0])
    ev = ntrue > 0
    n = 120
    term = rng.integers(0, Q, n)
    term = term[ev[term]]
    score = np.round(rng.uniform(0, 1, len(term)), 2)  # ties on purpose
    target = rng.random(len(term)) < 0.3
    for q in range(Q):  # at most ntrue[q] aligned detections per term
        idx = np.flatnonzero(target & (term == q))
        target[idx[ntrue[q]:]] = False
    r = compute_twv(Q, ntrue, ev, N, beta, term, score, score >= 0.5, target)
    best, best_t = -np.inf, None
    for t in np.unique(score):  # ascending: ties keep the lowest threshold
        acc = score >= t
        pm = np.mean([1 - np.sum(acc & target & (term == q)) / ntrue[q] for q in range(Q) if ev[q]])
        pf = np.mean([np.sum(acc & ~target & (term == q)) / (N - ntrue[q]) for q in range(Q) if ev[q]])
        v = 1 - pm - beta * pf
        if v > best + 1e-12:
            best, best_t = v, t
    assert r.mtwv == pytest.approx(best, abs=1e-9) and r.mtwv_threshold == best_t
