"""NED by counting distinct transcriptions equals the mean over enumerated pairs (docs/tde.md §4.1)."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import editdistance
import numpy as np
import pytest

from termeval.tde.zrc2020.ned import NedStats, ned_stats


def brute_ned(clusters: list[list[str]]) -> tuple[Fraction, int]:
    total, n = Fraction(0), 0
    for c in clusters:
        for x, y in itertools.combinations(c, 2):
            m = max(len(x), len(y))
            total += Fraction(editdistance.eval(x, y), m) if m else 1
            n += 1
    return total, n


@pytest.mark.parametrize("seed", range(4))
def test_ned_counting_equals_pair_enumeration(seed):
    """Both code paths (many small clusters, one cluster with many distinct strings)."""
    rng = random.Random(seed)
    alphabet = "abcde"
    clusters = [[("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4))))
                 for _ in range(rng.randint(1, 8))] for _ in range(30)]
    clusters.append(["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6))) for _ in range(150)])
    strings = sorted({s for c in clusters for s in c})
    sid = {s: i for i, s in enumerate(strings)}
    cl = np.array([i for i, c in enumerate(clusters) for _ in c])
    ids = np.array([sid[s] for c in clusters for s in c])
    st, _ = ned_stats(cl, ids, strings, len(clusters))
    total, n = brute_ned(clusters)
    assert st.pairs == n
    assert st.value() == float(total / n)
    # additivity: split the clusters in two and add
    half = cl < 15
    a, _ = ned_stats(cl[half], ids[half], strings, len(clusters))
    b, _ = ned_stats(cl[~half], ids[~half], strings, len(clusters))
    assert a.add(b).value() == st.value() and NedStats().value() is None
