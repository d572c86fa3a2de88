"""The tdev2 transcription rule: which phones a fragment keeps (docs/tde.md §3.2)."""
from __future__ import annotations

import numpy as np
import pytest

from termeval.tde.zrc2020.transcribe import load_phones, transcribe
from tde_micro import PHN, make


@pytest.mark.parametrize("on,off,expected", [
    (0.100, 0.300, "b c"),
    (0.075, 0.300, "b c"),        # 25 ms of a
    (0.070, 0.300, "a b c"),      # exactly 30 ms: >= keeps it
    (0.0704, 0.300, "a b c"),     # 29.6 ms rounds to 30 ms
    (0.350, 0.650, "d SIL e f"),  # SIL kept inside
    (0.410, 0.490, "SIL"),
    (0.150, 0.160, ""),           # sub-phone fragment: dropped
    (0.120, 0.160, "b"),          # 40 ms >= 30 ms
    (0.710, 0.800, "g h"),        # exactly 50 % of the 20 ms phone g
    (0.689, 0.711, "g"),
    (0.750, 5.000, "h"),          # past the end of the file
    (5.0, 6.0, ""),               # no phone at all
])
def test_transcription_rule(tmp_path, on, off, expected):
    gold, _ = make(str(tmp_path), PHN, "A 0 0.2 w\n", "Class 0\nA 0 0.1\n\n")
    ph = load_phones(gold)
    k0, k1, _ = transcribe(ph, np.array([0]), np.array([on]), np.array([off]))
    got = " ".join(ph.labels[x] for x in ph.label[k0[0]:k1[0]])
    assert got == expected


def test_range_ids_number_sequences_as_a_dict_would():
    """range_ids (numpy, no object per range) == interning the byte slices in a dict."""
    import numpy as np
    from termeval.tde.zrc2020.transcribe import range_ids
    rng = np.random.default_rng(3)
    for dtype in (np.int32, np.int64):
        values = rng.integers(0, 3, 200).astype(dtype)
        a = rng.integers(0, 200, 500)
        b = np.minimum(a + rng.integers(-1, 5, 500), 200)
        table: dict = {}
        want = [table.setdefault(values[i:max(i, j)].tobytes(), len(table)) for i, j in zip(a.tolist(), b.tolist())]
        ids, first = range_ids(values, a, b)
        assert ids.tolist() == want and len(first) == len(table)
        assert [values[a[i]:max(a[i], b[i])].tobytes() for i in first.tolist()] == list(table)
    ids, first = range_ids(np.zeros(0, np.int32), np.zeros(0, np.int64), np.zeros(0, np.int64))
    assert len(ids) == 0 and len(first) == 0
