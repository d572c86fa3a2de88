"""steps/score_tde.sh --benchmark zr2015-doc|lrec2014 end to end on a small random corpus:
score files, definitions, --nj, one-line errors for bad --folds values."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from termeval.core.numbers import fmt_value
from termeval.tde.benchmarks import seed_rules
from tests.seeddoc.corpora import random_corpus, write_corpus


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    root = tmp_path_factory.mktemp("seed")
    args = write_corpus(str(root), *random_corpus(11, nfiles=4, nclasses=5, alphabet="ab"))
    return args.data_dir, os.path.join(str(root), "sys.class"), root


def step(root_dir, *argv):
    return subprocess.run([os.path.join(root_dir, "steps/score_tde.sh"), *argv], capture_output=True, text=True)


@pytest.mark.parametrize("mode,folds", [("zr2015-doc", "equal:2"), ("lrec2014", "random:3x0.5:1")])
def test_step_writes_scores_and_definitions_and_nj_changes_nothing(root, inputs, mode, folds):
    data, cls, tmp = inputs
    out = {}
    for nj in ("1", "2"):
        exp = str(tmp / f"{mode}.{nj}")
        r = step(root, "--benchmark", mode, "--folds", folds, "--nj", nj, data, cls, exp)
        assert r.returncode == 0, r.stderr
        for s in ("matching", "clustering", "parsing", "scores.json"):
            assert os.path.isfile(os.path.join(exp, "scores", s))
        out[nj] = json.load(open(os.path.join(exp, "scores", "scores.json")))
    d = out["1"]["definitions"]
    assert d == dict(seed_rules(mode).definitions, folds=folds) and d["folds"] == folds
    assert out["1"]["benchmark"] == mode and "matching_fscore_std" in out["1"]
    same = lambda j: {k: v for k, v in j.items() if k not in ("command", "stages")}
    assert same(out["1"]) == same(out["2"])
    # issue 40 item 21: the gold's digest, so RESULTS.md's data column names it as for the others
    import termeval
    digest = out["1"]["data_ids"][mode]
    assert out["1"]["data_id"] == digest and len(digest) >= 8
    table = termeval.results_table(str(tmp / f"{mode}.1"), format="csv")
    assert f",{digest}," in table
    assert f"@{digest[:8]}|" in termeval.results_table(str(tmp / f"{mode}.1"))


@pytest.mark.parametrize("mode,folds", [("zr2015-doc", "random:3x0.5"), ("lrec2014", "equal:3"),
                                        ("zr2015-doc", "equal:0"), ("lrec2014", "random:0x0.5"),
                                        ("lrec2014", "random:3x1.5"), ("lrec2014", "random:3x0.5:-1"),
                                        ("zr2015-doc", "equal:9")])
def test_bad_folds_one_error_line(root, inputs, mode, folds):
    data, cls, tmp = inputs
    r = step(root, "--benchmark", mode, "--folds", folds, data, cls, str(tmp / "bad"))
    assert r.returncode != 0
    errors = [l for l in r.stderr.splitlines() if ": error: " in l]
    assert len(errors) == 1 and "--folds" in errors[0] and "Traceback" not in r.stderr


def test_python_api_and_command(root, inputs, tmp_path):
    import termeval
    data, cls, _ = inputs
    r = termeval.score_tde(data, cls, benchmark="zr2015-doc", folds="equal:2")
    assert r["benchmark"] == "zr2015-doc" and r["definitions"]["folds"] == "equal:2" and "ned_std" in r
    p = subprocess.run([os.path.join(root, "tools/venv/bin/python"), "-m", "termeval", "score-tde",
                        "--benchmark", "lrec2014", "--folds", "none", data, cls, str(tmp_path / "exp")],
                       capture_output=True, text=True, cwd=root)
    assert p.returncode == 0, p.stderr
    j = json.load(open(tmp_path / "exp" / "scores" / "scores.json"))
    assert j["benchmark"] == "lrec2014" and j["definitions"]["folds"] == "none"


@pytest.mark.parametrize("mode,folds,message", [
    ("lrec2014", "random:100000000x0.5", "--folds random:100000000x0.5: the number of batches B must be from 1 to 10000"),
    ("zr2015-doc", "equal:100000000", "--folds equal:100000000: N must be from 1 to 10000"),
])
def test_fold_count_bounded_before_any_work(root, inputs, mode, folds, message):
    """A fold count past MAX_FOLDS is one line at once (it used to run for hours), by the step
    and by the API."""
    import time
    import termeval
    from termeval.tde.foldspec import MAX_FOLDS
    assert MAX_FOLDS == 10000
    data, cls, tmp = inputs
    t = time.time()
    r = step(root, "--benchmark", mode, "--folds", folds, data, cls, str(tmp / "huge"))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert [l for l in r.stderr.splitlines() if ": error: " in l] == [f"score_tde.sh: error: {message}"]
    assert not os.path.exists(tmp / "huge") and time.time() - t < 30
    with pytest.raises(termeval.InputError, match="must be from 1 to 10000"):
        termeval.score_tde(data, cls, benchmark=mode, folds=folds)


@pytest.mark.parametrize("mode,folds", [("zr2015-doc", "equal:0"), ("lrec2014", "random:0x0.5")])
def test_bad_folds_refused_before_the_jobs(root, inputs, mode, folds):
    """--nj 2: the fold spec is checked before any job is queued (no run.pl failure lines)."""
    data, cls, tmp = inputs
    r = step(root, "--nj", "2", "--benchmark", mode, "--folds", folds, data, cls, str(tmp / "nj2"))
    assert r.returncode == 1 and "run.pl" not in r.stderr and "Traceback" not in r.stderr
    errors = [l for l in r.stderr.splitlines() if ": error: " in l]
    assert len(errors) == 1 and errors[0].startswith(f"score_tde.sh: error: --folds {folds}: "), r.stderr
    assert not os.path.exists(tmp / "nj2" / "log")


@pytest.mark.parametrize("mode,opts,message", [
    ("zrc2020", ["--folds", "equal:3"], "--folds equal:3: not read by --benchmark zrc2020 (an option of zr2015, zr2017, zr2015-doc, lrec2014)"),
    ("zrc2020", ["--measures", "ned"], "--measures ned: not read by --benchmark zrc2020 (an option of zr2015, zr2017)"),
    ("lrec2014", ["--workers", "2"], "--workers 2: not read by --benchmark lrec2014 (an option of zrc2020)"),
    ("zr2015-doc", ["--bootstrap-unit", "speaker"], "--bootstrap-unit speaker: not read by --benchmark zr2015-doc"),
    ("zr2017", ["--pairs-clustering", "components"], "--pairs-clustering components: not read by --benchmark zr2017"),
    ("zr2015", ["--end-tolerance", "0.5"], "--end-tolerance 0.5: not read by --benchmark zr2015"),
])
def test_option_the_benchmark_does_not_read_refused(root, inputs, mode, opts, message):
    data, cls, tmp = inputs
    r = step(root, "--benchmark", mode, *opts, data, cls, str(tmp / "unread"))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    errors = [l for l in r.stderr.splitlines() if ": error: " in l]
    assert len(errors) == 1 and errors[0].startswith(f"score_tde.sh: error: {message}"), r.stderr
    assert not os.path.exists(tmp / "unread")


@pytest.mark.parametrize("mode", ["zr2015-doc", "lrec2014"])
def test_stdout_prints_fractions_as_every_mode(root, inputs, mode):
    """One convention: the score line holds fractions in the one number format (6 decimals, at
    least 6 significant digits; was percent)."""
    import re
    data, cls, tmp = inputs
    exp = tmp / f"frac-{mode}"
    r = step(root, "--benchmark", mode, "--folds", "none", data, cls, str(exp))
    assert r.returncode == 0, r.stderr
    s = json.load(open(exp / "scores" / "scores.json"))
    line = [l for l in r.stdout.splitlines() if l.startswith(mode)][0]
    values = dict(re.findall(r"(\w+) (-|\d+\.\d{6,})(?= |$)", line.split(": ", 1)[1]))
    assert set(values) >= {"ned", "coverage", "token_fscore", "boundary_fscore"}
    for k, v in values.items():
        assert v == "-" if s.get(k) is None else v == fmt_value(s[k]), (k, v)
