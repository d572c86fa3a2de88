"""Hand-computed cases for every segmentation metric (termeval.segmentation)."""
from __future__ import annotations

import math
import itertools

import numpy as np
import pytest

from termeval.segmentation import compat, mappings
from termeval.segmentation.boundary import boundary_counts, drop_edges, interval_points, micro
from termeval.segmentation.clusters import Table, contingency, from_named_cells, overlap_labels, quality
from termeval.segmentation.matching import keys, max_matching
from termeval.segmentation.rvalue import over_segmentation, prf, r_value
from termeval.segmentation.token import token_counts


def k(utt, pos):
    return keys(np.asarray(utt), np.asarray(pos))


def test_boundary_earliest_first_beats_nearest_first():
    # reference 1.98 / 2.01 s, predicted 2.00 / 2.01 s at 20 ms: 2 hits (nearest-first gets 1);
    # 2.00 - 1.98 is exactly 20 ms in microseconds (in float seconds it is > 0.02)
    ref = k([0, 0], micro([1.98, 2.01]))
    pred = k([0, 0], micro([2.00, 2.01]))
    assert boundary_counts(ref, pred, int(micro(0.02)), 1).tolist() == [[2, 2, 2]]
    assert boundary_counts(ref, pred, int(micro(0.0199)), 1).tolist() == [[2, 2, 1]]


def test_each_reference_used_once_and_utterances_separate():
    ref = k([0, 1], [100, 100])
    pred = k([0, 0, 1], [99, 101, 150])
    assert boundary_counts(ref, pred, 2, 2).tolist() == [[1, 2, 1], [1, 1, 0]]


def test_max_matching_chains():
    # three items competing for two slots (2 matches); a chain [5,6] [5,9] [6,6] [9,9] that
    # needs the heap: 6->[6,6], 5->[5,6], 7->[5,9], 9->[9,9] (4 matches)
    lo = np.array([0, 0, 0, 5, 5, 6, 9])
    hi = np.array([1, 1, 1, 6, 9, 6, 9])
    assert max_matching(lo, hi).sum() == 6
    # same single slot twice: one match; empty range: none
    assert max_matching(np.array([3, 3, 4]), np.array([3, 3, 3])).tolist().count(True) == 1


def test_max_matching_equals_bruteforce():
    rng = np.random.default_rng(1)
    for _ in range(200):
        n = int(rng.integers(1, 7))
        lo = rng.integers(0, 6, n)
        hi = lo + rng.integers(-1, 3, n)
        best = 0
        for perm in itertools.product(*[list(range(a, b + 1)) + [None] for a, b in zip(lo, hi)]):
            used = [p for p in perm if p is not None]
            if len(used) == len(set(used)):
                best = max(best, len(used))
        assert max_matching(lo, hi).sum() == best


def test_edges_not_counted():
    # utterance [0, 1] s; boundaries at 0.01 and 0.99 are within 20 ms of the edges
    u = np.array([0, 0, 0])
    pts = interval_points(u, micro([0.0, 0.01, 0.5]), micro([0.01, 0.5, 0.99]))
    kept = drop_edges(pts, k([0], micro([0.0])), k([0], micro([1.0])), int(micro(0.02)))
    assert (kept % (1 << 40)).tolist() == [500000]


def test_prf_os_rvalue_by_hand():
    p, r, f = prf(3, 6, 4)                       # P = 0.5, R = 0.75
    assert (p, r) == (0.5, 0.75) and f == pytest.approx(0.6)
    assert over_segmentation(p, r) == pytest.approx(0.5)
    r1 = math.sqrt(0.25 ** 2 + 0.5 ** 2)
    r2 = (-0.5 + 0.75 - 1) / math.sqrt(2)
    assert r_value(p, r) == pytest.approx(1 - (r1 + abs(r2)) / 2)
    assert r_value(1.0, 1.0) == 1.0
    assert prf(0, 0, 5) == (None, 0.0, None)     # nothing predicted: P undefined
    assert prf(0, 4, 5)[2] == 0.0                # P + R = 0: F = 0
    assert over_segmentation(0.0, 0.0) is None and r_value(0.0, 0.5) is None


