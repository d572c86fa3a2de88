"""The API functions of the steps that are not scorers: prepare_classes, validate_alignment_dir,
export_zr, measure_resources and summarize_scores equal their commands (files and results),
list their options, build their Options directly (a bad value is the step's line as an
InputError, a wrong Python type a TypeError naming the argument)."""
from __future__ import annotations

import inspect
import os
import re
import sys

import pytest

import termeval
from termeval import api
from termeval import command

STEPS = ("prepare_classes", "validate_alignment_dir", "export_zr", "measure_resources", "summarize_scores")


def files(d) -> dict:
    return {os.path.relpath(os.path.join(r, f), d): open(os.path.join(r, f), "rb").read()
            for r, _, fs in os.walk(d) for f in fs}


def without_dates(content: bytes) -> bytes:
    return re.sub(rb'"date": "[^"]*"|"command": "[^"]*"', b"", content)


@pytest.mark.parametrize("name", STEPS)
def test_exported_with_their_options(name):
    assert name in termeval.__all__ and name in api.__all__ and getattr(termeval, name) is getattr(api, name)
    assert "Options:" in getattr(termeval, name).__doc__


def test_signatures_list_the_options():
    sig = lambda f: set(inspect.signature(f).parameters)  # noqa: E731
    assert {"lenient", "format", "tolerance", "end_tolerance", "pairs_clustering"} <= sig(termeval.prepare_classes)
    assert {"boundary_tolerance", "sil_label"} <= sig(termeval.validate_alignment_dir)
    assert {"drop_sil", "sil_label"} <= sig(termeval.export_zr)
    assert {"interval", "append", "wait_orphans"} <= sig(termeval.measure_resources)
    assert sig(termeval.summarize_scores) == {"exp_roots", "out", "format", "percent", "digits", "metrics",
                                              "bold_best"}    # --exp-root is hidden


def test_prepare_classes_equals_the_command(example, tmp_path, capsys):
    data = os.path.join(example, "data/example")
    cls = os.path.join(example, "data/local/example/classes/example.classes")
    assert command.main(["prepare-classes", "--lenient", "true", data, cls, str(tmp_path / "cmd")]) == 0
    got = termeval.prepare_classes(data, cls, tmp_path / "api", lenient=True)
    a, b = files(tmp_path / "cmd"), files(tmp_path / "api")
    assert sorted(a) == sorted(b) and sorted(a) != []
    for name in a:
        assert without_dates(a[name]) == without_dates(b[name]), name
    assert got["classes_dir"] == os.path.join(tmp_path / "api", "classes")
    assert got["classes_written"] > 0 and got["fragments_written"] > 0
    with pytest.raises(termeval.InputError, match=r"^tolerance: must be >= 0, got '-1.0'$"):
        termeval.prepare_classes(data, cls, tmp_path / "x", tolerance=-1)
    with pytest.raises(termeval.InputError, match=r"^format: invalid choice"):
        termeval.prepare_classes(data, cls, tmp_path / "x", format="xml")
    with pytest.raises(TypeError, match="lenient"):
        termeval.prepare_classes(data, cls, tmp_path / "x", lenient="yes")
    with pytest.raises(TypeError, match="class_file"):
        termeval.prepare_classes(data, None, tmp_path / "x")
    with pytest.raises(termeval.InputError, match="no such class file"):
        termeval.prepare_classes(data, tmp_path / "none.class", tmp_path / "x")
    assert not (tmp_path / "x").exists()


def test_validate_alignment_dir_returns_the_findings(example, tmp_path, capsys):
    data = os.path.join(example, "data/example")
    assert command.main(["validate-alignment-dir", data]) == 0
    line = capsys.readouterr().err.strip().splitlines()[-1]
    found = termeval.validate_alignment_dir(data, boundary_tolerance=0.001)
    assert line.endswith(f"{data}: OK ({found['summary']})")
    assert found["files"] > 0 and found["phones"] > found["words"] > 0 and found["speakers"] > 0
    with pytest.raises(termeval.InputError, match="no such directory"):
        termeval.validate_alignment_dir(tmp_path / "none")
    with pytest.raises(termeval.InputError, match=r"^boundary_tolerance: must be >= 0"):
        termeval.validate_alignment_dir(data, boundary_tolerance=-0.5)
    with pytest.raises(TypeError, match="sil_label"):
        termeval.validate_alignment_dir(data, sil_label=1)
    with pytest.raises(termeval.InputError, match="unknown option 'tolerance'"):
        termeval.validate_alignment_dir(data, tolerance=1.0)


