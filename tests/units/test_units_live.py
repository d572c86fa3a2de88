"""The reference tools run live on the generated cases (skipped without them): discophon 0.2.0
($DISCOPHON_PYTHON, or $DISCOPHON_DIR/bin/python of a venv with discophon==0.2.0) and fairseq's
measure_teacher_quality.py ($FAIRSEQ_DIR, run by $FAIRSEQ_PYTHON, default python3, with numpy
and tabulate). Their outputs must equal the recorded fixtures (which the other tests compare
termeval with): a changed tool or generator is caught here."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import units_cases as cases

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HARNESS = os.path.join(ROOT, "local", "units_reference")
FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")


def _python(var: str, fallback: str | None) -> str | None:
    py = os.environ.get(var) or fallback
    return py if py and os.path.exists(py) or py == "python3" else None


def _lay_out(tmp_path, names, make) -> list[str]:
    dirs = []
    for name in names:
        files, opts = make(name)
        cases.write(files, str(tmp_path / name))
        (tmp_path / name / "options.json").write_text(json.dumps(opts))
        dirs.append(str(tmp_path / name))
    return dirs


def test_discophon_live(tmp_path):
    d = os.environ.get("DISCOPHON_DIR")
    py = _python("DISCOPHON_PYTHON", os.path.join(d, "bin", "python") if d else None)
    if py is None:
        pytest.skip("set DISCOPHON_PYTHON or DISCOPHON_DIR (a venv with discophon==0.2.0) to run discophon")
    names = list(cases.DISCOPHON) + list(cases.DISCOPHON_ERRORS)
    dirs = _lay_out(tmp_path, names, cases.discophon_case)
    subprocess.run([py, os.path.join(HARNESS, "discophon_run.py"), str(tmp_path / "r.json"), *dirs], check=True)
    got = json.loads((tmp_path / "r.json").read_text())["cases"]
    want = json.load(open(os.path.join(FIXTURES, "discophon.json"), encoding="utf-8"))["cases"]
    for name in names:
        assert ("error" in got[name]) == ("error" in want[name]), name
        if "scores_jsonl" in want[name]:
            assert got[name]["scores_jsonl"] == want[name]["scores_jsonl"], name


def test_fairseq_live(tmp_path):
    fdir = os.environ.get("FAIRSEQ_DIR")
    if not fdir or not os.path.isfile(os.path.join(fdir, "examples", "hubert", "measure_teacher_quality.py")):
        pytest.skip("set FAIRSEQ_DIR (a fairseq checkout) to run measure_teacher_quality.py")
    py = _python("FAIRSEQ_PYTHON", "python3")
    if subprocess.run([py, "-c", "import numpy, tabulate"], capture_output=True).returncode:
        pytest.skip(f"{py} lacks numpy or tabulate (set FAIRSEQ_PYTHON)")
    names = list(cases.FAIRSEQ)
    dirs = _lay_out(tmp_path, names, cases.fairseq_case)
    subprocess.run([py, os.path.join(HARNESS, "fairseq_run.py"), fdir, str(tmp_path / "r.json"), *dirs], check=True)
    got = json.loads((tmp_path / "r.json").read_text())["cases"]
    want = json.load(open(os.path.join(FIXTURES, "fairseq.json"), encoding="utf-8"))["cases"]
    for name in names:
        assert got[name]["values"] == want[name]["values"] and got[name]["table"] == want[name]["table"], name
