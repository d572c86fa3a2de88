"""Final scores from summed statistics: F of zero, undefined metrics (termeval.tde.zrc2020.report)."""
from __future__ import annotations

import pytest

from termeval.tde.zrc2020.report import final_scores
from termeval.tde.zrc2020.stats import score
from tde_micro import MICRO_PHN, MICRO_WRD, make


def test_zero_token_hits_and_f_of_zero(tmp_path):
    # one class of two fragments that hit no word: tdev2 raises in its token F-score
    gold, classes = make(str(tmp_path), MICRO_PHN, MICRO_WRD, "Class 1\nA 0.1 0.3\nB 0.1 0.3\n\n")
    s = final_scores(score(gold, classes)[0])
    assert s["token_precision"] == 0 and s["token_recall"] == 0 and s["token_fscore"] == 0
    assert s["type_fscore"] == 0
    assert s["ned"] == 0.0 and s["grouping_precision"] == 1.0


def test_undefined_metrics(tmp_path):
    # a single fragment: no pair (NED undefined), no found type (grouping P undefined)
    gold, classes = make(str(tmp_path), MICRO_PHN, MICRO_WRD, "Class 1\nC 0 0.2\n\n")
    s = final_scores(score(gold, classes)[0])
    assert s["ned"] is None and s["ned_pairs"] == 0
    assert s["grouping_precision"] is None and s["grouping_recall"] is None and s["grouping_fscore"] is None
    assert s["coverage"] == 2 / 13
    # every fragment discarded: nothing is defined but nothing crashes
    gold, classes = make(str(tmp_path), MICRO_PHN, MICRO_WRD, "Class 1\nA 0.15 0.16\nC 5 6\n\n")
    m, counts = score(gold, classes)
    s = final_scores(m)
    assert s["coverage"] == 0.0 and s["token_precision"] is None and s["boundary_precision"] is None
    assert counts["fragments_discarded_no_phone_overlaps"] == 1


def test_final_scores_f():
    s = final_scores({"grouping_precision": 0.0, "grouping_recall": 0.0, "type_precision": float("nan"),
                      "type_recall": 0.5, "token_precision": 0.5, "token_recall": 0.25})
    assert s["grouping_fscore"] == 0.0 and s["type_fscore"] is None and s["type_precision"] is None
    assert s["token_fscore"] == pytest.approx(1 / 3)
    assert s["boundary_fscore"] is None
