"""score_discophon against discophon 0.2.0's own outputs on the generated cases
(tests/units/units_cases.py), recorded in tests/units/fixtures/discophon.json by
local/record_units_fixtures.sh: scores.jsonl byte for byte, and every input discophon refuses is
a one-line error naming the file (and line) here."""
from __future__ import annotations

import json
import os

import pytest

import units_cases as cases
from termeval.bin import score_discophon
from termeval.core import plots
from termeval.core.errors import InputError

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "discophon.json")
with open(FIXTURE, encoding="utf-8") as _f:
    RECORDED = json.load(_f)["cases"]


@pytest.fixture(autouse=True)
def no_plots(monkeypatch):
    """The plots are drawn by the CLI tests; here only the numbers are compared (time)."""
    monkeypatch.setattr(plots, "available", lambda: False)


def score(tmp_path, name: str) -> str:
    files, opts = cases.discophon_case(name)
    assert cases.digest(files) == RECORDED[name]["digest"], "the generator changed: re-record the fixtures"
    cases.write(files, str(tmp_path))
    out = tmp_path / "out"
    score_discophon.main([str(tmp_path / "dataset"), str(tmp_path / "predictions"), str(out),
                          "--kind", opts["kind"], "--step-units", str(opts["step_units"])])
    return (out / "scores.jsonl").read_text()


@pytest.mark.parametrize("name", sorted(k for k, v in RECORDED.items() if "scores_jsonl" in v))
def test_scores_jsonl_equal_to_discophon(tmp_path, name, capsys):
    got = score(tmp_path, name)
    assert got == RECORDED[name]["scores_jsonl"]


@pytest.mark.parametrize("name", sorted(k for k, v in RECORDED.items() if "error" in v))
def test_refused_as_discophon_refuses(tmp_path, name, capsys):
    with pytest.raises(InputError) as e:
        score(tmp_path, name)
    text = e.value.format()
    assert "\n" not in text
    assert e.value.path is not None
    assert not (tmp_path / "out" / "scores.jsonl").exists()