def test_tokens_both_edges_and_ties():
    # reference words [0,10] [10,30] [40,50]; predictions: two identical copies of [1,9] (a tie:
    # one hit), [12,29] (start off by 2 > 1), [41,51]
    ref = (np.array([0, 0, 0]), np.array([0, 10, 40]), np.array([10, 30, 50]))
    pred = (np.array([0, 0, 0, 0]), np.array([1, 1, 12, 41]), np.array([9, 9, 29, 51]))
    assert token_counts(*ref, *pred, 1, 1).tolist() == [[3, 4, 2]]
    assert token_counts(*ref, *pred, 2, 1).tolist() == [[3, 4, 3]]


def test_overlap_labels_ties_and_none():
    # words [0,10] [10,20] [30,40]; segment [5,15] overlaps 5 and 5: the earlier word wins;
    # [20,30] overlaps none; [0,0] is empty
    ru, rs, re = np.zeros(3, np.int64), np.array([0, 10, 30]), np.array([10, 20, 40])
    best = overlap_labels(ru, rs, re, np.zeros(4, np.int64), np.array([5, 20, 0, 12]),
                          np.array([15, 30, 0, 40]))
    assert best.tolist() == [0, -1, -1, 2]


def _sk(true, pred):
    sk = pytest.importorskip("sklearn.metrics")
    h, c, v = sk.homogeneity_completeness_v_measure(true, pred)
    return h, c, v, sk.normalized_mutual_info_score(true, pred)


def test_quality_by_hand():
    # labels a a a b b, clusters 0 0 1 1 1: purity (2 + 2) / 5, inverse purity (2 + 2) / 5
    t = contingency(np.array([0, 0, 0, 1, 1]), np.array([0, 0, 1, 1, 1]), ["a", "b"], ["0", "1"])
    q = quality(t)
    assert (q.segments, q.clusters, q.purity, q.inverse_purity) == (5, 2, 0.8, 0.8)
    h, c, v, nmi = _sk(["a", "a", "a", "b", "b"], [0, 0, 1, 1, 1])
    assert (q.homogeneity, q.completeness, q.v_measure, q.nmi) == pytest.approx((h, c, v, nmi), abs=1e-12)


def test_quality_against_sklearn_random():
    rng = np.random.default_rng(0)
    for trial in range(30):
        n = int(rng.integers(1, 200))
        true = rng.integers(0, int(rng.integers(1, 8)), n)
        pred = rng.integers(0, int(rng.integers(1, 8)), n)
        t = contingency(true, pred, [str(i) for i in range(8)], [str(i) for i in range(8)])
        q = quality(t)
        h, c, v, nmi = _sk(true.tolist(), pred.tolist())
        assert (q.homogeneity, q.completeness, q.v_measure, q.nmi) == pytest.approx((h, c, v, nmi), abs=1e-12)


def test_named_cells_add_up():
    t = from_named_cells(["b", "a", "b"], ["1", "1", "1"], [2, 3, 4])
    assert (t.labels, t.clusters, t.row.tolist(), t.col.tolist(), t.count.tolist()) == \
        (["a", "b"], ["1"], [0, 1], [0, 0], [3, 6])


def _brute_o2o(w):
    nk, nl = w.shape
    best = 0
    for perm in itertools.permutations(range(max(nk, nl)), nk) if nk <= nl else []:
        best = max(best, sum(w[i, j] for i, j in enumerate(perm) if j < nl))
    if nk > nl:
        for perm in itertools.permutations(range(nk), nl):
            best = max(best, sum(w[i, j] for j, i in enumerate(perm)))
    return best


@pytest.mark.parametrize("dense", [True, False])
def test_one_to_one_hungarian(monkeypatch, dense):
    if not dense:
        monkeypatch.setattr(mappings, "DENSE_CELLS", 0)   # force the sparse solver
    rng = np.random.default_rng(3)
    for _ in range(40):
        nk, nl = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        w = rng.integers(0, 4, (nk, nl)) * (rng.random((nk, nl)) < 0.6)
        c, r = np.nonzero(w)
        t = Table(r, c, w[c, r], [str(i) for i in range(nl)], [str(i) for i in range(nk)])
        mapping, hits = mappings.one_to_one(t)
        assert hits == _brute_o2o(w)
        assert len(set(mapping.values())) == len(mapping)
        assert hits == sum(int(w[a, b]) for a, b in mapping.items())


