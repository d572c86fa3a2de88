"""RESULTS.md (utils/summarize_scores.sh) and run.sh's closing hint (issue 21): tables in the
benchmark order zrc2020, zr2015/zr2017, std, quesst, resources, segmentation; intervals shown
when scores.json has them; a system dir that cannot be read is named in a warning line, not
silently left out; the hint prints the headline lines only."""
from __future__ import annotations

import os
import re
import subprocess

import pytest

from termeval.results import summary as summarize_scores
from termeval.core.scores import Metric, write_scores


def scored_tree(exp):
    write_scores(str(exp / "seg"), "segmentation", [Metric("word_boundary_fscore", 0.5)], benchmark="segmentation")
    write_scores(str(exp / "kws"), "std", [Metric("atwv", 0.25, ci={"lo": 0.125, "hi": 0.375, "level": 0.95}),
                                           Metric("mtwv", 0.5)], benchmark="sws2013")
    write_scores(str(exp / "kws"), "std_operating", [Metric("map", 0.75)], benchmark=None)
    write_scores(str(exp / "q"), "quesst", [Metric("act_twv", 0.1)], benchmark="quesst")
    write_scores(str(exp / "q"), "resources", [Metric("isf", 0.01)], benchmark="sws2013")
    write_scores(str(exp / "z17"), "matching", [Metric("cross_ned", 0.3)], benchmark="zr2017")
    write_scores(str(exp / "tde"), "matching", [Metric("ned", 0.2, "", {"lo": 0.1875, "hi": 0.21875}),
                                                Metric("coverage", 0.5)], benchmark="zrc2020")
    write_scores(str(exp / "z15"), "matching", [Metric("cross_ned", 0.4)], benchmark="zr2015")
    write_scores(str(exp / "other"), "mystage", [Metric("x", 1.5)], benchmark="mybench")


def test_tables_in_benchmark_order_with_intervals(tmp_path):
    exp = tmp_path / "exp"
    scored_tree(exp)
    text = summarize_scores.summarize([str(exp)])
    titles = re.findall(r"^## (.*)$", text, re.M)
    assert titles == ["zrc2020", "zr2015", "zr2017", "std (sws2013)", "std_operating (sws2013)", "quesst",
                      "resources (sws2013)", "segmentation", "mystage (mybench)"]
    assert "|tde|-|0.2000 [0.1875, 0.2188]|0.5000|" in text           # data: '-', not known (no data_id)
    assert "|kws|-|0.2500 [0.1250, 0.3750]|0.5000|" in text          # atwv with its interval, mtwv without


def test_unreadable_system_dirs_are_named_in_a_warning(tmp_path, capsys, monkeypatch):
    exp = tmp_path / "exp"
    scored_tree(exp)
    (exp / "nostage" / "scores").mkdir(parents=True)
    (exp / "nostage" / "scores" / "scores.json").write_text('{"ned": 0.1}')
    (exp / "locked" / "sys" / "scores").mkdir(parents=True)
    real_scandir = os.scandir

    def scandir(path="."):      # a directory we may not list (tests run as root: chmod cannot)
        if os.path.basename(os.fspath(path)) == "locked":
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)
    monkeypatch.setattr(os, "scandir", scandir)
    text = summarize_scores.summarize([str(exp)])
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"summarize_scores: warning: {exp}/locked: cannot read this directory (Permission denied); "
        "any system below it is left out",
        f"summarize_scores: warning: {exp}/nostage/scores/scores.json: no scored stage in it (not written "
        "by a termeval scoring step?); nostage is left out",
    ]
    assert "|tde|-|" in text


