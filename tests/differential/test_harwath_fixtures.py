"""--compat harwath (words, phones) against jasonppy/syllable-discovery
unit_analysis_boundary_only.py, run whole on 240 generated cases (tests/differential/cases.py:
random, 10 and 20 ms grids with ties at the tolerance, silence-edged utterances, utterances
without prediction, with one segment, all silence) and recorded in
tests/fixtures/differential/harwath.json (tests/differential/record.py); compared on every run,
and against the script itself when $HARWATH_DIR names its checkout.

The script's gold is its alignment strings, which leave silence out; termeval's is the data dir
of steps/prepare_gold.sh --fill-gaps false with the SIL phones of the .phn file: the equality
at --level phone is the SIL phones being dropped before the scorer (scorers.common.speech_only).
"""
from __future__ import annotations

import pytest

from tests.differential import cases as gen
from tests.differential.harness import Scored, check_digests, compare, live, load_fixture, write_gold, write_pred
from tests.differential.tool_inputs import HARWATH_SHIFT, seen

CASES = gen.harwath_cases()
KEYS = ("precision", "recall", "fscore", "os", "rvalue")


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> dict:
    d = tmp_path_factory.mktemp("harwath")
    utts = [u for c in CASES for u in c.utts]
    data = write_gold(utts, str(d))
    # the predictions as the script sees them after its zero shift (tool_inputs.preimage)
    pred = write_pred(utts, str(d / "pred.txt"), time=lambda ms: repr(seen(ms / 1000, HARWATH_SHIFT)))
    combos = {(c.params["level"], c.params["tolerance_ms"]) for c in CASES}
    return {(lv, t): Scored(data, pred, compat="harwath", level=lv, tolerance=t / 1000) for lv, t in combos}


def _ours(scored: dict, c: gen.Case) -> dict:
    lv = c.params["level"]
    v = scored[(lv, c.params["tolerance_ms"])].case([u.name for u in c.utts])
    return {k: v[f"{lv}_boundary_{k}"] for k in KEYS}


def test_recorded_cases_equal(scored):
    fx = load_fixture("harwath")
    check_digests(fx, CASES)
    bad = []
    for c, row in zip(CASES, fx["cases"]):
        assert "out" in row, row
        bad += compare(_ours(scored, c), row["out"], KEYS, f"case {c.index} ({c.kind}, {c.params})")
    assert not bad, "\n".join(bad[:20])
    assert {c.kind for c in CASES} == set(gen.KINDS) and {c.params["level"] for c in CASES} == {"word", "phone"}


def test_live_script(scored):
    sub = CASES[::6]
    results = live("harwath", "HARWATH_DIR", sub)
    bad = []
    for c, res in zip(sub, results):
        assert "out" in res, res
        bad += compare(_ours(scored, c), res["out"], KEYS, f"case {c.index}")
    assert not bad, "\n".join(bad[:20])
