"""A path holding the launchers' job placeholder (JOB) would be rewritten in every job
(exp/JOBS/x -> exp/1S/x by run.pl, queue.pl and slurm.pl): refused with one line naming the
rule, before anything is written (utils/termeval_lib.sh te_check_job_path, te_launch)."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from termeval.gold import prepare_zr

PHN = "f1 0.00 0.10 SIL\nf1 0.10 0.30 a\nf1 0.30 0.50 b\nf2 0.00 0.40 d\nf2 0.40 0.90 e\n"
WRD = "f1 0.10 0.50 ab\nf2 0.00 0.40 d\nf2 0.40 0.90 e\n"
SEG = "f1 0.00 0.10 1\nf1 0.10 0.50 2\nf2 0.00 0.45 2\nf2 0.45 0.90 3\n"
CLS = "Class 1\nf1 0.10 0.50\nf2 0.00 0.40\n\nClass 2\nf2 0.40 0.90\nf1 0.30 0.50\n"


def rule(path: str) -> str:
    return (f"error: {path}: a path given to a job must not contain 'JOB': the job launcher replaces every "
            "'JOB' in a job's command by the job number (JOB=1:N; exp/JOBS/x would become exp/1S/x); "
            "rename it or use a symlink")


@pytest.fixture()
def work(tmp_path):
    (tmp_path / "x.phn").write_text(PHN)
    (tmp_path / "x.wrd").write_text(WRD)
    (tmp_path / "seg.txt").write_text(SEG)
    (tmp_path / "x.class").write_text(CLS)
    prepare_zr(str(tmp_path / "x.phn"), str(tmp_path / "x.wrd"), str(tmp_path / "data"))
    return tmp_path


def step(root, cwd, name, *args):
    return subprocess.run([os.path.join(root, "steps", name), *args], cwd=cwd, capture_output=True, text=True)


@pytest.mark.parametrize("name,inp", [("score_segmentation.sh", "seg.txt"), ("score_tde.sh", "x.class")])
def test_exp_dir_with_job_refused_before_anything(root, work, name, inp):
    r = step(root, work, name, "--nj", "2", "data", inp, "exp/JOBS/exp")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines()[-1] == f"{name}: " + rule("exp/JOBS/exp/log")
    assert not (work / "exp").exists() and not (work / "1S").exists()


def test_input_path_with_job_refused_and_lowercase_fine(root, work):
    shutil.copytree(work / "data", work / "JOBdata")
    # one local process (--nj 1, no --cmd): no launcher rewrites the path, it is used as it is
    r = step(root, work, "score_segmentation.sh", "JOBdata", "seg.txt", "exp/one")
    assert r.returncode == 0, r.stderr
    assert (work / "exp" / "one" / "scores" / "segmentation").is_file()
    r = step(root, work, "score_segmentation.sh", "--nj", "2", "JOBdata", "seg.txt", "exp/a")
    assert r.returncode == 1 and r.stderr.strip().splitlines()[-1] == "score_segmentation.sh: " + rule("JOBdata")
    assert not (work / "exp" / "a" / "scores").exists()
    # 'job' in lower case is no placeholder: the same data under jobs/ scores normally
    shutil.copytree(work / "data", work / "jobs_data")
    r = step(root, work, "score_segmentation.sh", "jobs_data", "seg.txt", "exp/jobs/b")
    assert r.returncode == 0, r.stderr
    assert (work / "exp" / "jobs" / "b" / "scores" / "segmentation").is_file()
