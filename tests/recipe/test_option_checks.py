"""Options and arguments refused before any work, each with one error line naming the option:
--bootstrap bounded (termeval.bootstrap.MAX_RESAMPLES), a wrong argument count or an option
after the arguments (the error line first, then the usage), options checked by the shell step
before any job is queued."""
from __future__ import annotations

import argparse
import subprocess

import numpy as np
import pytest

from termeval.bootstrap import MAX_RESAMPLES
from termeval.bootstrap.engine import draw_swaps, draw_weights
from termeval.core.options import OptionError, resamples
from termeval.core.errors import InputError


def run(cwd, *args) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", *args], cwd=cwd, capture_output=True, text=True, timeout=60)


def error_lines(r: subprocess.CompletedProcess) -> list[str]:
    return [l for l in r.stderr.splitlines() if ": error: " in l]


# ------------------------------------------------------------------ --bootstrap is bounded

@pytest.mark.parametrize("step,args", [
    ("steps/score_std.sh", ["kws", "det.xml", "exp/x"]),                 # the example
    ("steps/compare_systems.sh", ["exp/a", "exp/b", "exp/cmp"]),
    ("steps/score_segmentation.sh", ["data", "seg", "exp/x"]),
    ("steps/score_tde.sh", ["data", "x.class", "exp/x"]),
    ("steps/score_quesst.sh", ["kws", "det.xml", "exp/x"]),
])
@pytest.mark.parametrize("value", ["1000000000", "100001", "99999999999999999999999"])
def test_bootstrap_beyond_the_maximum_is_refused_by_every_step(root, tmp_path, step, args, value):
    r = run(tmp_path, f"{root}/{step}", "--bootstrap", value, *args)
    assert r.returncode == 1
    name = step.split("/")[-1]
    assert error_lines(r) == [f"{name}: error: --bootstrap: at most 100000 resamples (docs/uncertainty.md), "
                              f"got '{value}'"]
    assert not (tmp_path / "exp").exists()


