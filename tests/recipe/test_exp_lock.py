"""One run per exp dir (utils/termeval_lib.sh te_lock, termeval.run.driver.exp_lock): a second run on
an exp dir that another live run is writing is refused with one line naming its pid, before it
writes anything; a lock left by a dead run is taken over; the step releases its lock."""
from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from test_job_paths import step, work  # noqa: E402,F401  (the same tiny corpus and step runner)


@pytest.mark.parametrize("name,inp,nj", [("score_tde.sh", "x.class", "1"), ("score_tde.sh", "x.class", "2"),
                                         ("score_segmentation.sh", "seg.txt", "1")])
def test_a_second_run_on_a_busy_exp_dir_is_refused(root, work, name, inp, nj):
    exp = work / "exp" / "x"
    exp.mkdir(parents=True)
    holder = subprocess.Popen(["sleep", "30"])     # a live run of this host holds the exp dir
    try:
        (exp / ".termeval.lock").write_text(f"{holder.pid} {socket.gethostname()}\n")
        r = step(root, work, name, "--nj", nj, "data", inp, "exp/x")
        assert r.returncode == 1 and "Traceback" not in r.stderr
        assert r.stderr.strip().splitlines()[-1] == (
            f"{name}: error: exp/x is being written by another run (pid {holder.pid} on "
            f"{socket.gethostname()}); if it is not, remove {exp.resolve()}/.termeval.lock")
        assert set(os.listdir(exp)) <= {".termeval.lock", "log"}       # nothing written (log/ checked writable)
        assert not (exp / "log").exists() or os.listdir(exp / "log") == []
        assert (exp / ".termeval.lock").read_text() == f"{holder.pid} {socket.gethostname()}\n"
    finally:
        holder.kill()
        holder.wait()


def test_a_dead_runs_lock_is_taken_over_and_released(root, work):
    exp = work / "exp" / "x"
    exp.mkdir(parents=True)
    dead = subprocess.Popen(["true"])
    dead.wait()
    (exp / ".termeval.lock").write_text(f"{dead.pid} {socket.gethostname()}\n")
    r = step(root, work, "score_tde.sh", "data", "x.class", "exp/x")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("matching: ned ")                      # its own scores, on stdout
    assert not (exp / ".termeval.lock").exists()
