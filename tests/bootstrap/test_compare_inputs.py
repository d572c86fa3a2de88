"""steps/compare_systems.sh inputs and outputs (issue 21): a truncated or altered scores.json or
units file of a system is one line naming the file, an output dir that is one of the systems is
refused, a plot that cannot be written (full disk) is one line naming the plot file with
nothing half-written, and the forest plot draws the paired differences it reports."""
from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest

from termeval.bin import compare_systems
from termeval.bootstrap.compare import check_out_dir, load_system
from termeval.bootstrap.engine import UnitStats
from termeval.bootstrap.forest import forest_rows, p_text
from termeval.bootstrap.units import load_units, save_units, units_path
from termeval.run.cli import run
from termeval.core.errors import InputError

METRICS = {"recall": ("ratio", "hit", "ref")}


def make_system(d, hits, data_id="d1"):
    """A scored system: units/units.std_term.npz (terms t0..t4) and its scores.json."""
    ref = np.array([4.0, 2, 3, 1, 5])
    X = np.c_[np.asarray(hits, float), ref]
    us = UnitStats("term", [f"t{i}" for i in range(5)], ["hit", "ref"], X, dict(METRICS),
                   {"recall": float(X[:, 0].sum() / ref.sum())})
    save_units(units_path(str(d), "std_term"), us)
    (d / "scores").mkdir(parents=True, exist_ok=True)
    (d / "scores" / "scores.json").write_text(json.dumps(
        {"benchmark": "sws2013", "data_id": data_id, "data_ids": {"sws2013": data_id}, "recall": us.exact["recall"]}))
    return d


@pytest.fixture
def systems(tmp_path):
    return make_system(tmp_path / "a", [4, 1, 2, 0, 3]), make_system(tmp_path / "b", [4, 2, 3, 1, 4])


def one_line_error(capsys, argv) -> str:
    with pytest.raises(SystemExit) as e:
        run(compare_systems.main, argv)
    assert e.value.code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "internal error" not in err[0] and "Traceback" not in err[0]
    return err[0].split(": error: ", 1)[1]


def test_the_paired_comparison_and_its_forest_rows(systems, tmp_path, capsys):
    a, b = systems
    run_ok = pytest.raises(SystemExit)
    with run_ok as e:
        run(compare_systems.main, ["--bootstrap", "300", str(a), str(b), str(tmp_path / "cmp")])
    assert e.value.code == 0
    res = json.loads((tmp_path / "cmp/scores/compare.json").read_text())
    d = res["diffs"]["b"]["recall"]
    assert d["diff"] == pytest.approx(14 / 15 - 10 / 15) and d["lo"] <= d["diff"] <= d["hi"]
    # the plot draws exactly these differences and intervals (not each system's own interval)
    rows = forest_rows(res, ("atwv", "recall"))
    assert rows == [("recall", [("b", d["diff"], d["lo"], d["hi"], p_text(d, "{:.3g}"))])]
    assert (tmp_path / "cmp/forest.png").stat().st_size > 1000 and (tmp_path / "cmp/forest.pdf").is_file()


@pytest.mark.parametrize("cut", [0, 1, 40, -1])
def test_truncated_scores_json_is_one_line(systems, tmp_path, capsys, cut):
    a, b = systems
    p = b / "scores/scores.json"
    p.write_bytes(p.read_bytes()[:cut])
    msg = one_line_error(capsys, [str(a), str(b), str(tmp_path / "cmp")])
    assert msg.startswith(f"{p}: not valid JSON (JSONDecodeError: ")
    assert msg.endswith("; re-score this system")
    assert not (tmp_path / "cmp").exists()


@pytest.mark.parametrize("text,message", [
    ("[1, 2]", "not a termeval scores.json (no JSON object)"),
    ('{"data_id": 5}', "data_id/data_ids are not identity strings"),
    ('{"data_id": "x", "data_ids": [1]}', "data_id/data_ids are not identity strings"),
    ("\udcff".encode("utf-8", "surrogateescape").decode("latin-1"), "not valid JSON"),
])
def test_scores_json_that_is_not_a_termeval_one(systems, tmp_path, capsys, text, message):
    a, b = systems
    (b / "scores/scores.json").write_text(text, encoding="latin-1")
    assert message in one_line_error(capsys, [str(a), str(b), str(tmp_path / "cmp")])


@pytest.mark.parametrize("cut", [0, 10, 100, 400, -20])
def test_truncated_units_file_is_one_line(systems, tmp_path, capsys, cut):
    a, b = systems
    p = units_path(str(b), "std_term")
    with open(p, "rb") as f:
        raw = f.read()
    with open(p, "wb") as f:
        f.write(raw[:cut])
    msg = one_line_error(capsys, [str(a), str(b), str(tmp_path / "cmp")])
    assert msg.startswith(f"{p}: unreadable per-unit statistics (")
    assert msg.endswith("); re-score this system")


def _resave(path, **change):
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    arrays.update(change)
    with open(path, "wb") as f:
        np.savez(f, **arrays)