def test_export_zr_equals_the_command(example, tmp_path):
    data = os.path.join(example, "data/example")
    assert command.main(["export-zr", "--drop-sil", "true", data, str(tmp_path / "c.phn"), str(tmp_path / "c.wrd")]) == 0
    got = termeval.export_zr(data, tmp_path / "a.phn", tmp_path / "a.wrd", drop_sil=True)
    for ext in ("phn", "wrd"):
        assert (tmp_path / f"c.{ext}").read_bytes() == (tmp_path / f"a.{ext}").read_bytes()
    assert got == {"phones": len((tmp_path / "a.phn").read_text().splitlines()),
                   "words": len((tmp_path / "a.wrd").read_text().splitlines()),
                   "phn": str(tmp_path / "a.phn"), "wrd": str(tmp_path / "a.wrd")}
    with pytest.raises(TypeError, match="drop_sil"):
        termeval.export_zr(data, tmp_path / "b.phn", tmp_path / "b.wrd", drop_sil="true")
    with pytest.raises(TypeError, match="wrd"):
        termeval.export_zr(data, tmp_path / "b.phn", 3)


def test_measure_resources_writes_the_phase(tmp_path, capsys):
    code = [sys.executable, "-c", "import sys; sys.exit(3)"]
    assert command.main(["measure-resources", str(tmp_path / "c"), "search", "--", *code]) == 3
    values = termeval.measure_resources(tmp_path / "a", "search", code, interval=0.05)
    written = dict(x.split("=", 1) for x in (tmp_path / "a/resources/search").read_text().splitlines())
    cmd = dict(x.split("=", 1) for x in (tmp_path / "c/resources/search").read_text().splitlines())
    assert sorted(written) == sorted(cmd) and written["exit_status"] == cmd["exit_status"] == "3"
    assert values["exit_status"] == 3 and values["phase"] == "search" and written["runs"] == "1"
    again = termeval.measure_resources(tmp_path / "a", "search", code, append=True)
    assert again["runs"] == 2 and again["cpu_s"] >= values["cpu_s"]
    with pytest.raises(termeval.InputError, match=r"^phase: invalid choice: 'train'"):
        termeval.measure_resources(tmp_path / "a", "train", code)
    with pytest.raises(termeval.InputError, match=r"^interval: must be > 0"):
        termeval.measure_resources(tmp_path / "a", "index", code, interval=0)
    with pytest.raises(TypeError, match="command"):
        termeval.measure_resources(tmp_path / "a", "index", "true")
    with pytest.raises(termeval.InputError, match="no command"):
        termeval.measure_resources(tmp_path / "a", "index", [])
    assert not (tmp_path / "a/resources/index").exists()


def test_summarize_scores_rows_and_file_equal_the_command(example, tmp_path, capsys, monkeypatch):
    from termeval.core.scores import Metric, write_scores
    exp = tmp_path / "exp"
    write_scores(str(exp / "tde"), "matching", [Metric("ned", 0.2, "", {"lo": 0.1875, "hi": 0.21875}),
                                                Metric("coverage", 0.5)], benchmark="zrc2020")
    write_scores(str(exp / "tde2"), "matching", [Metric("coverage", 0.25)], benchmark="zrc2020")
    write_scores(str(exp / "kws"), "std", [Metric("atwv", 0.25), Metric("mtwv", 0.5)], benchmark="sws2013")
    monkeypatch.chdir(tmp_path)
    assert command.main(["summarize-scores", "--out", "cmd.md", "exp"]) == 0
    rows = termeval.summarize_scores("exp", out="api.md")
    assert (tmp_path / "cmd.md").read_bytes() == (tmp_path / "api.md").read_bytes()
    assert rows == [
        {"table": "zrc2020", "system": "tde", "ned": 0.2, "ned_ci_lo": 0.1875, "ned_ci_hi": 0.21875, "coverage": 0.5},
        {"table": "zrc2020", "system": "tde2", "ned": None, "coverage": 0.25},
        {"table": "std (sws2013)", "system": "kws", "atwv": 0.25, "mtwv": 0.5}]
    assert termeval.summarize_scores(["exp"]) == rows
    assert sorted(os.listdir(tmp_path)) == ["api.md", "cmd.md", "exp"]          # without out=: nothing written
    assert [r["system"] for r in termeval.summarize_scores([exp / "tde", exp / "kws"])] == \
        [str(exp / "tde"), str(exp / "kws")]
    (exp / "broken" / "scores").mkdir(parents=True)
    (exp / "broken" / "scores" / "scores.json").write_text("[1]")
    with pytest.raises(termeval.InputError, match=r"exp/broken/scores/scores.json: not a JSON object"):
        termeval.summarize_scores("exp", out="new.md")
    assert not (tmp_path / "new.md").exists()
    with pytest.raises(termeval.InputError, match="no such directory"):
        termeval.summarize_scores(["none"])
    with pytest.raises(TypeError, match=r"exp_roots\[1\]"):
        termeval.summarize_scores(["exp", 3])
    with pytest.raises(TypeError, match="out"):
        termeval.summarize_scores("exp", out=1)
    with pytest.raises(termeval.InputError, match="unknown option 'exp_root'"):
        termeval.summarize_scores("exp", exp_root="exp")