def test_greedy_and_many_to_one_by_hand():
    # clusters x labels: c0 = {a: 3, b: 2}, c1 = {a: 4}; greedy takes c1->a (4), then c0->b (2);
    # the optimum is the same here. Many-to-one: c0->a, c1->a, 7 correct.
    t = Table(np.array([0, 1, 0]), np.array([0, 0, 1]), np.array([3, 2, 4]), ["a", "b"], ["c0", "c1"])
    assert mappings.greedy_one_to_one(t, np.array([0, 1])) == ({1: 0, 0: 1}, 6)
    assert mappings.one_to_one(t)[1] == 6
    assert mappings.many_to_one(t) == ({0: 0, 1: 0}, 7)
    # greedy is not optimal: c0 = {a: 5, b: 4}, c1 = {a: 4}: greedy 5, Hungarian 8
    t = Table(np.array([0, 1, 0]), np.array([0, 0, 1]), np.array([5, 4, 4]), ["a", "b"], ["c0", "c1"])
    assert mappings.greedy_one_to_one(t, np.array([0, 1]))[1] == 5
    assert mappings.one_to_one(t)[1] == 8


def test_compat_boundary_rules():
    # reference ends 3, 6, 10 (length 10); prediction ends 2, 6, 10 (same length): the final
    # boundary (frame 9) is dropped on both sides -> ref {2, 5}, pred {1, 5}
    ref = (np.zeros(3, np.int64), np.array([0, 3, 6]), np.array([3, 6, 10]))
    pred = (np.zeros(3, np.int64), np.array([0, 2, 6]), np.array([2, 6, 10]))
    (ru, rp), (pu, pp) = compat.boundary_points(ref, pred, 1)
    assert rp.tolist() == [2, 5] and pp.tolist() == [1, 5]
    # shorter prediction (length 8): the reference keeps only frames < 7
    pred8 = (np.zeros(2, np.int64), np.array([0, 4]), np.array([4, 8]))
    assert compat.boundary_points(ref, pred8, 1)[0][1].tolist() == [2, 5]
    # longer prediction (length 12): the reference keeps its final boundary 9
    pred12 = (np.zeros(2, np.int64), np.array([0, 6]), np.array([6, 12]))
    assert compat.boundary_points(ref, pred12, 1)[0][1].tolist() == [2, 5, 9]
    # a segment ending at frame 0 marks the last frame (numpy index -1)
    pred0 = (np.zeros(3, np.int64), np.array([0, 0, 5]), np.array([0, 5, 10]))
    assert compat.boundary_points(ref, pred0, 1)[1][1].tolist() == [4]


def test_compat_token_segments():
    # reference words [0,3] [5,8] (gap 3..5) -> tokens [0,3] [3,8]; prediction length 6 cuts
    # the reference: tokens [0,3] [3,6]
    ref = (np.zeros(2, np.int64), np.array([0, 5]), np.array([3, 8]))
    pred = (np.zeros(2, np.int64), np.array([0, 2]), np.array([2, 6]))
    (ru, rs, re), (pu, ps, pe) = compat.token_segments(ref, pred, 1)
    assert list(zip(rs.tolist(), re.tolist())) == [(0, 3), (3, 6)]
    assert list(zip(ps.tolist(), pe.tolist())) == [(0, 2), (2, 6)]


def test_compat_frames_and_purity():
    assert compat.frame(np.array([0.015, 0.0149, 1.98, 2.0]), 0.01).tolist() == [2, 1, 198, 200]
    assert [compat.key_sort(x)[1] for x in ["12_3_", "2_"]] == [[12, 3], [2]]
    # cluster ids 0..2 over the whole segmentation, only ids 0 and 2 scored: the script visits
    # ids < 2, i.e. cluster 0 only
    rank = compat.cluster_ranks(["0_", "2_"], ["2_", "1_", "0_"])
    assert rank.tolist() == [0, 2]
    assert compat.purity(np.array([3, 4]), np.array([4, 4]), rank) == 0.75