@pytest.mark.parametrize("content,message", [
    ('{"ned": 0.1, "stag', "not valid JSON (JSONDecodeError: Unterminated string starting at: line 1 column 14 (char 13))"),
    ('[1]', "not a JSON object"),
])
def test_corrupt_scores_json_is_an_error_and_writes_nothing(tmp_path, root, content, message):
    """issue 31: a truncated scores.json, or one holding a list, fails the step with one line
    naming the file; RESULTS.md is not written."""
    exp = tmp_path / "exp"
    scored_tree(exp)
    (exp / "broken" / "scores").mkdir(parents=True)
    (exp / "broken" / "scores" / "scores.json").write_text(content)
    r = subprocess.run([f"{root}/utils/summarize_scores.sh", "exp"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.splitlines() == [f"summarize_scores.py: error: exp/broken/scores/scores.json: {message}"]
    assert not (tmp_path / "RESULTS.md").exists()


def test_seed_mode_tables_show_the_headline_metrics(tmp_path):
    """zr2015-doc / lrec2014 tables show ned, coverage, token and boundary F (were grouping and _std only)."""
    exp = tmp_path / "exp"
    for mode in ("zr2015-doc", "lrec2014"):
        write_scores(str(exp / mode), "matching", [Metric("ned", 0.25), Metric("ned_std", 0.01), Metric("coverage", 0.5),
                                                  Metric("matching_fscore", 0.1)], benchmark=mode)
        write_scores(str(exp / mode), "clustering", [Metric("grouping_precision", 0.2), Metric("grouping_precision_std", 0.1),
                                                    Metric("grouping_fscore", 0.3), Metric("type_fscore", 0.4)], benchmark=mode)
        write_scores(str(exp / mode), "parsing", [Metric("token_fscore", 0.125), Metric("boundary_fscore", 0.75)],
                     benchmark=mode)
    text = summarize_scores.summarize([str(exp)])
    for mode in ("zr2015-doc", "lrec2014"):
        table = text.split(f"## {mode}\n", 1)[1].split("\n\n", 1)[0].splitlines()
        assert table[1] == ("|system|data|ned|coverage|grouping_fscore|type_fscore|token_fscore|boundary_fscore|"
                            "matching_fscore|grouping_precision|ned_std|")
        assert table[3] == f"|{mode}|-|0.2500|0.5000|0.3000|0.4000|0.1250|0.7500|0.1000|0.2000|0.0100|"


def test_run_sh_closing_hint_prints_headline_lines_only(root, tmp_path):
    exp = tmp_path / "exp"
    scored_tree(exp)
    write_scores(str(exp / "tde"), "parsing", [Metric(f"m{i}", i / 8) for i in range(40)], benchmark="zrc2020")
    r = subprocess.run(["bash", f"{root}/run.sh", "--stage", "7"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    hint = r.stderr.splitlines()[-1]
    assert "Summary: RESULTS.md; headline scores: grep " in hint
    command = hint.split("headline scores: ", 1)[1]
    out = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True).stdout
    assert sorted(out.splitlines()) == [
        "exp/kws/scores/std:atwv 0.250000 ci95 0.1250 0.3750", "exp/kws/scores/std:mtwv 0.500000",
        "exp/q/scores/quesst:act_twv 0.100000",
        "exp/seg/scores/segmentation:word_boundary_fscore 0.500000",
        "exp/tde/scores/matching:coverage 0.500000", "exp/tde/scores/matching:ned 0.200000 ci95 0.1875 0.2188",
        "exp/z15/scores/matching:cross_ned 0.400000", "exp/z17/scores/matching:cross_ned 0.300000"]


def test_an_exp_root_without_scores_is_named_in_a_warning(tmp_path, root):
    """Issue 40 item 14: a root holding no scores/scores.json is not silently an empty table."""
    (tmp_path / "exp" / "sys1" / "log").mkdir(parents=True)
    scored_tree(tmp_path / "exp2")
    r = subprocess.run([f"{root}/utils/summarize_scores.sh", "--format", "csv", "exp", "exp2"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "summarize_scores: warning: exp: no scores/scores.json below it (nothing scored there yet, " \
           "or not an exp dir): it adds no row" in r.stderr.splitlines()
    assert "exp2" not in r.stderr and r.stdout.count("\n") > 1
