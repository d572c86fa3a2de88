"""STD/QUESST options refused with one line naming the option, before any job starts (issue 21):
--fa-per-hour inf, --p-at 2.5, --recall beyond [0, 1], --preset sws2014 (parsed by the shell step,
termeval.run.cli PARSE_ONLY), --term-attr / --breakdown attr:NAME naming an attribute no term has or
a regex that selects no term (once the term list is read); the merely implausible (--tolerance
20 s) is a warning line kept in scores.json "warnings"."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from termeval.core.options import number_list
from termeval.core.errors import InputError
from termeval.core.scores import Metric, write_scores
from termeval.std import breakdown
from termeval.std.score import Params, option_warnings
from termeval.core.options import OptionError
from termeval.std.options import term_attr_spec
from termeval.std.termlist import TermList


@pytest.fixture(scope="module")
def example(root, tmp_path_factory):
    d = tmp_path_factory.mktemp("std") / "ex"
    subprocess.run([sys.executable, "local/make_example_std.py", str(d)], cwd=root, check=True,
                   capture_output=True)
    return d


def step(root, cwd, *args, name="score_std.sh"):
    return subprocess.run(["bash", f"{root}/steps/{name}", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300)


def errors(r) -> list[str]:
    return [l for l in r.stderr.splitlines() if ": error: " in l]


# ------------------------------------------------------------------ comma lists of numbers

def test_number_lists_refuse_non_finite_fractional_and_out_of_range_values():
    fa, rec, rank = number_list(0.0), number_list(0.0, 1.0), number_list(1, integer=True)
    for check, value in ((fa, "1,10"), (fa, "0, 2.5"), (fa, ""), (rec, "0.5,1"), (rank, "10, 100")):
        check(value)                     # accepted
    for check, value, message in (
            (fa, "inf", "expected a comma list of finite numbers, got 'inf'"),       # the issue's
            (fa, "1,nan", "expected a comma list of finite numbers, got 'nan'"),
            (fa, "-1", "every value must be >= 0, got '-1'"),
            (fa, "1,,2", "expected a comma list without empty items, got '1,,2'"),
            (rank, "2.5", "expected a comma list of whole numbers, got '2.5'"),      # the issue's
            (rank, "10,0", "every value must be >= 1, got '0'"),
            (rec, "1.5", "every value must be in [0, 1], got '1.5'")):
        with pytest.raises(OptionError) as e:
            check(value)
        assert str(e.value) == message


@pytest.mark.parametrize("args,message", [
    (["--fa-per-hour", "inf"], "--fa-per-hour: expected a comma list of finite numbers, got 'inf'"),
    (["--p-at", "2.5"], "--p-at: expected a comma list of whole numbers, got '2.5'"),
    (["--recall", "0.5,2"], "--recall: every value must be in [0, 1], got '2'"),
    (["--preset", "sws2014"],
     "--preset: invalid choice: 'sws2014' (choose from 'sws2013', 'nist2006', 'sws2012', 'quesst')"),
    (["--term-attr", "NGram"], "--term-attr: expected NAME:REGEX, got 'NGram'"),
])
def test_score_std_sh_refuses_before_any_job(root, example, tmp_path, args, message):
    # --nj 2 with a launcher that would record any job: nothing is launched, no log is written
    r = step(root, tmp_path, "--nj", "2", "--cmd", "false", *args, f"{example}/kws",
             f"{example}/detections.stdlist.xml", "exp/x")
    assert r.returncode == 1
    assert errors(r) == [f"score_std.sh: error: {message}"]
    log = tmp_path / "exp/x/log"
    assert not log.exists() or list(log.iterdir()) == []


def test_score_quesst_sh_refuses_a_fractional_rank_before_any_job(root, example, tmp_path):
    r = step(root, tmp_path, "--nj", "2", "--cmd", "false", "--p-at", "2.5", f"{example}/kws",
             f"{example}/detections.stdlist.xml", "exp/q", name="score_quesst.sh")
    assert errors(r) == ["score_quesst.sh: error: --p-at: expected a comma list of whole numbers, got '2.5'"]
    assert not (tmp_path / "exp").exists()              # refused before anything is made


# ---------------------------------------------- attributes that select nothing are refused

TERMS = TermList(["a", "b", "c"], ["x", "y", "z"], [{"NGram": "1"}, {"NGram": "2"}, {}], path="t.xml")


def test_term_attr_selection_must_select_something():
    assert TERMS.select("NGram", "1|2") == [0, 1] and TERMS.select("NGram", "2") == [1]
    with pytest.raises(InputError) as e:
        TERMS.select("Characters", ".*")
    assert e.value.format() == "t.xml: --term-attr: no term has the attribute 'Characters' (attributes: NGram)"
    with pytest.raises(InputError) as e:
        TERMS.select("NGram", "3")
    assert e.value.format() == "t.xml: --term-attr: '3' matches the attribute 'NGram' of no term (its values: 1, 2)"
    bare = TermList(["a"], ["x"], [{}], path="keywords.txt")
    with pytest.raises(InputError, match="keywords.txt: --term-attr: no term has the attribute 'NGram' "
                                         r"\(the term list has no attributes\)"):
        bare.select("NGram", "1")
    assert term_attr_spec("NGram:regex=^1$") is None
    with pytest.raises(OptionError, match="^invalid regular expression"):
        term_attr_spec("NGram:(")


def test_breakdown_attr_must_name_an_attribute_some_term_has():
    breakdown.check_attributes(["ngram", "attr:NGram"], TERMS.attrs, "t.xml")
    with pytest.raises(InputError) as e:
        breakdown.check_attributes(["ngram", "attr:Lang"], TERMS.attrs, "t.xml")
    assert e.value.format() == "t.xml: --breakdown attr:Lang: no term has the attribute 'Lang' (attributes: NGram)"


@pytest.mark.parametrize("args,message", [
    (["--breakdown", "attr:NAME"], "--breakdown attr:NAME: no term has the attribute 'NAME' (attributes: NGram)"),
    (["--term-attr", "NAME:1"], "--term-attr: no term has the attribute 'NAME' (attributes: NGram)"),
    (["--term-attr", "NGram:9"], "--term-attr: '9' matches the attribute 'NGram' of no term (its values: 1, 2)"),
])
def test_score_std_sh_attribute_errors_are_one_line_naming_the_term_list(root, example, tmp_path, args, message):
    r = step(root, tmp_path, *args, f"{example}/kws", f"{example}/detections.stdlist.xml", "exp/x")
    assert r.returncode == 1
    assert len(errors(r)) == 1
    assert f"score_std.py: error: {example}/kws/tlist.xml: {message}" in errors(r)[0]
    assert not (tmp_path / "exp/x/scores").exists()


# ------------------------------------------------ implausible: a warning, kept in scores.json

def test_implausible_tolerance_warns():
    assert option_warnings(Params(tolerance=0.5)) == [] and option_warnings(Params(tolerance=5.0)) == []
    (w,) = option_warnings(Params(tolerance=500))
    assert w.startswith("--tolerance 500 s is implausible (F4DE's default is 0.5 s; milliseconds meant?)")


def test_tolerance_20_is_a_warning_on_stderr_and_in_scores_json(root, example, tmp_path):
    r = step(root, tmp_path, "--tolerance", "20", "--plots", "false", f"{example}/kws",
             f"{example}/detections.stdlist.xml", "exp/x")
    assert r.returncode == 0, r.stderr
    warned = [l for l in r.stderr.splitlines() if "--tolerance 20 s is implausible" in l]
    assert len(warned) == 1 and warned[0].startswith("score_std.py: warning: ")
    data = json.loads((tmp_path / "exp/x/scores/scores.json").read_text())
    assert [w for w in data["warnings"]["std"] if w.startswith("--tolerance 20 s")] == [warned[0].split("warning: ", 1)[1]]
    # a re-run with a plausible tolerance keeps no stale warning
    r = step(root, tmp_path, "--plots", "false", f"{example}/kws", f"{example}/detections.stdlist.xml", "exp/x")
    data = json.loads((tmp_path / "exp/x/scores/scores.json").read_text())
    assert not any("--tolerance" in w for w in data.get("warnings", {}).get("std", []))


def test_write_scores_keeps_warnings_per_stage(tmp_path):
    write_scores(str(tmp_path), "a", [Metric("x", 1)], "b", warnings=["w1"])
    write_scores(str(tmp_path), "c", [Metric("y", 2)], "b", warnings=["w2", "w3"])
    data = json.loads((tmp_path / "scores/scores.json").read_text())
    assert data["warnings"] == {"a": ["w1"], "c": ["w2", "w3"]}
    write_scores(str(tmp_path), "a", [Metric("x", 1)], "b")
    write_scores(str(tmp_path), "c", [Metric("y", 2)], "b", warnings=[])
    assert "warnings" not in json.loads((tmp_path / "scores/scores.json").read_text())
