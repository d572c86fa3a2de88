"""--compat unsupseg, malan-strict and malan-lenient end to end through
steps/score_segmentation.sh, on the toy corpus of test_segmentation_cli (hand-computed)."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from termeval.bin import score_segmentation
from termeval.core.errors import InputError
from termeval.gold import prepare_zr
from termeval.segmentation.checks import check_settings
from termeval.segmentation.stats import Settings

from test_segmentation_cli import PHN, SEG, WRD

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# f1 with three predicted ends around the gold 0.50 (frames 24, 25, 26 at 20 ms)
SEG2 = """f1 0.00 0.11 1
f1 0.11 0.48 2
f1 0.48 0.50 3
f1 0.50 0.52 1
f1 0.52 0.82 2
f1 0.82 1.00 3
f2 0.00 0.45 2
f2 0.45 0.90 3
"""


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    d = tmp_path_factory.mktemp("toy")
    (d / "toy.phn").write_text(PHN)
    (d / "toy.wrd").write_text(WRD)
    (d / "seg.txt").write_text(SEG)
    (d / "seg2.txt").write_text(SEG2)
    prepare_zr(str(d / "toy.phn"), str(d / "toy.wrd"), str(d / "data"))
    return d


def run(toy, compat, frame_shift, seg):
    exp = toy / f"exp_{compat}"
    p = subprocess.run([os.path.join(ROOT, "steps", "score_segmentation.sh"), "--compat", compat,
                        "--tolerance", "0.02", "--frame-shift", frame_shift,
                        str(toy / "data"), str(toy / seg), str(exp)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    with open(exp / "scores" / "scores.json") as f:
        return json.load(f)


def test_unsupseg(toy):
    # internal gold boundaries f1 10 50 80, f2 40; predicted f1 11 49 82, f2 45 (2 frames:
    # f2 misses): 3 of 4 both ways, smoothed
    s = run(toy, "unsupseg", "0.01", "seg.txt")
    p = 3 / 4.00001
    assert (s["word_boundary_precision"], s["word_boundary_recall"]) == (p, p)
    assert s["word_boundary_fscore"] == 2 * p * p / (2 * p + 1e-5)
    assert "word_boundary_os" not in s and "word_token_fscore" not in s
    d = s["segmentation"]["definitions"]
    assert d["scorer"] == "unsupseg" and d["tolerance_frames"] == 2


@pytest.mark.parametrize("compat,hits", [("malan-strict", 3), ("malan-lenient", 4)])
def test_malan(toy, compat, hits):
    # gold f1 5 25 40 50, f2 20 45; predicted f1 6 24 25 26 41 50, f2 22 45; both last pairs
    # removed. Strict: 5-6, 25-24, 40-41. Lenient: gold 25 pops 24, skips 25, pops 26.
    s = run(toy, compat, "0.02", "seg2.txt")
    assert (s["word_boundary_precision"], s["word_boundary_recall"]) == (hits / 6, hits / 4)
    # tokens on the whole lists (copies were scanned): (0,6) (6,24) (26,41) (41,50) of 8 / 6
    assert (s["word_token_precision"], s["word_token_recall"]) == (4 / 8, 4 / 6)
    assert s["segmentation"]["definitions"]["scorer"] == compat


def test_jobs_add_up(toy):
    """--nj 2 (job 1, job 2, merge) gives the numbers of one process (4-count rows: unsupseg)."""
    exp = str(toy / "nj2_unsupseg")
    args = ["--nj", "2", "--compat", "unsupseg", str(toy / "data"), str(toy / "seg.txt"), exp]
    for j in (1, 2):
        score_segmentation.main(["--job", str(j)] + args)
    score_segmentation.main(["--merge", "2"] + args)
    with open(os.path.join(exp, "scores", "scores.json")) as f:
        s = json.load(f)
    assert s["word_boundary_recall"] == 3 / 4.00001
    assert s["segmentation"]["counts"]["boundary_ref_hits"] == 3


def test_fractional_tolerance_refused():
    with pytest.raises(InputError, match="whole number of --frame-shift"):
        check_settings(Settings(0.03, 0.02, "word", "malan-strict"))
    with pytest.raises(InputError, match="whole number of milliseconds"):
        check_settings(Settings(0.025, 0.0125, "word", "malan-lenient"))


def test_compare_rows(toy):
    """--compat all: the rows of the three scorers (unsupseg's recall from its reference hits)."""
    exp = str(toy / "exp_all")
    score_segmentation.main(["--compat", "all", str(toy / "data"), str(toy / "seg2.txt"), exp])
    with open(os.path.join(exp, "scores", "scores.json")) as f:
        rows = {r["scorer"]: r for r in json.load(f)["segmentation"]["compare"]}
    # unsupseg: predicted f1 11 48 50 52 82 (all correct), f2 45 (wrong); gold 10 50 80 found, 40 not
    u = rows["unsupseg"]
    assert (u["precision"], u["recall"], u["frame_shift"]) == (5 / 6.00001, 3 / 4.00001, 0.01)
    assert (rows["malan-strict"]["hits"], rows["malan-lenient"]["hits"]) == (3, 4)
    assert rows["malan-lenient"]["recall"] == 1.0 and rows["malan-strict"]["frame_shift"] == 0.02
