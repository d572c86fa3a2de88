"""--compat malan-strict / malan-lenient against s-malan/evaluation boundary_word.py, run whole
(`python boundary_word.py disc/ gold/ --frames_per_ms F --tolerance T --strict True|''`: its
--strict is argparse type=bool, so only the empty string turns it off) on 240 generated cases
(tests/differential/cases.py: .list files of segment ends from 0, TextGrids whose words tier
tiles the utterance with empty marks in the pauses and at the edges; 10 and 20 ms frames,
tolerances of 1 and 2 frames; ties at the tolerance; predictions ending a few frames before or
after the utterance; utterances without prediction, all silence, with one segment), recorded in
tests/fixtures/differential/malan.json and compared on every run; against the script itself
when $MALAN_DIR names its checkout.

termeval reads the .list files through utils/convert_segments.sh --from malan-list and the gold
from the .phn/.wrd of the same intervals (prepare_gold --fill-gaps false). Where the script
prints F = -inf (no boundary on either side), termeval writes 0 and OS and R-value undefined;
where it divides by zero (no predicted token at all), token P and R are 0 here.
"""
from __future__ import annotations

import os

import pytest

from termeval.segmentation.convert import convert_lines
from tests.differential import cases as gen
from tests.differential import tool_inputs
from tests.differential.harness import Scored, check_digests, compare, live, load_fixture, write_gold

CASES = gen.malan_cases()
KEYS = {"boundary_precision": "precision", "boundary_recall": "recall", "boundary_fscore": "fscore",
        "boundary_os": "os", "boundary_rvalue": "rvalue", "token_precision": "token_precision",
        "token_recall": "token_recall", "token_fscore": "token_fscore"}


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> dict:
    d = str(tmp_path_factory.mktemp("malan"))
    utts = [u for c in CASES for u in c.utts]
    data = write_gold(utts, d)
    disc = os.path.join(d, "disc")
    os.makedirs(disc)
    for u in utts:
        with open(os.path.join(disc, f"{u.name}.list"), "w") as f:
            f.writelines(f"{gen.sec(b)} {lab}\n" for _, b, lab in u.pred)
    pred = os.path.join(d, "pred.txt")
    with open(pred, "w") as f:
        f.writelines(convert_lines("malan-list", disc))
    out = {}
    for c in CASES:
        ms, tol = c.params["frame_ms"], c.params["tolerance_frames"]
        for mode in ("strict", "lenient"):
            if (ms, tol, mode) not in out:
                out[(ms, tol, mode)] = Scored(data, pred, compat=f"malan-{mode}", level="word",
                                              tolerance=tol * ms / 1000, frame_shift=ms / 1000)
    return out


def _expected(printed: dict) -> dict:
    """The script's printed values as termeval writes them (-inf F is 0, -inf OS/R-value undefined)."""
    want = {}
    for ours, theirs in KEYS.items():
        v = printed.get(theirs)
        if v == "-inf":
            v = 0.0 if theirs.endswith("fscore") else None
        want[ours] = v
    return want


def _check(scored: dict, c: gen.Case, out: dict) -> list[str]:
    ms, tol = c.params["frame_ms"], c.params["tolerance_frames"]
    bad = []
    for mode in ("strict", "lenient"):
        v = scored[(ms, tol, mode)].case([u.name for u in c.utts])
        ours = {k: v[f"word_{k}"] for k in KEYS}
        where = f"case {c.index} ({c.kind}, {ms} ms, {tol} frames, {mode})"
        if "error" in out[mode]:              # ZeroDivisionError: no predicted token at all
            ok = ours["token_precision"] == 0.0 and ours["token_recall"] == 0.0
            bad += [] if ok else [f"{where}: the script {out[mode]['error']}, termeval {ours}"]
            continue
        bad += compare(ours, _expected(out[mode]), KEYS, where)
    return bad


def test_recorded_cases_equal(scored):
    fx = load_fixture("malan")
    check_digests(fx, CASES)
    bad = []
    for c, row in zip(CASES, fx["cases"]):
        bad += _check(scored, c, row["out"])
    assert not bad, "\n".join(bad[:20])
    # the two modes do differ on some cases (the lenient skip), and both frame lengths are there
    assert any(r["out"]["strict"] != r["out"]["lenient"] for r in fx["cases"])
    assert {c.params["frame_ms"] for c in CASES} == {10, 20}


def test_live_script(scored):
    sub = CASES[::6]
    res = live("malan", "MALAN_DIR", sub)
    bad = []
    for c, r in zip(sub, res):
        bad += _check(scored, c, r["out"])
    assert not bad, "\n".join(bad[:20])


def test_textgrid_writer_tiles_the_utterance():
    u = gen.Utt("u", 1000, [(0, 200, "SIL"), (200, 1000, "a")], [(200, 600, "w1")])
    text = tool_inputs.textgrid(u)
    assert text.count('text = ""') == 3 and 'text = "w1"' in text and "xmax = 1.0" in text
