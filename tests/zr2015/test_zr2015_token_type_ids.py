"""zr2015/token_type.py's integer ids: label tuples of word runs (equal ids <=> equal tuples) and
the distinct word tokens, against Python tuples and np.unique on random inputs."""
from __future__ import annotations

import numpy as np
import pytest

from termeval.tde.zr2015.corpus import _make
from termeval.tde.zr2015.token_type import _distinct_tokens, run_ids

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 40), m=st.integers(0, 60), nlab=st.integers(1, 4))
def test_run_ids_equal_iff_equal_tuples(seed, n, m, nlab):
    rng = np.random.default_rng(seed)
    lab = rng.integers(0, nlab, size=n)
    a = rng.integers(0, n + 1, size=m)
    b = np.minimum(n, a + rng.integers(0, 6, size=m))
    ids = run_ids(lab, a, b)
    tup = [tuple(lab[x:y].tolist()) for x, y in zip(a.tolist(), b.tolist())]
    for i in range(m):
        for j in range(m):
            assert (ids[i] == ids[j]) == (tup[i] == tup[j])


def test_run_ids_by_hand():
    lab = np.array([1, 2, 1, 2, 3])
    ids = run_ids(lab, np.array([0, 2, 0, 1, 3, 4, 2]), np.array([2, 4, 0, 1, 5, 5, 3]))
    # (1,2) (1,2) () () (2,3) (3,) (1,)
    assert ids[0] == ids[1] and ids[2] == ids[3]
    assert len({int(ids[k]) for k in (0, 2, 4, 5, 6)}) == 5


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 30), shuffle=st.booleans())
def test_distinct_tokens_counts_the_unique_rows(seed, n, shuffle):
    rng = np.random.default_rng(seed)
    f = np.sort(rng.integers(0, 3, size=n))
    on = rng.choice([0.0, 0.5, 1.0], size=n)
    off = on + rng.choice([0.1, 0.2], size=n)
    lab = rng.integers(0, 2, size=n)
    if not shuffle:                                  # the data dir's order
        o = np.lexsort((lab, off, on, f))
        f, on, off, lab = f[o], on[o], off[o], lab[o]
    w = _make(f, on, off, lab, ["a", "b"], np.arange(n))
    got = _distinct_tokens(w)
    want = np.unique(np.stack([f.astype(float), on, off, lab.astype(float)], axis=1), axis=0) if n else np.zeros((0, 4))
    assert len(got) == len(want)
    assert np.array_equal(np.bincount(got, minlength=3), np.bincount(want[:, 0].astype(int), minlength=3))
