"""SD-HuBERT's syllable cluster metrics on hand-computed cases: the IoU, the maximum-IoU
one-to-one matching (no threshold: disjoint intervals are matched too), syllable purity,
cluster purity and SNMI, with and without SD-HuBERT's label trimming."""
from __future__ import annotations

import math

import numpy as np
import pytest

from termeval.segmentation.inputs import Intervals
from termeval.segmentation.syllables import cluster_metrics, iou_matrix, match_utterance, matched_cells, \
    matched_pairs, trim_label

A = np.array


def test_iou_by_hand():
    iou = iou_matrix(A([0.0, 0.2]), A([0.2, 0.5]), A([0.0, 0.25]), A([0.25, 0.55]))
    want = [[0.2 / 0.2501, -0.05 / 0.5501], [0.05 / 0.5001, 0.25 / 0.3501]]
    assert np.allclose(iou, want, rtol=0, atol=1e-15)


def test_matching_maximises_total_iou():
    # gold 0-.2, .2-.5, .5-.6; predicted 0-.25, .25-.55: g0-p0 (.80) + g1-p1 (.71) beats g0-p0 + g2-p1 (.14)
    g, p = match_utterance(A([0.0, 0.2, 0.5]), A([0.2, 0.5, 0.6]), A([0.0, 0.25]), A([0.25, 0.55]))
    assert g.tolist() == [0, 1] and p.tolist() == [0, 1]
    # the greedy choice is not the optimum: p0 overlaps g0 best, but g0-p1 + g1-p0 is larger in total
    g, p = match_utterance(A([0.0, 0.5]), A([0.5, 0.6]), A([0.1, 0.0]), A([0.6, 0.45]))
    iou = iou_matrix(A([0.0, 0.5]), A([0.5, 0.6]), A([0.1, 0.0]), A([0.6, 0.45]))
    best = max(iou[0, 0] + iou[1, 1], iou[0, 1] + iou[1, 0])
    assert iou[g, p].sum() == best


def test_no_threshold_disjoint_pairs_count():
    g, p = match_utterance(A([0.0]), A([1.0]), A([2.0]), A([3.0]))
    assert g.tolist() == [0] and p.tolist() == [0]
    g, p = match_utterance(A([0.0]), A([1.0]), A([]), A([]))
    assert len(g) == len(p) == 0


def iv(utt, on, off, label, labels):
    return Intervals(A(utt, dtype=np.int64), A(on, dtype=float), A(off, dtype=float), A(label, dtype=np.int64), labels)


def test_matched_pairs_per_utterance_relative_times():
    # utterance 1 starts at 10 s: its times are taken from its start; utterance 2 has no prediction
    ref = iv([0, 0, 1, 1, 2], [0, .2, 10, 10.3, 0], [.2, .5, 10.3, 10.5, 1], [0, 1, 0, 2, 1], ["ba1", "na0", "ba2"])
    pred = iv([0, 1, 1, 1], [0, 10, 10.25, 10.4], [.3, 10.25, 10.4, 10.5], [0, 1, 1, 0], ["x", "y"])
    r, p = matched_pairs(ref, pred, A([0.0, 10.0, 0.0]))
    # utterance 1: g2 [0, .3] - p1 [0, .25] (.25/.3001); g3 [.3, .5] - p3 [.4, .5] (.1/.2001) beats p2 (.1/.2501)
    assert r.tolist() == [0, 2, 3] and p.tolist() == [0, 1, 3]
    cells = matched_cells(ref, pred, A([0.0, 10.0, 0.0]))
    assert sorted(zip(*cells)) == [("ba1", "x", 1), ("ba1", "y", 1), ("ba2", "x", 1)]


def test_purity_and_snmi_by_hand():
    # pairs: ba1 in c1 x2, ba2 in c1 x1, na0 in c1 x1, na0 in c2 x3 (N = 7); the gold also holds
    # 2 unmatched syllables (ta1, na1: an extra syllable, an utterance without a prediction)
    cells = [["ba1", "ba2", "na0", "na0"], ["c1", "c1", "c1", "c2"], [2, 1, 1, 3]]
    gold = [["ba1", "ba2", "na0", "na1", "ta1"], [2, 1, 4, 1, 1]]
    m = {x.name: x.value for x in cluster_metrics(cells, trim=False, gold=gold)}
    assert m["syllable_matched_pairs"] == 7
    assert m["syllable_purity"] == pytest.approx(5 / 7)      # c1: max(2, 1, 1), c2: 3
    assert m["cluster_purity"] == pytest.approx(6 / 7)       # ba1 2, ba2 1, na0 3
    # trimmed: ba (3 in c1), na (1 in c1, 3 in c2)
    t = {x.name: x.value for x in cluster_metrics(cells, trim=True, gold=gold)}
    assert t["syllable_purity"] == pytest.approx(6 / 7) and t["cluster_purity"] == pytest.approx(6 / 7)
    mi = 3 / 7 * math.log(7 / 4) + 1 / 7 * math.log(7 / 16) + 3 / 7 * math.log(7 / 4)
    # the entropy of every gold syllable, trimmed: ba 3, na 5, ta 1 (N = 9), not of the pairs' labels
    h = -(3 / 9 * math.log(3 / 9) + 5 / 9 * math.log(5 / 9) + 1 / 9 * math.log(1 / 9))
    assert t["snmi"] == pytest.approx(mi / h, abs=1e-12)
    h_pairs = -(3 / 7 * math.log(3 / 7) + 4 / 7 * math.log(4 / 7))
    assert abs(t["snmi"] - mi / h_pairs) > 0.05               # the old denominator: a different number
    assert trim_label("B-AH0-T1") == "B-AH-T" and trim_label("k4") == "k4"


def test_degenerate_tables():
    one = {x.name: x.value for x in cluster_metrics([["a"], ["c"], [4]], trim=False, gold=[["a"], [4]])}
    assert one["syllable_purity"] == one["cluster_purity"] == 1.0
    assert one["snmi"] is None         # H = 0: eval.py divides 0 by 0 (nan): undefined
    two = {x.name: x.value for x in cluster_metrics([["a"], ["c"], [4]], trim=False, gold=[["a", "b"], [4, 4]])}
    assert two["snmi"] == 0.0          # one label matched: no information, over a positive entropy
    none = {x.name: x.value for x in cluster_metrics([[], [], []], trim=False, gold=[["a"], [3]])}
    assert none["syllable_matched_pairs"] == 0 and none["syllable_purity"] is None and none["snmi"] is None


def test_iou_epsilon_decides_near_ties():
    # gold [0, 1]; p0 = [0, 0.6]: 0.6 / (1 + e); p1 = [0, 1.6667]: 1 / (1.6667 + e). They are equal
    # at e = 5e-5: SD-HuBERT's e = 1e-4 gives p1, a smaller e would give p0
    e = 1e-4
    assert 1 / (1.6667 + e) > 0.6 / (1 + e) and 1 / (1.6667 + 1e-5) < 0.6 / (1 + 1e-5)
    g, p = match_utterance(A([0.0]), A([1.0]), A([0.0, 0.0]), A([0.6, 1.6667]))
    assert p.tolist() == [1]
