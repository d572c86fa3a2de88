"""Errors at the recipe's edge: run.sh stage options, option checks before any job is launched,
and a job killed by the kernel reported as such under the launcher's line."""
from __future__ import annotations

import os
import subprocess


def run(cwd, *args) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", *args], cwd=cwd, capture_output=True, text=True)


def test_run_sh_rejects_bad_stages_and_an_empty_selection(root, tmp_path):
    r = run(tmp_path, f"{root}/run.sh", "--stage", "abc")
    assert r.returncode == 1 and r.stderr.splitlines()[-1] == "run.sh: error: --stage: expected a whole number, got 'abc'"
    r = run(tmp_path, f"{root}/run.sh", "--stop-stage", "abc")
    assert r.returncode == 1 and "--stop-stage: expected a whole number, got 'abc'" in r.stderr
    r = run(tmp_path, f"{root}/run.sh", "--stage", "7", "--stop-stage", "0")
    assert r.returncode == 1 and "no stage selected (--stage 7 is after --stop-stage 0)" in r.stderr
    r = run(tmp_path, f"{root}/run.sh", "--stage", "9")
    assert r.returncode == 1 and "no stage selected" in r.stderr
    r = run(tmp_path, f"{root}/run.sh", "--nj", "0")
    assert r.returncode == 1 and "--nj: expected a whole number >= 1, got '0'" in r.stderr
    assert "done" not in r.stderr
    assert os.listdir(tmp_path) == []          # nothing was run, nothing written


def test_options_are_checked_before_jobs_start(root, tmp_path):
    # the step's Options check them (one message on every face: termeval/core/options.py)
    for opt, val, msg in (("--workers", "abc", "--workers: expected an integer, got 'abc'"),
                          ("--workers", "0", "--workers: must be a positive integer, got '0'"),
                          ("--nj", "-2", "--nj: must be a positive integer, got '-2'"),
                          ("--nj", "99999999999", "--nj: at most 1024 jobs, got '99999999999'"),
                          ("--benchmark", "zr2099", "--benchmark: invalid choice: 'zr2099' (choose from 'zrc2020'"),
                          ("--bootstrap", "1e3", "--bootstrap: expected an integer, got '1e3'"),
                          ("--ci", "95", "--ci: must lie strictly between 0 and 1, got '95'")):
        r = run(tmp_path, f"{root}/steps/score_tde.sh", opt, val, "data", "x.class", "exp/x")
        assert r.returncode == 1
        assert r.stderr.splitlines()[-1].startswith(f"score_tde.sh: error: {msg}"), r.stderr
    assert not (tmp_path / "exp").exists()


def test_a_job_killed_by_the_kernel_says_so(root, tmp_path):
    # a launcher whose job dies with 137 (SIGKILL: the kernel's OOM killer), Kaldi log format
    fake = tmp_path / "oom.pl"
    fake.write_text('#!/usr/bin/env bash\nwhile [[ $1 == --* ]]; do shift 2; done\n'
                    'r=""; [[ $1 == *=*:* ]] && { r=$1; shift; }\nlog=${1//JOB/1}; mkdir -p "$(dirname "$log")"\n'
                    'printf "# cmd\\n# Started\\nKilled\\n# Ended (code 137) at now\\n" > "$log"\n'
                    'echo "oom.pl: 1 / 1 failed, log is in $1" >&2; exit 1\n')
    os.chmod(fake, 0o755)
    data = tmp_path / "data"
    data.mkdir()
    for name, text in (("phones", "f 0 1 a\n"), ("words", "f 0 1 w\n"), ("reco2dur", "f 1\n"), ("utt2spk", "f s\n")):
        (data / name).write_text(text)
    (tmp_path / "x.class").write_text("Class 1\nf 0 1\n\n")
    (tmp_path / "exp" / "x" / "classes").mkdir(parents=True)
    r = run(tmp_path, f"{root}/steps/score_tde.sh", "--cmd", str(fake), "data", "x.class", "exp/x")
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert lines[-2].startswith("oom.pl: 1 / 1 failed")
    assert lines[-1] == ("score_tde.sh: error: job killed (out of memory?), exit code 137; "
                         "log: exp/x/log/zrc2020.1.log")


def test_an_internal_error_is_one_line_with_the_traceback_kept(monkeypatch, capsys):
    import pytest

    from termeval.run.cli import run

    def buggy(argv):
        return {}["missing"]

    with pytest.raises(SystemExit) as e:
        run(buggy, [])
    assert e.value.code == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "error: internal error, please report it: KeyError: 'missing'; traceback in " in err[0]
    path = err[0].rsplit("traceback in ", 1)[1]
    with open(path, encoding="utf-8") as f:
        assert "Traceback (most recent call last)" in f.read()
    os.unlink(path)
