"""--compat rasanen against CoML discophon 0.2.0 (discophon.evaluate.phone_segmentation on its
own readers of the gold alignment and the units file), on 240 generated cases
(tests/differential/cases.py: phones on 10 or 20 ms grids with SIL at the edges and in pauses,
units every 20 ms one frame shorter or up to two longer than the audio, constant, empty or one
unit long), at 10, 20 and 30 ms; recorded in tests/fixtures/differential/discophon.json and
compared on every run; against discophon itself when $DISCOPHON_DIR names a directory holding
the package (with $TERMEVAL_REF_PYTHON an interpreter with its dependencies).

termeval reads the same data as a user does: the .phn file (SIL phones included) prepared by
prepare_gold, the units converted by utils/convert_segments.sh --from units --frame-shift 0.02.
Values undefined in discophon (NoBoundariesError) are undefined here.
"""
from __future__ import annotations

import os

import pytest

from termeval.segmentation.convert import convert_lines
from tests.differential import cases as gen
from tests.differential.harness import Scored, check_digests, compare, live, load_fixture, write_gold

CASES = gen.discophon_cases()
KEYS = {"precision": "precision", "recall": "recall", "fscore": "f1", "os": "os", "rvalue": "r_val"}
MARGINS = (10, 20, 30)


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> dict:
    d = str(tmp_path_factory.mktemp("discophon"))
    utts = [u for c in CASES for u in c.utts]
    data = write_gold(utts, d)
    with open(os.path.join(d, "units.txt"), "w") as f:
        f.writelines(" ".join([u.name] + [str(x) for x in u.units]) + "\n" for u in utts if u.units)
    pred = os.path.join(d, "pred.txt")
    with open(pred, "w") as f:
        f.writelines(convert_lines("units", os.path.join(d, "units.txt"), frame_shift=0.02))
    return {m: Scored(data, pred, compat="rasanen", level="phone", tolerance=m / 1000) for m in MARGINS}


def _ours(scored: dict, c: gen.Case, m: int) -> dict:
    v = scored[m].case([u.name for u in c.utts])
    return {t: v[f"phone_boundary_{k}"] for k, t in KEYS.items()}


def test_recorded_cases_equal(scored):
    fx = load_fixture("discophon")
    check_digests(fx, CASES)
    bad = []
    for c, row in zip(CASES, fx["cases"]):
        for m in MARGINS:
            bad += compare(_ours(scored, c, m), row["out"][str(m)], KEYS.values(), f"case {c.index} ({c.kind}) {m} ms")
    assert not bad, "\n".join(bad[:20])
    undefined = sum(row["out"]["20"]["precision"] is None for row in fx["cases"])
    assert 0 < undefined < len(CASES)         # cases without a predicted boundary are in the fixture


def test_live_discophon(scored):
    sub = CASES[::6]
    res = live("discophon", "DISCOPHON_DIR", sub)
    bad = []
    for c, r in zip(sub, res):
        for m in MARGINS:
            bad += compare(_ours(scored, c, m), r["out"][str(m)], KEYS.values(), f"case {c.index} {m} ms")
    assert not bad, "\n".join(bad[:20])
