"""--compat vqwordseg against kamperh/vqwordseg eval_segmentation.py (commit d062717): its
functions called as its main() calls them (intervals read from its directories, boundaries,
word tokens, clusters), at word and phone level and tolerances of 0-3 frames, on 120 corpora of
local/make_segmentation.py vqwordseg (2-12 utterances each: predictions longer or shorter than
the reference, zero-length segments, a segment ending at frame 0, gaps, an empty prediction
file), recorded in tests/fixtures/differential/vqwordseg.json and compared on every run; against
the script itself when $VQWORDSEG_DIR names its checkout.

termeval reads the same corpus as a user does: the .phn/.wrd and segments file in seconds, the
prediction as the interval directory in frames. Where the script prints -inf (P + R = 0), F is
0 here and OS, R-value undefined; where it divides by zero, P or R is undefined here.
"""
from __future__ import annotations

import os
import shutil

import pytest

from tests.differential import cases as gen
from tests.differential import record
from tests.differential.harness import Scored, check_digests, compare, live, load_fixture
from tests.differential.tool_inputs import make_vqwordseg
from termeval.gold import prepare_texts, write_data_dir
from termeval.gold.options import GoldOptions

CASES = gen.vqwordseg_cases()
KEYS = {"boundary_precision": "p", "boundary_recall": "r", "boundary_fscore": "f", "boundary_os": "os",
        "boundary_rvalue": "rv", "token_precision": "tp", "token_recall": "tr", "token_fscore": "tf",
        "purity": "purity", "homogeneity": "h", "completeness": "c", "v_measure": "v"}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> dict:
    """Every case's corpus in one data dir, files and utterances prefixed by the case."""
    d = str(tmp_path_factory.mktemp("vqwordseg"))
    lines: dict[str, list[str]] = {"gold.phn": [], "gold.wrd": [], "segments": []}
    intervals = os.path.join(d, "intervals")
    os.makedirs(intervals)
    digests, utts = {}, {}
    for c in CASES:
        cd = os.path.join(d, f"case{c.index:03d}")
        make_vqwordseg(c, cd)
        digests[c.index] = record.case_digest("vqwordseg", c, cd)
        pre = f"c{c.index:03d}_"
        for name in ("gold.phn", "gold.wrd"):
            with open(os.path.join(cd, name)) as f:
                lines[name] += [pre + x for x in f]
        with open(os.path.join(cd, "segments")) as f:
            rows = [x.split() for x in f]
        lines["segments"] += [f"{pre}{u} {pre}{r} {a} {b}\n" for u, r, a, b in rows]
        utts[c.index] = [pre + u for u, _, _, _ in rows]
        for name in os.listdir(os.path.join(cd, "intervals")):
            shutil.copy(os.path.join(cd, "intervals", name), os.path.join(intervals, pre + name))
    for name, rows in lines.items():
        with open(os.path.join(d, name), "w") as f:
            f.writelines(sorted(rows, key=lambda r: (r.split()[0], float(r.split()[1]))) if name != "segments" else rows)
    opts = GoldOptions(format="zr", inputs=(os.path.join(d, "gold.phn"), os.path.join(d, "gold.wrd"),
                                            os.path.join(d, "data")))
    texts, used, _ = prepare_texts(opts)
    write_data_dir(texts, opts.data_dir, used)
    return {"dir": d, "digests": digests, "utts": utts, "scored": {}}


def _ours(corpus: dict, c: gen.Case, level: str) -> dict:
    tol = c.params["tolerance_frames"]
    key = (level, tol)
    if key not in corpus["scored"]:
        d = corpus["dir"]
        corpus["scored"][key] = Scored(os.path.join(d, "data"), os.path.join(d, "intervals"),
                                       segments=os.path.join(d, "segments"), compat="vqwordseg", level=level,
                                       tolerance=tol / 100, frame_shift=0.01)
    v = corpus["scored"][key].case(corpus["utts"][c.index])
    return {k: v.get(f"{level}_{k}") for k in KEYS}


def _expected(out: dict) -> dict:
    want = {}
    for ours, theirs in KEYS.items():
        v = out.get(theirs)
        if v == "-inf":
            v = 0.0 if theirs in ("f", "tf") else None
        want[ours] = v
    return want


def _check(corpus: dict, c: gen.Case, out: dict) -> list[str]:
    bad = []
    for level in ("word", "phone"):
        ours, theirs = _ours(corpus, c, level), out[level]
        where = f"case {c.index} ({c.params}, {level})"
        keys = list(KEYS)
        if "boundary_error" in theirs:           # ZeroDivisionError: no predicted or no reference boundary
            if not (ours["boundary_precision"] is None or ours["boundary_recall"] is None):
                bad.append(f"{where}: the script {theirs['boundary_error']}, termeval {ours}")
            keys = [k for k in keys if not k.startswith("boundary_")]
        bad += compare(ours, _expected(theirs), keys, where)
    return bad


def test_recorded_cases_equal(corpus):
    fx = load_fixture("vqwordseg")
    check_digests(fx, CASES, lambda c: corpus["digests"][c.index])
    bad = []
    for c, row in zip(CASES, fx["cases"]):
        bad += _check(corpus, c, row["out"])
    assert not bad, "\n".join(bad[:20])


def test_live_script(corpus):
    sub = CASES[::6]
    res = live("vqwordseg", "VQWORDSEG_DIR", sub)
    bad = []
    for c, r in zip(sub, res):
        bad += _check(corpus, c, r["out"])
    assert not bad, "\n".join(bad[:20])
