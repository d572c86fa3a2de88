"""Breakdowns (termeval/std/breakdown.py, figures.py): group labels, a hand-computed group,
F4DE -q parity on test6 (Characters-3), and the score_std / score_quesst outputs."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest

from termeval.core.errors import InputError
from termeval.std import breakdown, figures
from termeval.std.ranking import ranking
from termeval.std.twv import beta_from

BETA_SWS = beta_from(0.00015, 100, 1)


def test_labels():
    texts = ["horse", "white horse", "the big dog"]
    assert breakdown.labels("ngram", texts, [], np.zeros(3), [1]) == ["1", "2", "3"]
    assert [breakdown.freq_label(n, [1, 2, 5, 10]) for n in (0, 1, 2, 4, 5, 9, 10, 99)] == \
        ["0", "1", "2-4", "2-4", "5-9", "5-9", "10+", "10+"]
    assert breakdown.labels("oov", texts, [], np.zeros(3), [1], {"horse", "white"}) == ["iv", "iv", "oov"]
    attrs = [{"NGram": "1"}, {}, {"NGram": "3"}]
    assert breakdown.labels("attr:NGram", texts, attrs, np.zeros(3), [1]) == ["1", "(none)", "3"]
    assert breakdown.parse_kinds("", False) == ["ngram", "freq"]
    assert breakdown.parse_kinds("", True) == ["ngram", "freq", "oov"]
    for bad in ("bogus", "oov", "qtype", "ngram,ngram"):
        with pytest.raises(InputError):
            breakdown.parse_kinds(bad, False)
    with pytest.raises(InputError):
        breakdown.parse_bins("5,2")


def _toy_result():
    # test_std.py's docs/std.md §6.1 toy: q1 (4 refs), q2 (1 ref), q3 (none); N = 100
    return SimpleNamespace(
        trials={"term": np.array([0, 0, 0, 0, 0, 1, 1]), "score": np.array([.9, .7, .4, .8, .3, .6, .95]),
                "yes": np.array([1, 1, 0, 1, 0, 1, 1], bool), "target": np.array([1, 1, 1, 0, 0, 1, 0], bool),
                "n_trials": 100, "t_audio": 100.0},
        evaluated=np.array([True, True, False]), ntrue=np.array([4, 1, 0]), beta=BETA_SWS)


def test_group_scored_as_its_own_term_list_by_hand():
    res = _toy_result()
    rk = ranking(res.trials["term"], res.trials["score"], res.trials["target"], res.ntrue, res.evaluated)
    g2 = figures.std_group(res, np.array([False, True, True]), rk)
    # q2 alone: YES on 0.6 (hit) and 0.95 (FA): 1 - 0 - beta/99
    assert g2["atwv"] == pytest.approx(1 - BETA_SWS / 99, abs=1e-12)
    assert g2["atwv"] == pytest.approx(0.326700, abs=1e-6)
    assert g2["mtwv"] == pytest.approx(1 - BETA_SWS / 99) and g2["mtwv_threshold"] == 0.6
    assert (g2["n_terms"], g2["n_targets"], g2["n_detections"]) == (1, 1, 2)
    assert g2["map"] == 0.5  # the FA at 0.95 ranks above the hit
    g1 = figures.std_group(res, np.array([True, False, False]), rk)
    # q1 alone: hits 0.9, 0.7 of 4, FA 0.8 of 96: 1 - 0.5 - beta/96
    assert g1["atwv"] == pytest.approx(0.5 - BETA_SWS / 96, abs=1e-12)
    assert g1["p_miss"] == 0.5 and g1["p_fa"] == pytest.approx(1 / 96)


def _run(root, *args):
    return subprocess.run([sys.executable, "-m", *args], cwd=root, capture_output=True, text=True)


def test_f4de_q_parity_on_test6(shared, root, tmp_path):
    """One run with --breakdown attr:Characters gives F4DE -q 'Characters:regex=^[35]$' numbers
    (res_test2b: Characters-3 ATWV -22.8604, MTWV 0.5333 @0.567)."""
    c = os.path.join(shared, "reference", "f4de", "common")
    exp = tmp_path / "exp"
    r = _run(root, "termeval.bin.score_std", "--preset", "nist2006", "--breakdown", "attr:Characters,ngram",
             "--ecf", f"{c}/test6.ecf.xml", "--rttm", f"{c}/test6.rttm", "--termlist", f"{c}/test6.kwlist.xml",
             "--plots", "false", c, f"{c}/test6.kwslist.xml", str(exp))
    assert r.returncode == 0, r.stderr
    b = json.loads((exp / "scores/scores.json").read_text())["breakdowns"]["std"]["attr:Characters"]
    assert f"{b['3']['atwv']:.4f}" == "-22.8604"
    assert f"{b['3']['mtwv']:.4f}" == "0.5333"
    rows = (exp / "details/breakdown_attr_Characters.tsv").read_text().splitlines()
    assert rows[0].startswith("group\tn_terms\tn_terms_with_targets\tn_targets\tn_detections\tatwv\tmtwv")
    assert (exp / "details/breakdown_ngram.tsv").exists()


def test_example_breakdowns_and_operating_file(root, tmp_path):
    exp, lex = tmp_path / "exp", tmp_path / "words.txt"
    r = subprocess.run([sys.executable, "local/make_example_std.py", str(tmp_path / "ex")], cwd=root,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    kws, det = tmp_path / "ex" / "kws", tmp_path / "ex" / "detections.stdlist.xml"
    lex.write_text("horse 1\nriver 2\nwhite 3\nmorning 4\nstone 5\nlantern 6\n")
    r = _run(root, "termeval.bin.score_std", "--breakdown", "attr:NGram,ngram,freq,oov", "--lexicon", str(lex),
             "--plots", "false", str(kws), str(det), str(exp))
    assert r.returncode == 0, r.stderr
    s = json.loads((exp / "scores/scores.json").read_text())
    std_keys = [line.split()[0] for line in (exp / "scores/std").read_text().splitlines()]
    from termeval.std.report import KEYS
    assert std_keys == KEYS  # the score file keeps its keys; figures go to std_operating
    b = s["breakdowns"]["std"]
    assert set(b) == {"attr:NGram", "ngram", "freq", "oov"}
    assert b["attr:NGram"] == b["ngram"]  # the example's NGram attribute is the word count
    # a group = F4DE -q on that group
    r2 = _run(root, "termeval.bin.score_std", "--term-attr", "NGram:2", "--plots", "false", "--breakdown", "none",
              str(kws), str(det), str(tmp_path / "exp2"))
    s2 = json.loads((tmp_path / "exp2/scores/scores.json").read_text())
    assert b["ngram"]["2"]["atwv"] == s2["atwv"] and b["ngram"]["2"]["mtwv"] == s2["mtwv"]
    assert "breakdowns" in s2 and s2["breakdowns"]["std"] == {}
    ops = dict(line.split()[:2] for line in (exp / "scores/std_operating").read_text().splitlines())
    assert set(ops) >= {"fa_per_hour_at_recall_0.5", "recall_at_fa_per_hour_1", "recall_at_fa_per_hour_10",
                        "map", "map_f4de", "mean_p_at_10", "mean_r_precision"}
    # bad option values: one line, no traceback
    r3 = _run(root, "termeval.bin.score_std", "--breakdown", "oov", str(kws), str(det), str(tmp_path / "e3"))
    assert r3.returncode == 1 and "needs --lexicon" in r3.stderr and "Traceback" not in r3.stderr


def test_quesst_qtype_from_sibling_dirs_and_ranking(root, tmp_path):
    kws = tmp_path / "gt"
    kws.mkdir()
    (kws / "documents").write_text("D1\nD2\nD3\nD4\n")
    (kws / "queries").write_text("q1\nq2\n")
    (kws / "targets").write_text("q1 D1\nq1 D2\nq2 D3\n")
    for t, q in (("T1", "q1"), ("T2", "q2")):
        (tmp_path / f"gt_{t}").mkdir()
        (tmp_path / f"gt_{t}" / "tlist.xml").write_text(
            f'<termlist><term termid="{q}"><termtext>{q}</termtext></term></termlist>\n')
    det = tmp_path / "det.txt"
    det.write_text("q1 D1 2.0\nq1 D2 -0.5\nq1 D3 0.3\nq2 D1 -1.0\nq2 D3 1.5\n")
    exp = tmp_path / "exp"
    r = _run(root, "termeval.bin.score_quesst", "--default-score", "-10", str(kws), str(det), str(exp))
    assert r.returncode == 0, r.stderr
    s = json.loads((exp / "scores/scores.json").read_text())
    q = s["breakdowns"]["quesst"]["qtype"]
    assert q["T1"]["max_twv"] == pytest.approx(0.5) and q["T2"]["max_twv"] == pytest.approx(1.0)
    assert q["T1"]["map"] == pytest.approx(5 / 6) and q["T2"]["map"] == 1.0
    assert s["quesst_map"] == pytest.approx(11 / 12) and s["quesst_mean_r_precision"] == pytest.approx(0.75)
    assert (exp / "details/quesst/breakdown_qtype.tsv").exists()
