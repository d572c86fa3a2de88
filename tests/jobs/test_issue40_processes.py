"""Issue 40 §9 and §16: jobs die with the step that started them, a killed run's lock never
blocks the next one (a zombie holder is dead), and a lock's place that is a directory says
what to remove.

The kill test runs steps/score_segmentation.sh --nj 2 through utils/run.pl (via a `--cmd`
wrapper that makes each job's Python sleep once it is watching its step, as a long job
would), kills the step with kill -9 -- the step's process alone, or its whole process group --
and checks that run.pl and both jobs are gone within a few seconds, then that the same command
run again succeeds with the scores of a clean run."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "recipe"))
from test_job_paths import step, work  # noqa: E402,F401  (the tiny corpus and step runner)

from termeval.core import lock, publish  # noqa: E402
from termeval.core.errors import InputError  # noqa: E402
from termeval.run import watch  # noqa: E402

linux = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc (Linux)")

# the job's Python, as utils/termeval_python.sh runs it, but sleeping once it watches its step
STUB = """#!/usr/bin/env bash
exec "{root}/utils/termeval_python.sh" -c '
import os, runpy, sys, time
import termeval.run.cli as cli
real = cli.watch_step
def held():
    if not real():
        raise SystemExit("job: not watching its step")
    open(os.path.join("{held}", "held.%d" % os.getpid()), "w").close()
    time.sleep(60)
cli.watch_step = held
sys.argv = sys.argv[2:]
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)' "$@"
"""
# a launcher in Kaldi's interface: utils/run.pl, the job's Python replaced by the stub
LAUNCHER = """#!/usr/bin/env bash
args=("$@")
for i in "${{!args[@]}}"; do
  [[ "${{args[$i]}}" == */utils/termeval_python.sh ]] && args[$i]="{stub}"
done
exec "{root}/utils/run.pl" "${{args[@]}}"
"""


def processes_under(exp: str) -> dict[int, str]:
    """{pid: command line} of the live processes (not zombies) whose command line names `exp`."""
    found = {}
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        try:
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        stat = publish.proc_stat(int(d))
        if exp in cmd and stat is not None and stat[0] != "Z":
            found[int(d)] = cmd
    return found


def wait_for(pred, timeout: float):
    end = time.time() + timeout
    while time.time() < end:
        got = pred()
        if got:
            return got
        time.sleep(0.05)
    return pred()


@linux
@pytest.mark.parametrize("what", ["step", "group"])
def test_killed_step_leaves_no_job_and_the_rerun_scores_as_a_clean_run(root, work, what):
    stub, launcher = work / "job_python.sh", work / "launch.sh"
    held = work / "held"
    held.mkdir()
    stub.write_text(STUB.format(root=root, held=held))
    launcher.write_text(LAUNCHER.format(root=root, stub=stub))
    stub.chmod(0o755)
    launcher.chmod(0o755)
    exp = str(work / "exp" / "killed")
    args = ["--nj", "2", "data", "seg.txt", exp]
    run = subprocess.Popen([os.path.join(root, "steps", "score_segmentation.sh"), "--cmd", str(launcher), *args],
                           cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        jobs = wait_for(lambda: len(os.listdir(held)) == 2, 30)     # both jobs run, watching the step
        assert jobs, processes_under(exp)
        os.kill(run.pid, signal.SIGKILL) if what == "step" else os.killpg(run.pid, signal.SIGKILL)
        run.wait()
        left = wait_for(lambda: not processes_under(exp), 5)
        assert left is True, processes_under(exp)             # run.pl and both jobs are gone
    finally:
        for pid in processes_under(exp):
            os.kill(pid, signal.SIGKILL)
    if what == "group":             # everything died at once: the re-run is the same as after "step"
        return
    again = step(root, work, "score_segmentation.sh", "--cmd", os.path.join(root, "utils", "run.pl"), *args)
    assert again.returncode == 0, again.stderr
    clean = step(root, work, "score_segmentation.sh", "data", "seg.txt", "exp/clean")
    assert clean.returncode == 0, clean.stderr
    assert again.stdout == clean.stdout
    assert (work / "exp" / "killed" / "scores" / "segmentation").read_bytes() == \
        (work / "exp" / "clean" / "scores" / "segmentation").read_bytes()
    assert not os.path.exists(os.path.join(exp, ".termeval.lock"))
    assert not [n for n in os.listdir(exp) if publish.is_temporary(n)]


@linux
def test_a_job_dies_when_its_step_is_gone(tmp_path):
    """watch.watch_step directly: a process naming a live step (TERMEVAL_STEP) is killed once the
    step dies; one naming another host, a dead pid or nothing is not watched."""
    step_proc = subprocess.Popen(["sleep", "60"])
    code = "import time; from termeval.run import watch; assert watch.watch_step(); print('w', flush=True); time.sleep(60)"
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
               **watch.step_env(step_proc.pid))
    job = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert job.stdout.readline() == "w\n"
        step_proc.kill()
        step_proc.wait()
        t = time.time()
        assert job.wait(timeout=5) == -signal.SIGKILL and time.time() - t < 2
    finally:
        job.kill()
        step_proc.kill()
    for value in (f"{os.getpid()} not-{socket.gethostname()}", f"{step_proc.pid} {publish.hostname()}", "", "x y"):
        os.environ[watch.ENV] = value
        try:
            assert watch._step() is None
        finally:
            del os.environ[watch.ENV]


# ----------------------------------------------------------------------------- the lock

def zombie() -> int:
    """The pid of a child that has exited and is not reaped (state Z), as a killed run's
    process stays in a container without a reaping init."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    for _ in range(200):
        if publish.proc_stat(pid) and publish.proc_stat(pid)[0] == "Z":
            return pid
        time.sleep(0.01)
    raise AssertionError("no zombie")


