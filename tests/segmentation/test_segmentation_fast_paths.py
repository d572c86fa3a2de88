"""The vectorised paths of the segmentation kernel give what their plain definitions give: the
boundary sweep (one window search for every tolerance) against boundary_counts on the points
kept at each tolerance; the (utterance, label, cluster) cell counts against np.unique over rows;
max_matching on unsorted ranges; the one-to-one total against a sum over the mapping."""
from __future__ import annotations

import numpy as np
import pytest

from termeval.segmentation import boundary, mappings
from termeval.segmentation.boundary import boundary_counts, edge_distance, sweep_counts
from termeval.segmentation.clusters import Table
from termeval.segmentation.matching import keys, max_matching
from termeval.segmentation.stats import count_triples


def _points(rng, n_utt, n, scale):
    utt = np.sort(rng.integers(0, n_utt, n))
    return np.unique(keys(utt, rng.integers(0, scale, n)))


@pytest.mark.parametrize("window", [boundary.SWEEP_WINDOW, 0])     # 0: the plain-search fallback
def test_sweep_counts_is_boundary_counts_per_tolerance(monkeypatch, window):
    monkeypatch.setattr(boundary, "SWEEP_WINDOW", window)
    rng = np.random.default_rng(7)
    for _ in range(150):
        n_utt = int(rng.integers(1, 5))
        scale = int(rng.choice([10, 100, 1000, 10 ** 6]))
        ref = _points(rng, n_utt, int(rng.integers(0, 50)), scale)
        pred = _points(rng, n_utt, int(rng.integers(0, 50)), scale)
        start = keys(np.arange(n_utt), np.zeros(n_utt, dtype=np.int64))
        end = keys(np.arange(n_utt), np.full(n_utt, scale))
        rd, pd = edge_distance(ref, start, end), edge_distance(pred, start, end)
        tols = sorted({int(x) for x in rng.integers(0, scale // 2 + 1, 4)})
        got = sweep_counts(ref, rd, pred, pd, tols, n_utt)
        for t in tols:
            want = boundary_counts(ref[rd > t], pred[pd > t], t, n_utt)
            assert got[t].dtype == want.dtype and got[t].tolist() == want.tolist()


def test_sweep_counts_no_tolerance_no_points():
    z = np.zeros(0, dtype=np.int64)
    assert sweep_counts(z, z, z, z, [], 2) == {}
    assert sweep_counts(z, z, z, z, [5], 2)[5].tolist() == [[0, 0, 0], [0, 0, 0]]


def test_count_triples_is_unique_over_rows():
    rng = np.random.default_rng(3)
    for n in (1, 7, 500, 20000):
        a, b, c = rng.integers(0, 40, n), rng.integers(0, 6, n), rng.integers(0, 300, n)
        rows, cnt = count_triples(a, b, c)
        want_rows, want_cnt = np.unique(np.stack((a, b, c), axis=1), axis=0, return_counts=True)
        assert rows.tolist() == want_rows.tolist() and cnt.tolist() == want_cnt.tolist()
    rows, cnt = count_triples(np.zeros(0), np.zeros(0), np.zeros(0))
    assert rows.shape == (0, 3) and cnt.shape == (0,)
    big = np.array([2 ** 40, 0]), np.array([2 ** 20, 1]), np.array([2 ** 10, 1])    # > 62 bits: np.unique
    assert count_triples(*big)[0].tolist() == [[0, 1, 1], [2 ** 40, 2 ** 20, 2 ** 10]]


def test_max_matching_unsorted_ranges_as_sorted():
    rng = np.random.default_rng(5)
    for _ in range(100):
        lo = rng.integers(0, 30, 40)
        hi = lo + rng.integers(-2, 4, 40)
        perm = rng.permutation(40)
        assert max_matching(lo[perm], hi[perm]).sum() == max_matching(lo, hi).sum()


def test_one_to_one_total_is_the_mapped_cells():
    rng = np.random.default_rng(11)
    for _ in range(30):
        code = np.unique(rng.integers(0, 12 * 9, 40))
        t = Table(code // 9, code % 9, rng.integers(0, 5, len(code)), [f"l{i}" for i in range(12)],
                  [f"c{i}" for i in range(9)])
        mapping, total = mappings.one_to_one(t)
        cells = {(int(c), int(r)): int(n) for r, c, n in zip(t.row, t.col, t.count)}
        assert total == sum(cells.get(kv, 0) for kv in mapping.items())
