"""termeval.core.lock, the one lock: taken with O_EXCL, stale locks (dead pid, or empty/garbled
and old) taken over, a live holder named, and a lock that cannot be written (disk full,
read-only file system) one InputError naming the problem, with no empty lock file left."""
from __future__ import annotations

import errno
import os
import socket
import subprocess
import time

import pytest

from termeval.core import lock, publish
from termeval.core.errors import InputError

HOST = socket.gethostname()


def age(path, seconds: float) -> None:
    t = time.time() - seconds
    os.utime(path, (t, t))


def test_take_and_release(tmp_path):
    path = lock.take(str(tmp_path))
    assert open(path).read() == f"{os.getpid()} {HOST}\n"
    with pytest.raises(InputError, match=rf"is being written by another run \(pid {os.getpid()}\)"):
        lock.take(str(tmp_path))
    lock.release(str(tmp_path))
    assert not os.path.exists(path)


def test_a_live_holder_is_named_with_its_host_for_the_shell(tmp_path):
    holder = subprocess.Popen(["sleep", "30"])
    try:
        (tmp_path / lock.LOCK_NAME).write_text(f"{holder.pid} {HOST}\n")
        with pytest.raises(InputError) as e:
            lock.take(str(tmp_path), 12345, "exp/x", host_shown=True)
        assert str(e.value) == (f"exp/x is being written by another run (pid {holder.pid} on {HOST}); "
                                f"if it is not, remove {tmp_path.resolve()}/{lock.LOCK_NAME}")
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.parametrize("content", ["", "garbled\n", "12 34 56\n"])
def test_an_empty_or_garbled_old_lock_is_stale(tmp_path, content):
    p = tmp_path / lock.LOCK_NAME
    p.write_text(content)
    with pytest.raises(InputError, match=r"\(pid \?\)"):     # young: maybe being written now
        lock.take(str(tmp_path))
    age(p, lock.STALE_AGE + 5)
    lock.take(str(tmp_path))
    assert p.read_text() == f"{os.getpid()} {HOST}\n"


def test_a_dead_runs_lock_is_taken_over(tmp_path):
    dead = subprocess.Popen(["true"])
    dead.wait()
    (tmp_path / lock.LOCK_NAME).write_text(f"{dead.pid} {HOST}\n")
    lock.take(str(tmp_path))
    assert (tmp_path / lock.LOCK_NAME).read_text() == f"{os.getpid()} {HOST}\n"


def test_disk_full_while_writing_the_lock_leaves_no_empty_lock(tmp_path, monkeypatch):
    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "write", full)
    with pytest.raises(InputError) as e:
        lock.take(str(tmp_path))
    monkeypatch.undo()
    assert str(e.value) == f"{tmp_path.resolve()}/{lock.LOCK_NAME}: cannot write the lock file (the disk is full)"
    assert not (tmp_path / lock.LOCK_NAME).exists()
    lock.take(str(tmp_path))              # the next run is not refused by a leftover


@pytest.mark.parametrize("code,said", [(errno.EROFS, "read-only file system"), (errno.ENOSPC, "the disk is full"),
                                       (errno.EACCES, "permission denied")])
def test_a_lock_that_cannot_be_created_is_one_error(tmp_path, monkeypatch, code, said):
    real_open = os.open

    def refuse(path, flags, *a, **k):
        if str(path).endswith(lock.LOCK_NAME):
            raise OSError(code, os.strerror(code), path)
        return real_open(path, flags, *a, **k)
    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(InputError, match=f"cannot create the lock file \\({said}\\)"):
        lock.take(str(tmp_path))
    monkeypatch.undo()
    assert not (tmp_path / lock.LOCK_NAME).exists()


def test_hold_is_nothing_under_the_shells_lock(tmp_path, monkeypatch):
    monkeypatch.setenv(lock.LOCK_ENV, str(tmp_path.resolve()))
    with lock.hold(str(tmp_path)):
        assert not (tmp_path / lock.LOCK_NAME).exists()
    monkeypatch.delenv(lock.LOCK_ENV)
    with lock.hold(str(tmp_path)):
        assert (tmp_path / lock.LOCK_NAME).exists()
    assert not (tmp_path / lock.LOCK_NAME).exists()


def test_taking_the_lock_removes_dead_runs_temporaries(tmp_path):
    dead = subprocess.Popen(["true"])
    dead.wait()
    t = tmp_path / f"{publish.TMP_PREFIX}{dead.pid}.{publish.host_tag()}.00000000.out"
    t.mkdir()
    lock.take(str(tmp_path))
    assert not t.exists()
