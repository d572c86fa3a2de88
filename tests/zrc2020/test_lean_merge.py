"""The merge's lean paths (issue 24): each replaces a plainer computation and must agree with
it exactly (covered phones, distinct counts, the dedupe's rows, the tables built once, the
lean merge of a merge process)."""
from __future__ import annotations

import copy

import numpy as np

from termeval.core.distinct import distinct, distinct_per_group, n_distinct
from termeval.tde.zrc2020 import grouping
from termeval.tde.zrc2020.coverage import covered_mask
from termeval.tde.zrc2020.stats import Corpus, compute_shard, dedupe_fragments, merge, shard_ranges
from termeval.tde.zrc2020.units import all_tables, tables
from tde_micro import MICRO_CLASSES, MICRO_PHN, MICRO_WRD, make


def test_covered_mask_equals_a_difference_array():
    rng = np.random.default_rng(3)
    for _ in range(2000):
        n, m = int(rng.integers(0, 30)), int(rng.integers(0, 10))
        k0 = rng.integers(0, n + 1, m)
        k1 = np.maximum(np.minimum(k0 + rng.integers(-2, 7, m), n), k0)
        d = np.bincount(k0, minlength=n + 1)[:n + 1] - np.bincount(k1, minlength=n + 1)[:n + 1]
        assert covered_mask(n, k0, k1).tolist() == (np.cumsum(d)[:n] > 0).tolist()
    # by hand: [1,3) and [3,5) touch (one run), [7,8) apart, [2,2) empty
    assert np.flatnonzero(covered_mask(10, np.array([1, 3, 7, 2]), np.array([3, 5, 8, 2]))).tolist() == [1, 2, 3, 4, 7]


def test_distinct_counts_equal_np_unique():
    rng = np.random.default_rng(4)
    for n in (0, 1, 2, 50, 5000):
        x = rng.integers(0, 40, n)
        assert distinct(x).tolist() == np.unique(x).tolist() and n_distinct(x) == len(np.unique(x))
        g = rng.integers(0, 5, n)
        want = [len(np.unique(x[g == k])) for k in range(6)]
        assert distinct_per_group(g, x, 6).tolist() == want
    assert distinct_per_group(np.array([0, 0, 2, 2, 2]), np.array([7, 7, 1, 2, 1]), 3).tolist() == [1, 0, 2]


def test_count_tokens_by_hand():
    flag = np.array([True, True, True, False, True])
    ngram = np.array([0, 0, 1, 1, 0])
    tok = np.array([5, 5, 9, 8, 6])      # tokens 5 and 6 of string 0, token 9 of string 1
    per, total = grouping.count_tokens(flag, ngram, tok, 2)
    assert per.tolist() == [2, 1] and total == 3


def test_dedupe_rows_point_at_the_same_fragment():
    rng = np.random.default_rng(6)
    n = 400
    f, a = rng.integers(0, 4, n), rng.integers(0, 20, n) / 4
    b = a + rng.integers(1, 3, n) / 4
    k0 = rng.integers(0, 9, n)
    F, I = rng.random(n) < 0.3, rng.random(n) < 0.3
    plain = dedupe_fragments(f, a, b, k0, k0 + 1, F, I)
    u, row = dedupe_fragments(f, a, b, k0, k0 + 1, F, I, rows=True)
    assert all(np.array_equal(plain[k], u[k]) for k in plain)
    assert np.array_equal(u["file"][row], f) and np.array_equal(u["onset"][row], a)
    assert np.array_equal(u["offset"][row], b)
    assert len(u["onset"]) == len({(x, y, z) for x, y, z in zip(f.tolist(), a.tolist(), b.tolist())})
    # the OR of the flags of the fragments a row stands for
    assert np.array_equal(u["F"], np.bincount(row, weights=F, minlength=len(u["onset"])) > 0)


def test_lean_merge_and_tables_equal_the_plain_ones(tmp_path):
    gold, classes = make(str(tmp_path), MICRO_PHN, MICRO_WRD, MICRO_CLASSES)
    out = []
    for nj, lean in ((1, False), (3, True), (6, True)):
        corpus = Corpus.from_gold(copy.deepcopy(gold))      # lean drops the words of its gold
        shards = [compute_shard(corpus, classes, a, b) for a, b in shard_ranges(classes, nj)]
        parts: dict = {}
        res = merge(corpus, shards, parts, release=True, lean=lean)
        t = all_tables(corpus, shards, parts)
        assert tables(corpus, shards, parts, "speaker")[1].X.tolist() == t["speaker"].X.tolist()
        out.append((res, {k: (v.ids, v.X.tolist()) for k, v in t.items()}))
        if lean:
            assert len(corpus.gold.words) == 0       # dropped once used
    assert out[0] == out[1] == out[2]
    files = out[0][1]["file"][1]
    assert sum(r[0] for r in files) == out[0][0][1]["phones_covered"]
    assert sum(r[2] for r in files) == out[0][0][1]["token_hits"]