def test_bootstrap_maximum_in_python_entry_points_and_engine(root):
    assert MAX_RESAMPLES == 100_000
    resamples(100_000) or resamples(0)                 # accepted (the one check, core/options.py)
    with pytest.raises(OptionError, match="at most 100000 resamples"):
        resamples(1_000_000_000, "1000000000")
    r = subprocess.run(["utils/termeval_python.sh", "-m", "termeval.bin.score_std", "--bootstrap",
                        "1000000000", "k", "d", "e"], cwd=root, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr.splitlines()[0] == ("score_std.py: error: argument --bootstrap: at most 100000 "
                                        "resamples (docs/uncertainty.md), got '1000000000'")
    assert r.stderr.splitlines()[1:] == ["Usage: score_std.py [options] <kws_dir> <detections> <exp_dir> "
                                         "(--help for options)"]
    # the library refuses too, before drawing anything (no N x U matrix is ever allocated)
    rng = np.random.default_rng(1)
    with pytest.raises(InputError, match="--bootstrap: at most 100000 resamples"):
        next(draw_weights(rng, 10, 10**9))
    with pytest.raises(InputError, match="--bootstrap: at most 100000"):
        next(draw_swaps(rng, 10, MAX_RESAMPLES + 1))
    assert sum(len(w) for w in draw_weights(rng, 3, 120)) == 120


def test_leading_zeros_are_a_decimal_count(root, tmp_path):
    # bash reads 010 as octal and 08 as an error: the check reads them as decimal
    r = run(tmp_path, f"{root}/steps/score_std.sh", "--bootstrap", "000000000000000000000100", "--nj", "08",
            "kws", "det.xml", "exp/x")
    assert error_lines(r) == ["score_std.sh: error: kws data dir kws: no such directory"]


# ------------------------------------------------ a wrong argument count says so first

def test_option_after_the_arguments_is_one_error_line_then_the_usage(root, tmp_path):
    r = run(tmp_path, f"{root}/steps/score_std.sh", "kws", "det.xml", "exp/x", "--nj", "2")
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert lines[1] == ("score_std.sh: error: expected 3 arguments, got 5 (--nj came after the arguments: "
                        "options go before the arguments)")
    assert lines[2].startswith("Usage: steps/score_std.sh [options] <kws-data-dir> <detections> <exp-dir>")
    assert lines[-1] == f"Options: {root}/steps/score_std.sh --help"
    assert len(lines) == 5                      # not the 40-line header
    assert not (tmp_path / "exp").exists()


def test_compare_systems_with_one_system(root, tmp_path):
    r = run(tmp_path, f"{root}/steps/compare_systems.sh", "exp/a", "exp/cmp")
    assert r.returncode == 1
    assert error_lines(r) == ["compare_systems.sh: error: expected at least 3 arguments, got 2"]
    assert r.stderr.splitlines()[1] == error_lines(r)[0]


@pytest.mark.parametrize("step,args,message", [
    ("steps/score_tde.sh", ["d", "c", "e", "--benchmark=zr2017"],
     "expected 3 arguments, got 4 (--benchmark came after the arguments: options go before the arguments)"),
    ("steps/score_resources.sh", ["a"], "expected 2 arguments, got 1"),
    ("steps/score_segmentation.sh", [], "expected 3 arguments, got 0"),
    ("utils/measure_resources.sh", ["exp/x"], "expected at least 3 arguments, got 1"),
    ("steps/prepare_gold.sh", ["--format", "textgrid", "a", "b", "c"], "wrong number of arguments (got 3)"),
])
def test_wrong_argument_counts(root, tmp_path, step, args, message):
    r = run(tmp_path, f"{root}/{step}", *args)
    assert r.returncode == 1
    assert error_lines(r) == [f"{step.split('/')[-1]}: error: {message}"]
    assert "Usage:" in r.stderr


# ------------------------------------------------ options refused before any job is queued

def _fake_data(d):
    d.mkdir()
    for f in ("phones", "words", "reco2dur", "utt2spk"):
        (d / f).write_text("")


@pytest.mark.parametrize("step,args,message", [
    # read only by the merge job, after the other jobs: now checked by the shell step
    ("steps/score_tde.sh", ["--bootstrap-unit", "spk"],
     "--bootstrap-unit: invalid choice: 'spk' (choose from 'file', 'speaker')"),
    ("steps/score_segmentation.sh", ["--bootstrap-unit", "recording"],
     "--bootstrap-unit: invalid choice: 'recording' (choose from 'file', 'speaker')"),
    # read by the jobs' Python parser: parsed once here (te_check_options) before queueing
    ("steps/score_segmentation.sh", ["--frame-shift", "0"], "--frame-shift: must be > 0, got '0'"),
    ("steps/score_segmentation.sh", ["--tolerance", "inf"], "--tolerance: expected a finite number, got 'inf'"),
    ("steps/score_segmentation.sh", ["--tolerance", "20"],
     "--tolerance: is in seconds: 20 s is not a boundary tolerance (20 ms is --tolerance 0.02; less than 1 s accepted)"),
    ("steps/score_segmentation.sh", ["--nj", "99999999999"], "--nj: at most 1024 jobs, got '99999999999'"),
])
def test_job_options_are_refused_before_any_job(root, tmp_path, step, args, message):
    _fake_data(tmp_path / "data")
    (tmp_path / "seg").write_text("")
    (tmp_path / "x.class").write_text("")
    second = "seg" if "segmentation" in step else "x.class"
    r = run(tmp_path, f"{root}/{step}", "--nj", "2", "--cmd", "false", *args, "data", second, "exp/x")
    assert r.returncode == 1
    assert error_lines(r) == [f"{step.split('/')[-1]}: error: {message}"]
    assert not (tmp_path / "exp/x/log").exists() or list((tmp_path / "exp/x/log").iterdir()) == []


@pytest.mark.parametrize("args,message", [
    (["--bogus", "1"], "score_std.sh: error: invalid option --bogus (see "),
    (["--plots", "yes"], "score_std.sh: error: --plots: expected \"true\" or \"false\", got 'yes'"),
    (["--nj"], "score_std.sh: error: option --nj needs a value"),
])
def test_parse_options_errors_are_error_lines(root, tmp_path, args, message):
    r = run(tmp_path, f"{root}/steps/score_std.sh", *args)
    assert r.returncode == 1 and r.stderr.splitlines()[-1].startswith(message)
