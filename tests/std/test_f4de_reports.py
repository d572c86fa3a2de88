"""--f4de-reports: sum.txt / bsum.txt in F4DE KWSEval's text layout: byte-identical to F4DE
3.5.0's reports on its regression inputs, and the line positions Kaldi's scripts read."""
from __future__ import annotations

import os

import pytest

from termeval.std.detections import read_detections
from termeval.std.f4de_reports import bsum_text, render, sum_text
from termeval.std.kwsdir import load_kws_dir
from termeval.std.score import Params, score_std

CASES = [("res_test6a.txt", "test5.short.ecf.xml", "test5.rttm", "test5.kwslist.xml", "test5.kwlist.xml"),
         ("res_test7a.txt", "test8.ecf.xml", "test8.cantonese.rttm", "test8.cantonese.kwslist.xml",
          "test8.cantonese.kwlist.xml")]


def _result(shared, ecf, rttm, kws, kwl):
    c = os.path.join(shared, "reference", "f4de", "common")
    k = load_kws_dir(c, ecf=os.path.join(c, ecf), rttm=os.path.join(c, rttm), termlist=os.path.join(c, kwl))
    return score_std(k, read_detections(os.path.join(c, kws)), Params(preset="nist2006"))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_reports_equal_f4de(shared, case):
    with open(os.path.join(shared, "reference", "f4de", "expected", case[0]), encoding="utf-8") as f:
        expected = f.read()
    want_sum = expected.split("\nSummary Report: -\n")[1].split("Block Summary Report: -\n")[0]
    want_bsum = expected.split("Block Summary Report: -\n")[1].split("\n[[STDERR]]")[0]
    r = _result(shared, *case[1:])
    assert sum_text(r) == want_sum
    assert bsum_text(r) == want_bsum


def _toy():
    """A hand-made result: three terms (one without references), beta 999.9."""
    import numpy as np
    from types import SimpleNamespace
    from termeval.std.termlist import TermList
    terms = TermList(["KW-2", "KW-1", "KW-3"], ["white horse", "cat", "zebra"], [{}, {}, {}])
    twv = SimpleNamespace(term_twv=np.array([0.5, -1.25, np.nan]), term_pfa=np.array([0.0, 0.00225, np.nan]),
                          term_pmiss=np.array([0.5, 0.0, np.nan]))
    metrics = {"n_targets": 6, "n_false_alarms": 3, "n_detections": 9, "n_hits": 5, "n_misses": 1,
               "p_fa": 0.001125, "p_miss": 0.25, "atwv": -0.375, "actual_threshold": 0.5,
               "p_fa_at_mtwv": 0.0, "p_miss_at_mtwv": 0.5, "mtwv": 0.5, "mtwv_threshold": 0.75}
    extra = {"n_correct_rejects": 1, "t_audio": 2000.25, "trials_per_term": 2000, "p_target": 1e-4,
             "c_fa": 1.0, "c_miss": 10.0, "include_notarget_terms": False}
    return SimpleNamespace(metrics=metrics, extra=extra, twv=twv, terms=terms, beta=999.9,
                           evaluated=np.array([True, True, False]), ntrue=np.array([2, 4, 0]),
                           n_hits=np.array([1, 4, 0]), n_fa=np.array([0, 3, 0]), n_miss=np.array([1, 0, 0]))


def test_line_positions_kaldi_scripts_read():
    res = _toy()
    s = sum_text(res).split("\n")
    # kws_score_f4de.sh: grep TotDur sum.txt | cut -f 3 -d '|' | sed 's/\s*//g'
    tot = [line for line in s if "TotDur" in line]
    assert len(tot) == 1 and tot[0].split("|")[2].strip() == "2000.25" and s.index(tot[0]) == 6  # line 7
    # make_release.sh / RESULTS: grep "|   Occurrence" sum.txt | cut -f 13 -d '|' is the ATWV
    occ = [line for line in s if line.startswith("|   Occurrence")]
    assert len(occ) == 1 and occ[0].split("|")[12].strip() == "-0.3750"
    assert occ[0].split("|")[16].strip() == "0.5000"    # cut -f 17: MTWV
    b = bsum_text(res).split("\n")
    assert b[6].split("|")[2].strip() == "2000.25"       # duration: line 7 of bsum.txt too
    assert b[13] == "" and b[14] == "" and b[17].startswith("-----")   # table header ends on line 18
    assert b[18].startswith("Keyword  KW-1 ")             # keyword rows after line 18 (sorted ids)
    # subset_atwv.pl: keyword rows from /^Keyword/ to /^Summary  Totals/, '|' columns 2..6
    rows = []
    on = False
    for line in b:
        if line.startswith("Summary  Totals"):
            on = False
        if line.startswith("Keyword"):
            on = True
        if on:
            col = line.split("|")
            if col[2].strip():
                rows.append([c.strip() for c in col[2:7]])
    assert rows == [["4", "4", "3", "0", "-1.2500"], ["2", "1", "0", "1", "0.5000"]]
    assert b[21].startswith("Summary  Totals ") and b[22].startswith("         Means ")
    assert b[22].split("|")[2].strip() == "3"                # %.0f of 6 / 2


def test_render_widths_and_spread():
    # columns: 2*2 + longest text = 5 and 6 wide (12 with the bar); the label needs 28 + 4 = 32:
    # the missing 20 is spread int(20 / 2) = 10 to x, the rest (10) to y -> 15 and 16
    t = render([("A very long group label here", ["x", "y"])], [((), {(0, "x"): "1", (0, "y"): "22"})])
    lines = t.splitlines()
    assert lines[0] == "|  A very long group label here  |"
    assert lines[1] == "|" + " " * 7 + "x" + " " * 7 + "|" + " " * 7 + "y" + " " * 8 + "|"
    assert lines[2] == "|" + "-" * 15 + "+" + "-" * 16 + "+"
    assert lines[3] == "| " + " " * 12 + "1 | " + " " * 12 + "22 |"
