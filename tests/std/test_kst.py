"""Kaldi's results post-processing (termeval.std.kst, termeval.std.kaldi.recipe): values
derived here from the scripts' definitions (docs/std-kaldi-compat.md)."""
from __future__ import annotations

import math
import shutil
import subprocess

import pytest

from termeval.core.errors import InputError
from termeval.std.kaldi.recipe import pick_scale, scale_sweep
from termeval.std.kst import filter_nbest, normalize_kst, perl_num

BETA = 999.9


def _q(ntrue: float, T: float) -> float:
    thr = BETA * ntrue / (T + ntrue * (BETA - 1))
    return math.log(0.5) / math.log(thr), thr


def test_kst_power_transform_by_hand():
    rows = [("KW1", "1", "10", "20", "0"), ("KW1", "2", "30", "40", repr(math.log(2)))]
    out = normalize_kst(rows, 100.0, 1.0)
    q, thr = _q(1.5, 100.0)      # posteriors 1 and 0.5: expected count 1.5
    assert out.thresholds["KW1"] == pytest.approx(thr) and 0.938 < thr < 0.939
    assert [r[4] for r in out.rows] == ["1", "%.15g" % (0.5 ** q)]
    assert out.rows[0][:4] == ("KW1", "1", "10", "20")   # the other fields pass through as written
    # the threshold itself maps to 0.5: that is the point of the transform
    assert thr ** q == pytest.approx(0.5)
    # the scale multiplies the expected count
    q2, _ = _q(3.0, 100.0)
    assert normalize_kst(rows, 100.0, 2.0).rows[1][4] == "%.15g" % (0.5 ** q2)


def test_kst_drops_keywords_whose_threshold_reaches_0_9999():
    # 1.09989 * ntrue >= 99.99 <=> thr >= 0.9999 with T = 100: 91 certain hits are enough, 90 not
    keep = [("A", "1", str(i), str(i + 1), "0") for i in range(90)]
    drop = [("B", "1", str(i), str(i + 1), "0") for i in range(91)]
    out = normalize_kst(keep + drop, 100.0, 1.0)
    assert out.dropped == ["B"] and len(out.rows) == 90


def test_kst_zero_expected_count_and_blocks():
    out = normalize_kst([("Z", "1", "0", "5", "1000")], 100.0, 1.0)   # exp(-1000) = 0: thr 0 -> 0.001
    assert out.rows[0][4] == "0"
    # the scripts never sort: a keyword split in two runs is normalised run by run
    rows = [("A", "1", "0", "5", "0.1"), ("B", "1", "0", "5", "0.2"), ("A", "1", "90", "95", "0.3")]
    split = normalize_kst(rows, 50.0, 1.0).rows
    alone = normalize_kst(rows[2:], 50.0, 1.0).rows
    assert split[2] == alone[0]


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan")])
def test_kst_bad_scale(bad):
    with pytest.raises(InputError, match="ntrue-scale"):
        normalize_kst([("A", "1", "0", "5", "0.1")], 10.0, bad)


def test_kst_negative_cost_is_an_error_naming_the_line():
    with pytest.raises(InputError, match="above 1") as e:
        normalize_kst([("A", "1", "0", "5", "0.1", 7), ("A", "1", "60", "65", "-0.5", 8)], 1e6, 1.0, path="r")
    assert e.value.line == 8


def test_perl_number_text():
    assert [perl_num(x) for x in (1.0, 0.5, 1e-5, 1 / 3, 2.0 ** 60)] == \
        ["1", "0.5", "1e-05", "0.333333333333333", "1.15292150460685e+18"]


def test_nbest_filter_dedup_then_best():
    rows = [("K", "1", "100", "140", "0.6"), ("K", "1", "130", "170", "0.9"), ("K", "1", "200", "240", "0.5"),
            ("K", "2", "100", "140", "0.4"), ("L", "1", "0", "10", "0.2")]
    # utt 1: 100 and 130 are < 50 frames apart: the better (0.9) stays; 200 is 70 frames from it
    assert filter_nbest(rows, None) == [rows[1], rows[2], rows[3], rows[4]]
    assert filter_nbest(rows, 2) == [rows[1], rows[2], rows[4]]   # per keyword
    # equal starts and scores: the longer hit (end descending) is kept
    tie = [("K", "1", "10", "20", "0.5"), ("K", "1", "10", "30", "0.5")]
    assert filter_nbest(tie, None) == [tie[1]]
    with pytest.raises(InputError, match="nbest"):
        filter_nbest(rows, 0)


def test_scale_sweep_is_score_sh_list():
    s = scale_sweep()
    assert [k for k, _ in s] == list(range(1, 22))
    assert [v for _, v in s] == ["1", "1.2", "1.4", "1.6", "1.8", "2", "2.2", "2.4", "2.6", "2.8", "3",
                                 "3.2", "3.4", "3.6", "3.8", "4", "4.2", "4.4", "4.6", "4.8", "5"]


def test_pick_scale_ties_like_sort():
    atwv = {1: "0.5000", 2: "0.6000", 3: "0.6000", 10: "0.6000", 21: "-0.1000"}
    assert pick_scale(atwv) == 10        # "10.txt" < "2.txt" < "3.txt" bytewise
    assert pick_scale({1: "-0.0000", 2: "0.0000"}) == 1
    if shutil.which("sort"):
        lines = "".join(f"exp/kws_10/scoring/score.{k}.txt:aproximate ATWV = {v}\n" for k, v in atwv.items())
        out = subprocess.run(["sort", "-k2,2nr", "-t", "="], input=lines, capture_output=True, text=True,
                             env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"}).stdout
        assert out.splitlines()[0].startswith("exp/kws_10/scoring/score.10.txt")