@pytest.mark.parametrize("change,reason", [
    ({"X": np.zeros((5, 3))}, "ValueError: the statistics are not a 5 x 2 table of numbers"),
    ({"X": np.full((5, 2), np.nan)}, "ValueError: non-finite statistics or beyond 9007199254740992"),
    ({"X": np.full((5, 2), 1e300)}, "ValueError: non-finite statistics or beyond 9007199254740992"),
    ({"ids": np.asarray(["t0", "t0", "t1", "t2", "t3"])}, "ValueError: the unit ids are not distinct names"),
    ({"meta": np.asarray(json.dumps({"unit": "term", "columns": ["hit", "ref"], "exact": {},
                                     "metrics": {"recall": ["ratio", "hit", "nope"]}}))},
     "ValueError: 'nope' is not in list"),
    ({"meta": np.asarray("[]")}, "ValueError: no unit in the metadata"),
])
def test_altered_units_file_is_one_line(systems, tmp_path, capsys, change, reason):
    a, b = systems
    p = units_path(str(b), "std_term")
    _resave(p, **change)
    with pytest.raises(InputError) as e:
        load_units(p)
    assert e.value.format() == f"{p}: unreadable per-unit statistics ({reason}); re-score this system"
    assert reason in one_line_error(capsys, [str(a), str(b), str(tmp_path / "cmp")])


def test_output_dir_that_is_a_system_is_refused(systems, tmp_path, capsys):
    a, b = systems
    before = (b / "scores/scores.json").read_bytes()
    msg = one_line_error(capsys, [str(a), str(b), str(b)])             # the example
    assert msg == f"{b}: the output dir is the system {b}: its scores/ would be overwritten; give a new directory, e.g. exp/compare"
    assert (b / "scores/scores.json").read_bytes() == before and not (b / "scores/compare").exists()
    # the same dir by another path (a symlink, a trailing slash, ..)
    os.symlink(a, tmp_path / "link")
    with pytest.raises(InputError, match="the output dir is the system"):
        check_out_dir([str(a), str(b)], str(tmp_path / "link") + "/")
    with pytest.raises(InputError, match="the output dir is the system"):
        check_out_dir([str(a), str(b)], str(b / ".." / "a"))
    check_out_dir([str(a), str(b)], str(tmp_path / "cmp"))


def test_compare_systems_sh_refuses_the_output_dir_before_writing(root, systems, tmp_path):
    a, b = systems
    r = subprocess.run(["bash", f"{root}/steps/compare_systems.sh", "--bootstrap", "50", str(a), str(b), str(a)],
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1].startswith(f"compare_systems.py: error: {a}: the output dir is the system")
    assert sorted(os.listdir(a / "scores")) == ["scores.json"]


# ----------------------------------------------------------- a plot that cannot be written

@pytest.mark.parametrize("fail_on,exc", [
    ("png", OSError(28, "No space left on device")),
    ("pdf", OSError(28, "No space left on device")),
    ("png", AttributeError("'NoneType' object has no attribute 'write'")),  # matplotlib on ENOSPC
])
def test_full_disk_during_the_forest_plot(systems, tmp_path, capsys, monkeypatch, fail_on, exc):
    import matplotlib.figure
    a, b = systems
    out = tmp_path / "cmp"
    out.mkdir()
    (out / "forest.png").write_bytes(b"previous png")
    (out / "forest.pdf").write_bytes(b"previous pdf")
    real = matplotlib.figure.Figure.savefig

    def savefig(self, f, format=None, **kw):
        if format == fail_on:
            f.write(b"half a plot")
            raise exc
        return real(self, f, format=format, **kw)
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", savefig)
    msg = one_line_error(capsys, ["--bootstrap", "50", str(a), str(b), str(out)])
    assert msg == (f"{out}/forest.{fail_on}: cannot write this plot ({type(exc).__name__}: {exc}); "
                   "is the disk full?")
    # neither format replaced, no temporary file left
    assert (out / "forest.png").read_bytes() == b"previous png"
    assert (out / "forest.pdf").read_bytes() == b"previous pdf"
    assert sorted(os.listdir(out)) == ["RESULTS.compare.md", "forest.pdf", "forest.png", "report.html", "scores"]


def test_full_disk_during_the_det_plot(tmp_path, monkeypatch):
    import matplotlib.figure
    from termeval.std import det
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig",
                        lambda self, f, **kw: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    with pytest.raises(InputError) as e:
        det.plot_twv(str(tmp_path / "twv"), np.array([1.0, 0.5]), np.array([0.2, 0.4]), (1.0, 0.2), (0.5, 0.4))
    assert e.value.format() == (f"{tmp_path}/twv.png: cannot write this plot (OSError: [Errno 28] No space "
                                "left on device); is the disk full?")
    assert os.listdir(tmp_path) == []


def test_p_without_a_replicate_crossing_zero_is_printed_as_its_bound(systems, tmp_path, capsys):
    """Issue 40 item 19: b hits at least what a hits on every term, so no replicate of the
    difference reaches 0: p is the bound 2/N (`< 0.00667` for N = 300) on stdout, in
    scores/compare, RESULTS.compare.md and the forest plot; compare.json keeps the number and
    says it is a bound."""
    a, b = systems
    with pytest.raises(SystemExit) as e:
        run(compare_systems.main, ["--bootstrap", "300", str(a), str(b), str(tmp_path / "cmp")])
    assert e.value.code == 0
    out = capsys.readouterr().out
    res = json.loads((tmp_path / "cmp/scores/compare.json").read_text())
    d = res["diffs"]["b"]["recall"]
    assert d["p"] == 2 / 300 and d["p_upper_bound"] is True
    line = (tmp_path / "cmp/scores/compare").read_text().splitlines()[0]
    assert " p <0.006667 [ bootstrap over 5 terms" in line and line in out
    assert "| recall | " in (tmp_path / "cmp/RESULTS.compare.md").read_text()
    assert "] < 0.00667 |" in (tmp_path / "cmp/RESULTS.compare.md").read_text()
    assert forest_rows(res, ("recall",))[0][1][0][4] == "< 0.00667"
    assert " p 0 " not in out and "] 0 |" not in (tmp_path / "cmp/RESULTS.compare.md").read_text()
