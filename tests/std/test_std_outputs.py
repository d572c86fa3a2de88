"""Outputs a STD run owns (termeval.run.driver: scores, details, units, plots, alignment.csv) are
replaced whole by a successful run and left as they were by a failed one; the files of other
stages sharing the exp dir (QUESST) are kept; without an exp dir nothing is written."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from termeval.run import driver as jobs
from termeval.bin import score_quesst, score_std
from termeval.core.errors import InputError


@pytest.fixture(scope="module")
def example(root, tmp_path_factory):
    d = tmp_path_factory.mktemp("ex")
    subprocess.run([sys.executable, "local/make_example_std.py", str(d)], cwd=root, check=True, capture_output=True)
    return d


def run(module, exp, *opts, example):
    from termeval.run.cli import options_of
    parser = module.get_parser()
    args = options_of(parser, parser.parse_args([*opts, str(example / "kws"), str(example / "detections.stdlist.xml"),
                                                 str(exp) if exp else "unused"]))
    return jobs.run(module.stage_of(args), args, None if exp is None else str(exp), echo=False)


def snapshot(d) -> dict[str, bytes]:
    return {os.path.relpath(os.path.join(r, f), d): open(os.path.join(r, f), "rb").read()
            for r, _, fs in os.walk(d) for f in fs}


def test_failed_run_leaves_the_previous_outputs(example, tmp_path, monkeypatch):
    exp = tmp_path / "exp"
    run(score_std, exp, example=example)
    before = snapshot(exp)
    assert {"details/alignment.csv", "details/det.png", "details/per_term.tsv", "scores/std",
            "units/units.std_term.npz"} <= set(before)
    def disk_full(*a, **k):
        raise InputError("No space left on device (simulated)")
    monkeypatch.setattr("termeval.std.figures.write_ranking_table", disk_full)
    with pytest.raises(InputError, match="No space"):
        run(score_std, exp, "--preset", "nist2006", "--breakdown", "none", example=example)
    assert snapshot(exp) == before          # every owned file as it was, no temporary left
    assert [p for p in os.listdir(exp) if p.startswith(".")] == []


def test_rerun_with_other_options_leaves_no_stale_file_and_keeps_quesst(example, tmp_path):
    exp = tmp_path / "exp"
    run(score_std, exp, "--breakdown", "attr:NGram,ngram,freq", example=example)
    run(score_quesst, exp, "--default-score", "-10", example=example)
    both = snapshot(exp)
    quesst = {k: v for k, v in both.items() if "quesst" in k}
    assert "details/quesst/score.out" in quesst and "scores/quesst" in quesst
    result = run(score_std, exp, "--plots", "false", "--write-alignment", "false", "--breakdown", "none",
                 example=example)
    after = snapshot(exp)
    details = sorted(k for k in after if k.startswith("details/") and "quesst" not in k)
    assert details == ["details/det_points.tsv", "details/per_term.tsv", "details/ranking_per_term.tsv",
                       "details/report.txt"]
    assert {k: v for k, v in after.items() if "quesst" in k} == quesst
    s = json.loads(after["scores/scores.json"])
    assert s["act_twv"] == json.loads(both["scores/scores.json"])["act_twv"]   # QUESST's metrics merged, kept
    assert set(s["breakdowns"]) == {"std", "quesst"} and s["breakdowns"]["std"] == {}
    assert result["atwv"] == s["atwv"] and result["n_terms"] == 7


def test_no_exp_dir_writes_nothing(example, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(score_std, None, example=example)
    assert result["n_terms"] == 7 and 0 < result["atwv"] < 1
    assert os.listdir(tmp_path) == []


def test_a_list_without_detections_is_valid_with_a_warning_and_no_library_warning(example, tmp_path, root):
    """Issue 40 item 13: a well-formed list with no detections scores (ATWV 0) with a warning
    naming it; the plots with nothing to draw are skipped with a note, and no library warning
    (matplotlib's empty legend) reaches the user."""
    empty = tmp_path / "none.kwslist.xml"
    empty.write_text('<kwslist kwlist_filename="k" language="english" system_id="s">\n</kwslist>\n')
    r = subprocess.run([f"{root}/steps/score_std.sh", str(example / "kws"), str(empty), str(tmp_path / "exp")],
                       capture_output=True, text=True, env={**os.environ, "PYTHONWARNINGS": "default"})
    assert r.returncode == 0, r.stderr
    err = r.stderr.splitlines()[1:]     # after the step's own command line
    assert f"score_std.py: warning: {empty}: no detections in it: every reference occurrence is a miss" in err
    assert "score_std.py: note: det and twv plots skipped: no detections, no curve to draw" in err
    assert all(line.startswith("score_std.py: ") for line in err), r.stderr
    scores = json.loads((tmp_path / "exp" / "scores" / "scores.json").read_text())
    assert scores["atwv"] == 0 and any("no detections in it" in w for w in scores["warnings"]["std"])
    assert not (tmp_path / "exp" / "details" / "det.png").exists()
