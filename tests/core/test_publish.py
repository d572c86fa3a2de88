"""termeval.core.publish: the one way an output is put in place (temporary sibling, rename),
umask permissions, all-or-none multi-file outputs, and the temporaries of dead runs removed."""
from __future__ import annotations

import errno
import os
import socket
import stat
import subprocess

import pytest

from termeval.core import publish


def dead_pid() -> int:
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


def leftover(directory, pid: int, name: str = "scores") -> str:
    """A temporary named as publish names them, owned by `pid` of this host."""
    path = os.path.join(str(directory), f"{publish.TMP_PREFIX}{pid}.{publish.host_tag()}.0badc0de.{name}")
    os.mkdir(path)
    with open(os.path.join(path, "half-written"), "w") as f:
        f.write("x")
    return path


def test_temporaries_are_siblings_named_with_pid_and_host(tmp_path):
    t = publish.temp_path(str(tmp_path / "scores"))
    assert os.path.dirname(t) == str(tmp_path)
    assert os.path.basename(t).startswith(f".termeval-tmp.{os.getpid()}.{publish.host_tag()}.")
    assert t.endswith(".scores")


def test_output_dir_replaces_whole_and_a_failure_leaves_the_old(tmp_path):
    dest = tmp_path / "scores"
    dest.mkdir()
    (dest / "old").write_text("old\n")
    with publish.output_dir(str(dest)) as tmp:
        with open(os.path.join(tmp, "new"), "w") as f:
            f.write("new\n")
    assert sorted(os.listdir(dest)) == ["new"]
    with pytest.raises(OSError):
        with publish.output_dir(str(dest)) as tmp:
            open(os.path.join(tmp, "newer"), "w").close()
            raise OSError(errno.ENOSPC, "No space left on device")
    assert sorted(os.listdir(dest)) == ["new"] and os.listdir(tmp_path) == ["scores"]


def test_outputs_follow_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        with publish.output_dir(str(tmp_path / "d")) as tmp:
            with publish.atomic_file(os.path.join(tmp, "f")) as f:
                f.write("x")
        assert stat.S_IMODE(os.stat(tmp_path / "d").st_mode) == 0o755
        assert stat.S_IMODE(os.stat(tmp_path / "d" / "f").st_mode) == 0o644
        os.umask(0o077)
        with publish.output_dir(str(tmp_path / "e")):
            pass
        assert stat.S_IMODE(os.stat(tmp_path / "e").st_mode) == 0o700
    finally:
        os.umask(old)


def test_files_appear_all_or_none(tmp_path, monkeypatch):
    d = tmp_path / "out"
    d.mkdir()
    (d / "a").write_text("old a\n")
    with pytest.raises(OSError):
        with publish.files(str(d), ["a", "b"]) as tmps:
            open(tmps["a"], "w").write("new a\n")
            raise OSError(errno.ENOSPC, "No space left on device")
    assert sorted(os.listdir(d)) == ["a"] and (d / "a").read_text() == "old a\n"
    with publish.files(str(d), ["a", "b"]) as tmps:
        for n, t in tmps.items():
            open(t, "w").write(n)
    assert sorted(os.listdir(d)) == ["a", "b"] and (d / "b").read_text() == "b"


def test_a_failed_write_names_the_file_and_leaves_nothing(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("old\n")
    with pytest.raises(OSError) as e:
        with publish.atomic_file(str(path)) as f:
            f.write("new")
            raise OSError(errno.ENOSPC, "No space left on device")
    assert e.value.errno == errno.ENOSPC and e.value.filename == str(path)
    assert os.listdir(tmp_path) == ["x.txt"] and path.read_text() == "old\n"


def test_cleanup_removes_dead_runs_temporaries_only(tmp_path):
    live = subprocess.Popen(["sleep", "30"])
    try:
        dead = leftover(tmp_path, dead_pid())
        mine = leftover(tmp_path, live.pid)
        other_host = tmp_path / f"{publish.TMP_PREFIX}{dead_pid()}.elsewhere-{socket.gethostname()[:3]}x.0badc0de.s"
        other_host.mkdir()
        (tmp_path / ".scores.abc").mkdir()          # not ours: never touched
        assert publish.cleanup_stale(str(tmp_path)) == [dead]
        assert os.path.isdir(mine) and other_host.is_dir() and (tmp_path / ".scores.abc").is_dir()
        assert not os.path.exists(dead)
    finally:
        live.kill()
        live.wait()


def test_redirect_into_the_published_output(tmp_path):
    exp, out = str(tmp_path / "exp"), str(tmp_path / "exp" / ".tmp")
    assert publish.redirect(f"{exp}/scores/summary.json", exp, out, ("scores", "details")) == f"{out}/scores/summary.json"
    assert publish.redirect(f"{exp}/summary.json", exp, out, ("scores",)) == f"{exp}/summary.json"
    assert publish.redirect(str(tmp_path / "s.json"), exp, out, ("scores",)) == str(tmp_path / "s.json")


def test_a_multi_file_output_removes_a_killed_runs_temporaries(tmp_path):
    d = tmp_path / "times"
    d.mkdir()
    t = d / f"{publish.TMP_PREFIX}{dead_pid()}.{publish.host_tag()}.0badc0de.intervals"
    t.write_text("half")
    with publish.files(str(d), ["intervals", "classes"]) as tmps:
        for p in tmps.values():
            open(p, "w").close()
    assert sorted(os.listdir(d)) == ["classes", "intervals"]
