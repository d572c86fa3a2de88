"""NED's two counting paths meet at SMALL = 24 distinct strings per cluster
(termeval/tde/zrc2020/ned.py: clusters of 2..24 distinct strings go through the batched pairs,
larger ones through blocks of the distance matrix): clusters of exactly 22 to 26 distinct
strings, with duplicates and empty strings, against a brute force over every fragment pair
written here from tdev2's definition (editdistance / max length, 1 for two empty strings)."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import editdistance
import numpy as np
import pytest

from termeval.tde.zrc2020 import ned as ned_module
from termeval.tde.zrc2020.ned import ned_stats


def pair_ned(x: str, y: str) -> Fraction:
    m = max(len(x), len(y))
    return Fraction(editdistance.eval(x, y), m) if m else Fraction(1)


def cluster_with(rng: random.Random, distinct: int) -> list[str]:
    """A cluster of exactly `distinct` distinct strings (the empty one among them now and then),
    some repeated."""
    pool = {""} if rng.random() < 0.5 else set()
    while len(pool) < distinct:
        pool.add("".join(rng.choice("abcdef") for _ in range(rng.randint(1, 7))))
    strings = sorted(pool)
    return strings + [rng.choice(strings) for _ in range(rng.randint(0, distinct))]


@pytest.mark.parametrize("seed", range(3))
def test_clusters_around_the_switch(seed):
    rng = random.Random(seed)
    assert ned_module.SMALL == 24
    clusters = [cluster_with(rng, k) for k in (22, 23, 24, 24, 25, 26, 1, 2)]
    rng.shuffle(clusters)
    strings = sorted({s for c in clusters for s in c})
    sid = {s: i for i, s in enumerate(strings)}
    cl = np.array([i for i, c in enumerate(clusters) for _ in c])
    ids = np.array([sid[s] for c in clusters for s in c])
    order = np.array(rng.sample(range(len(cl)), len(cl)))      # fragments in any order
    st, per_cluster = ned_stats(cl[order], ids[order], strings, len(clusters))
    sums = [sum((pair_ned(x, y) for x, y in itertools.combinations(c, 2)), Fraction(0)) for c in clusters]
    pairs = sum(len(c) * (len(c) - 1) // 2 for c in clusters)
    assert st.pairs == pairs
    assert st.value() == float(sum(sums) / pairs)          # exact: one correctly rounded float
    assert per_cluster.tolist() == pytest.approx([float(x) for x in sums], rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("distinct", [23, 24, 25])
def test_one_cluster_at_the_switch(distinct):
    c = cluster_with(random.Random(distinct), distinct)
    strings = sorted(set(c))
    ids = np.array([strings.index(s) for s in c])
    st, per_cluster = ned_stats(np.zeros(len(c), dtype=np.int64), ids, strings, 1)
    total = sum((pair_ned(x, y) for x, y in itertools.combinations(c, 2)), Fraction(0))
    assert st.value() == float(total / (len(c) * (len(c) - 1) // 2))
    assert per_cluster[0] == pytest.approx(float(total), rel=1e-12)
