"""F4DE's own double arithmetic, with no tolerance (issue 14 §1), on planted edge cases on both
sides of each rule:

* ECF membership (`KWSAlignment::belongsInECF`): kept iff BT >= TBEG and ET <= TEND, with
  ET = BT + DUR unrounded and TEND = sprintf("%.4f", TBEG + DUR);
* alignment window (`KWSAlignment::_bipartiteKernel`): MID = BT + DUR/2.0, refused iff
  MID < ref.BT - 0.5 or MID > ref.ET + 0.5 (ref.ET = sprintf("%.4f", BT + DUR))."""
from __future__ import annotations

import numpy as np
import pytest

from termeval.std.align import align_f4de, f4de_mid
from termeval.std.detections import read_detections
from termeval.std.ecf import in_ecf, round4
from termeval.std.kwsdir import load_kws_dir
from termeval.std.score import Params, score_std


def test_round4_is_printf():
    rng = np.random.default_rng(0)
    x = np.r_[rng.uniform(0, 1e5, 20000), np.round(rng.uniform(0, 1e4, 2000), 5),
              [0.1 + 0.2, 1.03125, 2.00005, 387.292, 0.00005, 1e-9, 0.0]]
    assert round4(x).tolist() == [float("%.4f" % v) for v in x]


def test_ecf_end_has_no_tolerance():
    tend = round4(np.array([0.0 + 387.292]))       # "387.2920"
    ek, tb = np.array([0]), np.array([0.0])
    beg = np.array([386.903, 386.892, 387.292, 0.0])
    dur = np.array([0.389, 0.4, 0.0, 387.292])
    end = beg + dur
    assert end[0] == 387.29200000000003 and end[1] == 387.292  # one ulp past, exactly at
    assert in_ecf(ek, tb, tend, np.zeros(4, np.int64), beg, end).tolist() == [False, True, True, True]


def test_ecf_start_and_rounded_excerpt_end():
    # excerpt tbeg 0.1 dur 0.2: TEND = "0.3000" = 0.3 while a detection 0.1 + 0.2 ends at
    # 0.30000000000000004: the detection spanning exactly the excerpt is outside, as in F4DE
    tend = round4(np.array([0.1 + 0.2]))
    ek, tb = np.array([0]), np.array([0.1])
    beg = np.array([0.1, 0.1, 0.09999999999999999, 0.15])
    dur = np.array([0.2, 0.19999999999999998, 0.1, 0.15])
    end = beg + dur
    assert end[1] == 0.3 and end[3] == 0.3
    assert in_ecf(ek, tb, tend, np.zeros(4, np.int64), beg, end).tolist() == [False, True, False, True]


# (det tbeg, det dur, aligned?) against the reference 10.021 + 0.300 (ET 10.3210)
WINDOW_CASES = [
    (10.646, 0.350, False),  # MID = 10.821000000000002 > 10.321 + 0.5 = 10.821: FA + MISS
    (10.621, 0.400, True),   # MID = 10.821 exactly (beg + (end-beg)/2 would be one ulp above)
    (10.645, 0.352, True),
    (9.321, 0.400, False),   # MID = 9.520999999999999 < 10.021 - 0.5 = 9.521
    (9.346, 0.350, True),    # MID = 9.521 exactly
    (9.421, 0.200, False),
]


@pytest.mark.parametrize("tb,du,ok", WINDOW_CASES)
def test_window_mid_point_and_no_tolerance(tb, du, ok):
    beg, dur = np.array([tb]), np.array([du])
    dm, rm, _ = align_f4de(np.zeros(1, np.int64), np.array([10.021]), round4(np.array([10.021 + 0.300])),
                           np.zeros(1, np.int64), beg, beg + dur, np.array([0.9]), dur_d=dur)
    assert (dm[0] == 0) == ok
    assert f4de_mid(beg, dur)[0] == tb + du / 2.0


def test_window_mid_point_differs_from_end_based_mid():
    """The reason for dur_d: beg + (end-beg)/2 and beg + dur/2 disagree by an ulp."""
    assert 10.621 + ((10.621 + 0.4) - 10.621) / 2 == 10.821000000000002
    assert f4de_mid(np.array([10.621]), np.array([0.4]))[0] == 10.821


ECF = """<ecf source_signal_duration="387.292" version="t">
  <excerpt audio_filename="F1.sph" channel="1" tbeg="0" dur="387.292" source_type="bnews"/>
</ecf>
"""
RTTM = """LEXEME F1 1 10.021 0.300 alpha lex s1 <NA>
LEXEME F1 1 20.021 0.300 beta lex s1 <NA>
LEXEME F1 1 100.000 0.300 gamma lex s1 <NA>
"""
KWLIST = """<kwlist ecf_filename="ecf.xml" language="english" encoding="UTF-8" compareNormalize="lowercase" version="t">
<kw kwid="K1"><kwtext>alpha</kwtext></kw>
<kw kwid="K2"><kwtext>beta</kwtext></kw>
<kw kwid="K3"><kwtext>gamma</kwtext></kw>
</kwlist>
"""
KWSLIST = """<kwslist kwlist_filename="kwlist.xml" language="english" system_id="t">
<detected_kwlist kwid="K1" search_time="1" oov_count="0">
<kw file="F1" channel="1" tbeg="10.646" dur="0.350" score="0.9" decision="YES"/>
</detected_kwlist>
<detected_kwlist kwid="K2" search_time="1" oov_count="0">
<kw file="F1" channel="1" tbeg="20.621" dur="0.400" score="0.9" decision="YES"/>
</detected_kwlist>
<detected_kwlist kwid="K3" search_time="1" oov_count="0">
<kw file="F1" channel="1" tbeg="100.000" dur="0.300" score="0.9" decision="YES"/>
<kw file="F1" channel="1" tbeg="386.903" dur="0.389" score="0.9" decision="YES"/>
</detected_kwlist>
</kwslist>
"""


@pytest.mark.parametrize("compat", [False, True])
def test_end_to_end_planted_cases(tmp_path, compat):
    for name, text in (("ecf.xml", ECF), ("rttm", RTTM), ("kwlist.xml", KWLIST), ("k.xml", KWSLIST)):
        (tmp_path / name).write_text(text)
    kws = load_kws_dir(str(tmp_path))
    res = score_std(kws, read_detections(str(tmp_path / "k.xml")), Params(preset="nist2006", compat_f4de=compat))
    m = res.metrics
    # K1: FA + MISS (mid one ulp past the window); K2: CORR (20.621 + 0.2 = 20.821 exactly);
    # K3: CORR, and the detection ending at 387.29200000000003 is ignored, not a false alarm
    assert (m["n_hits"], m["n_false_alarms"], m["n_misses"]) == (1 + 1, 1, 1)
    assert res.extra["n_detections_outside_ecf"] == 1
    n = res.extra["trials_per_term"]
    assert n == 387  # round(387.292)
    beta = 999.9
    twv_k1 = 1 - 1 - beta * 1 / (n - 1)
    assert res.twv.term_twv.tolist() == pytest.approx([twv_k1, 1.0, 1.0], abs=1e-12)
    assert m["atwv"] == pytest.approx((twv_k1 + 2) / 3, abs=1e-12)
