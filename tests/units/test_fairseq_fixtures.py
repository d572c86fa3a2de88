"""score_units --compat fairseq against fairseq's examples/hubert/measure_teacher_quality.py on
the generated cases (tests/units/units_cases.py), as recorded in tests/units/fixtures/fairseq.json
by local/record_units_fixtures.sh: every value of its table at full precision, and the table
text (details/units/teacher_quality.txt) byte for byte."""
from __future__ import annotations

import json
import os

import pytest

import termeval
import units_cases as cases
from termeval.core import plots

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "fairseq.json")
with open(FIXTURE, encoding="utf-8") as _f:
    RECORDED = json.load(_f)["cases"]
KEYS = {"ref pur": "phone_purity", "hyp pur": "cluster_purity", "H(ref)": "ref_entropy", "H(hyp)": "hyp_entropy",
        "MI": "mutual_information", "MI/H(ref)": "pnmi", "ref segL": "ref_segment_length",
        "hyp segL": "hyp_segment_length"}
COUNTS = {"frm tot": "frames_scored", "frm diff": "frames_diff", "utt tot": "utterances", "utt miss": "utterances_missing"}


@pytest.fixture(autouse=True)
def no_plots(monkeypatch):
    monkeypatch.setattr(plots, "available", lambda: False)


def score_case(tmp_path, name: str, **options) -> tuple[dict, str]:
    files, opts = cases.fairseq_case(name)
    assert cases.digest(files) == RECORDED[name]["digest"], "the generator changed: re-record the fixtures"
    cases.write(files, str(tmp_path))
    gold = termeval.prepare_gold(str(tmp_path / "gold.txt"), format="discophon")
    exp = tmp_path / "exp"
    s = termeval.score_units(gold, str(tmp_path / "units.txt"), exp_dir=str(exp), compat="fairseq",
                             frame_shift=opts["frame_shift"], **options)
    return s, (exp / "details" / "units" / "teacher_quality.txt").read_text()


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_equal_to_fairseq(tmp_path, name):
    s, table = score_case(tmp_path, name)
    ref = RECORDED[name]
    for theirs, ours in KEYS.items():
        assert s[ours] == ref["values"][theirs], (theirs, s[ours], ref["values"][theirs])   # bit for bit
    for theirs, ours in COUNTS.items():
        assert s["units"][ours] == ref["values"][theirs]
    assert table == ref["table"]
