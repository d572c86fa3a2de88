"""A step called by path from an install whose environment cannot be built (issue 40 item 10):
tools/venv cannot be created (no venv module), pip cannot install (first use offline), or
tools/ cannot be written (an unprepared read-only install). Each is one line naming what
failed and what to do, exit 1, whichever way the step reaches its Python (directly, through
the option check before jobs, through path.sh). A copy of the tree, so the real venv is never
touched; the failures are simulated by stand-ins (no network, no minutes of installing)."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest


@pytest.fixture
def tree(root, tmp_path):
    """A copy of the install without tools/ (what a fresh clone is)."""
    t = tmp_path / "te"
    t.mkdir()
    for name in ("steps", "utils"):
        shutil.copytree(os.path.join(root, name), t / name)
    for name in ("requirements.txt", "requirements-test.txt", "path.sh", "cmd.sh"):
        shutil.copy(os.path.join(root, name), t / name)
    (tmp_path / "kws").mkdir()              # the step's inputs (never read: no Python to read them)
    (tmp_path / "det.xml").write_text("")
    (tmp_path / "exp").mkdir()
    return t


def stand_in(path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + text)
    path.chmod(0o755)


def calls(t):
    """A step calling its Python directly, one through the option check of its jobs (--nj 2),
    a utility, and path.sh."""
    return [[f"{t}/steps/score_std.sh", "kws", "det.xml", "exp/x"],
            [f"{t}/steps/score_std.sh", "--nj", "2", "kws", "det.xml", "exp/x"],
            [f"{t}/utils/summarize_scores.sh", "exp"],
            ["bash", "-c", f". {t}/path.sh"]]


def error_lines(tmp_path, argv, env) -> list[str]:
    r = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and "(see above)" not in r.stderr
    errors = [line for line in r.stderr.splitlines() if "error: " in line]
    assert len(errors) == 1, r.stderr
    return errors


def test_no_venv_module(tree, tmp_path):
    stand_in(tmp_path / "bin" / "python3", 'echo "Error: No module named venv" >&2; exit 1\n')
    env = {**os.environ, "PATH": f"{tmp_path}/bin:{os.environ['PATH']}"}
    env.pop("TERMEVAL_PYTHON", None)
    for argv in calls(tree):
        [line] = error_lines(tmp_path, argv, env)
        assert f"error: creating {tree}/tools/venv with 'python3 -m venv' failed (Error: No module named venv): " \
               "install Python >= 3.10 with its venv module" in line, line
        assert line.endswith(f"then run {tree}/utils/setup_env.sh")
        assert not (tree / "tools" / "venv").exists()


def test_offline_first_use(tree, tmp_path):
    """The venv exists, pip cannot reach an index (what `pip install` says offline)."""
    stand_in(tree / "tools" / "venv" / "bin" / "python",
             'echo "WARNING: Retrying ... Failed to establish a new connection" >&2\n'
             'echo "ERROR: Could not find a version that satisfies the requirement numpy==2.4.6 (from versions: none)" >&2\n'
             'echo "ERROR: No matching distribution found for numpy==2.4.6" >&2; exit 1\n')
    for argv in calls(tree):
        [line] = error_lines(tmp_path, argv, dict(os.environ))
        assert f"error: pip could not install requirements.txt into {tree}/tools/venv (No matching distribution " \
               "found for numpy==2.4.6): the first use needs network access to PyPI" in line, line
        assert line.endswith(f"run {tree}/utils/setup_env.sh again once it is reachable")
    r = subprocess.run([f"{tree}/utils/setup_env.sh", "test"], capture_output=True, text=True)
    assert r.returncode == 1 and "could not install requirements.txt requirements-test.txt" in r.stderr
    assert f"run {tree}/utils/setup_env.sh test again" in r.stderr


def test_unprepared_read_only_install(tree, tmp_path):
    """tools/ cannot be created (here a file stands in its way: root ignores permissions)."""
    (tree / "tools").write_text("")
    for argv in calls(tree):
        [line] = error_lines(tmp_path, argv, dict(os.environ))
        assert f"error: cannot create {tree}/tools: {tree}/tools is not writable (a read-only or unprepared " \
               f"install): run {tree}/utils/setup_env.sh once as its owner" in line, line
