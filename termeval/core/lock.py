"""The one lock: one run writes an output dir (an exp dir, a zrc submission dir) at a time.

The lock is the file `<dir>/.termeval.lock` holding one line `<pid> <host>`, created with
O_EXCL. A second live run is refused with one line naming the holder. A lock is stale, and
taken over, when its owner process is gone or a zombie (same host) or when it is empty or
garbled and older than STALE_AGE seconds (a run killed between creating and writing it, or a disk that
filled up then). A lock that cannot be written (disk full, read-only file system, no
permission) is an InputError naming that problem, and no empty lock file is left behind. A
lock's place holding something else than a file (a directory) is an InputError saying what it
is and what to remove.

A shell step takes the lock for its own pid (`python -m termeval.run.lock take <dir> <pid>`
from utils/termeval_lib.sh te_lock) and exports TERMEVAL_LOCKED=<dir>, so that the step's own
Python processes do not take it again (`hold` yields at once for that dir).

  take(dir, pid=None)     take the lock (for pid, default this process); returns its path
  release(dir, pid=None)  remove the lock if it is ours
  hold(dir)               context: take ... release, or nothing when TERMEVAL_LOCKED names dir
  holder(path)            the holder named in a lock file, or None when it is stale
"""
from __future__ import annotations

import contextlib
import errno
import os
import time
from typing import Iterator

from termeval.core.errors import InputError
from termeval.core.publish import cleanup_stale, hostname, process_alive

LOCK_NAME = ".termeval.lock"
LOCK_ENV = "TERMEVAL_LOCKED"       # set by a shell step that holds the lock of its exp dir
STALE_AGE = 5.0                    # seconds after which an empty or garbled lock is stale

_FS_PROBLEMS = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is exceeded",
                errno.EROFS: "read-only file system", errno.EACCES: "permission denied",
                errno.EPERM: "permission denied"}


def _line(pid: int) -> str:
    return f"{pid} {hostname()}\n"


def _problem(e: OSError) -> str:
    return _FS_PROBLEMS.get(e.errno or 0, e.strerror or type(e).__name__)


def holder(path: str, host_shown: bool = True) -> str | None:
    """Who holds the lock file `path` ("<pid> on <host>", "<pid>" for this host without
    host_shown, "?"), or None when the lock is stale: its process is gone (this host), or it is
    empty/garbled and older than STALE_AGE."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            fields = f.read().split()
        age = time.time() - os.stat(path).st_mtime
    except FileNotFoundError:
        return None
    except OSError:
        return "?"
    if len(fields) != 2 or not fields[0].isdigit():
        return None if age > STALE_AGE else "?"
    pid, host = int(fields[0]), fields[1]
    if host != hostname():
        return f"{pid} on {host}"
    if not process_alive(pid):
        return None
    return f"{pid} on {host}" if host_shown else str(pid)


def _create(path: str, line: str) -> bool:
    """Create the lock holding `line`; False when it exists. InputError when it cannot be
    written (no empty file is left)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        return False
    except OSError as e:
        raise InputError(f"cannot create the lock file ({_problem(e)})", path) from None
    try:
        data = line.encode()
        if os.write(fd, data) != len(data):
            raise OSError(errno.ENOSPC, "short write")
        os.close(fd)
        fd = -1
    except OSError as e:
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise InputError(f"cannot write the lock file ({_problem(e)})", path) from None
    return True


def _check_kind(path: str) -> None:
    """InputError when the lock's place holds something else than a lock file (a directory, a
    link to nowhere, a pipe): no run could ever take it, so say what it is and what to remove."""
    if os.path.isfile(path):
        return
    if os.path.isdir(path) and not os.path.islink(path):
        what, how = "a directory", f"rm -r {path}"
    elif os.path.islink(path):
        what, how = f"a symbolic link to {os.readlink(path)}, which is not a file", f"rm {path}"
    elif os.path.lexists(path):
        what, how = "not a regular file", f"rm {path}"
    else:
        return                                    # removed meanwhile: try again
    raise InputError(f"is {what}, not termeval's lock file (one line `<pid> <host>`); no run holds it: "
                     f"remove it ({how}) and run again", path)


def take(directory: str, pid: int | None = None, shown: str | None = None, host_shown: bool = False) -> str:
    """Take `<directory>/.termeval.lock` for `pid` (default this process); returns the lock's
    path. InputError naming the holder when a live run holds it; `shown` is how the message
    names the directory (default as given), host_shown: the holder's host named even when it
    is this one (the shell steps' message)."""
    shown = directory if shown is None else shown
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot create this directory ({_problem(e)})", directory) from None
    path = os.path.join(os.path.realpath(directory), LOCK_NAME)
    line = _line(os.getpid() if pid is None else pid)
    for _ in range(3):
        if _create(path, line):
            cleanup_stale(os.path.dirname(path))     # what a dead run of this dir left behind
            return path
        _check_kind(path)
        who = holder(path, host_shown)
        if who is None:                               # stale: take it over
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            continue
        raise InputError(f"{shown} is being written by another run (pid {who}); "
                         f"if it is not, remove {path}")
    raise InputError(f"cannot take the lock {path} (another run keeps taking it)")


def release(directory: str, pid: int | None = None) -> None:
    """Remove `<directory>/.termeval.lock` if it holds `pid`'s line (default this process)."""
    path = os.path.join(os.path.realpath(directory), LOCK_NAME)
    line = _line(os.getpid() if pid is None else pid)
    with contextlib.suppress(OSError):
        with open(path, encoding="utf-8") as f:
            mine = f.read() == line
        if mine:
            os.unlink(path)


def held_here(directory: str) -> bool:
    """Whether the calling step already holds the lock of `directory` (TERMEVAL_LOCKED)."""
    held = os.environ.get(LOCK_ENV)
    return bool(held) and (os.path.abspath(held) == os.path.abspath(directory)
                           or os.path.realpath(held) == os.path.realpath(directory))


@contextlib.contextmanager
def hold(directory: str) -> Iterator[None]:
    """Hold the lock of `directory` for the block (nothing when the calling shell step holds
    it already: TERMEVAL_LOCKED)."""
    if held_here(directory):
        yield
        return
    take(directory)
    try:
        yield
    finally:
        release(directory)
