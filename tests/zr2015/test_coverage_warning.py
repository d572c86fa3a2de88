"""issue 31: a coverage above 1 (zr2017's count of overlapping fragments, reproduced from the
2017 tool) is said: one `<step>: warning:` line naming the metric and the reason, kept under
scores.json "warnings"."""
from __future__ import annotations

import json
import os
import subprocess

from termeval.tde.shared import coverage_warnings


def test_helper_names_every_coverage_above_one():
    assert coverage_warnings({"cross_coverage": 0.9, "ned": 1.5, "coverage_std": 2.0}) == []
    [w] = coverage_warnings({"cross_coverage": 1.178331, "cross_coverage_nfolds": 3, "within_coverage": 1.0})
    assert w.startswith("cross_coverage 1.178331 > 1: the phones of overlapping discovered fragments are "
                        "counted once per fragment")
    assert "as the original tool does" in w


def test_zr2017_kamper_mandarin_cross_coverage_warned(shared, root, tmp_path):
    d17 = os.path.join(shared, "data")
    data = str(tmp_path / "data")
    subprocess.run([f"{root}/steps/prepare_gold.sh", "--format", "zr", "--fill-gaps", "false", "--sort", "true",
                    f"{d17}/zr17_tde17/mandarin.phn", f"{d17}/zr17_tde17/mandarin.wrd", data],
                   check=True, capture_output=True)
    exp = tmp_path / "exp"
    r = subprocess.run([f"{root}/steps/score_tde.sh", "--benchmark", "zr2017", "--folds", "none", "--measures",
                        "coverage", data, f"{d17}/zr17/kamper_mandarin.class", str(exp)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "matching: cross_coverage 1.178331 [ 1/1 folds ]" in r.stdout
    warned = [l for l in r.stderr.splitlines() if ": warning: cross_coverage 1.178331" in l]
    assert len(warned) == 1 and "overlapping discovered fragments" in warned[0]
    s = json.load(open(exp / "scores" / "scores.json"))
    assert any(w.startswith("cross_coverage 1.178331") for w in s["warnings"]["matching"])