@linux
def test_a_zombie_lock_holder_is_dead(tmp_path):
    pid = zombie()
    try:
        assert not publish.process_alive(pid)
        (tmp_path / lock.LOCK_NAME).write_text(f"{pid} {publish.hostname()}\n")
        assert lock.holder(str(tmp_path / lock.LOCK_NAME)) is None
        lock.take(str(tmp_path))                               # taken over, not refused
        assert (tmp_path / lock.LOCK_NAME).read_text() == f"{os.getpid()} {publish.hostname()}\n"
        lock.release(str(tmp_path))
    finally:
        os.waitpid(pid, 0)


@linux
def test_a_step_takes_over_the_lock_of_a_zombie(root, work):
    pid = zombie()
    try:
        exp = work / "exp" / "z"
        exp.mkdir(parents=True)
        (exp / lock.LOCK_NAME).write_text(f"{pid} {publish.hostname()}\n")
        r = step(root, work, "score_tde.sh", "data", "x.class", "exp/z")
        assert r.returncode == 0, r.stderr
        assert not (exp / lock.LOCK_NAME).exists() and (exp / "scores" / "scores.json").is_file()
    finally:
        os.waitpid(pid, 0)


def test_a_lock_that_is_a_directory_says_what_to_remove(root, work, tmp_path):
    (tmp_path / lock.LOCK_NAME).mkdir()
    with pytest.raises(InputError) as e:
        lock.take(str(tmp_path))
    path = os.path.join(os.path.realpath(tmp_path), lock.LOCK_NAME)
    assert str(e.value) == (f"{path}: is a directory, not termeval's lock file (one line `<pid> <host>`); no run "
                            f"holds it: remove it (rm -r {path}) and run again")
    exp = work / "exp" / "d"
    (exp / lock.LOCK_NAME).mkdir(parents=True)
    for nj in ("1", "2"):
        r = step(root, work, "score_tde.sh", "--nj", nj, "data", "x.class", "exp/d")
        assert r.returncode == 1 and "Traceback" not in r.stderr
        assert r.stderr.strip().splitlines()[-1] == (
            f"score_tde.sh: error: {exp.resolve()}/{lock.LOCK_NAME}: is a directory, not termeval's lock file (one "
            f"line `<pid> <host>`); no run holds it: remove it (rm -r {exp.resolve()}/{lock.LOCK_NAME}) and run again")
        assert not (exp / "scores").exists()
