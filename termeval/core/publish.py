"""The one way termeval puts an output in place: write it under a temporary sibling name, then
rename it into place (files and directories alike).

A temporary is a sibling of its destination (same directory, so the rename is atomic) named
`.termeval-tmp.<pid>.<host>.<random>.<name>`: the pid and host of the process that made it,
so that `cleanup_stale(dir)` can remove what a dead run (kill -9, power loss) left behind
without touching what a live run is writing. An existing destination is replaced whole: it is
first renamed to such a temporary name, the new one renamed into place, then the old one
removed; a destination of the other kind (a directory where a file goes) is never replaced. Outputs get the permissions of the user's umask (mkstemp/mkdtemp would give 0600/0700).

  file_mode(directory)        permissions a normal file/dir gets under the umask
  temp_path(dest)             a fresh temporary sibling name for dest (nothing created)
  atomic_file(path, mode)     open a temporary file; renamed to path when the block succeeds
  new_dir(dest)               a fresh temporary directory beside dest (umask permissions)
  output_dir(dest)            context: yields a new_dir, put in place of dest when the block
                              succeeds, removed when it fails
  replace(new, dest)          put file/dir `new` in the place of dest (replacing it whole)
  all_or_none(paths)          context: {path: temporary path}; every file is renamed into
                              place only when the block succeeds (all or none)
  files(directory, names)     the same for names in one directory
  withdraw(path)              remove an output at once (renamed away, then removed)
  remove(path)                remove a file or directory tree, ignoring errors
  cleanup_stale(directory)    remove the temporaries of dead processes of this host
  process_alive(pid)          whether a process of this host exists (a zombie does not)
  proc_stat(pid)              its state and start time (/proc, Linux)
"""
from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
from typing import IO, Iterator, Sequence

TMP_PREFIX = ".termeval-tmp."
_NAME = re.compile(r"^\.termeval-tmp\.(\d+)\.([A-Za-z0-9-]+)\.[0-9a-f]+\.")


def file_mode(directory: bool = False) -> int:
    """Permissions a normally created file (or directory) gets under the current umask."""
    mask = os.umask(0)
    os.umask(mask)
    return (0o777 if directory else 0o666) & ~mask


def hostname() -> str:
    """This host's name, as socket.gethostname() gives it (the kernel's node name), read with
    os.uname: no socket module to import on the common path."""
    try:
        return os.uname().nodename
    except AttributeError:        # no os.uname (not POSIX)
        import socket    # only where os.uname is missing
        return socket.gethostname()


def host_tag() -> str:
    """This host's name as it appears in a temporary's name (first label, [A-Za-z0-9-])."""
    return re.sub(r"[^A-Za-z0-9-]", "-", hostname().split(".")[0]) or "host"


def temp_path(dest: str) -> str:
    """A fresh temporary sibling name of `dest` (nothing is created)."""
    dest = os.path.abspath(dest)
    return os.path.join(os.path.dirname(dest), f"{TMP_PREFIX}{os.getpid()}.{host_tag()}."
                                               f"{os.urandom(4).hex()}.{os.path.basename(dest)}")


def is_temporary(name: str) -> bool:
    return name.startswith(TMP_PREFIX)


def proc_stat(pid: int) -> tuple[str, int] | None:
    """(state, start time in clock ticks since boot) of process `pid` from /proc/<pid>/stat
    (Linux), None when there is no such entry or no /proc."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = text[text.rfind(")") + 2:].split()     # after "pid (comm) ": the name may hold spaces
    try:
        return fields[0], int(fields[19])
    except (IndexError, ValueError):
        return None


def shown(path: str) -> str:
    """`path` as the user will find it: each temporary component by its destination's name
    (what a message names, never an internal temporary)."""
    return os.sep.join(_NAME.sub("", part) for part in path.split(os.sep)) if TMP_PREFIX in path else path


def process_alive(pid: int) -> bool:
    """Whether process `pid` exists on this host and is not a zombie (one of another user
    counts as alive). A process killed but not yet reaped by its parent (state Z in
    /proc/<pid>/stat: a container without a reaping init keeps it for ever) is dead: it runs
    no code and holds nothing."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    except OverflowError:
        return False
    stat = proc_stat(pid)
    return stat is None or stat[0] not in ("Z", "X", "x")


def remove(path: str) -> None:
    """Remove a file, link or directory tree; errors ignored (what is left is a temporary
    that cleanup_stale removes later)."""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            os.unlink(path)


def cleanup_stale(directory: str) -> list[str]:
    """Remove the temporaries in `directory` whose owner (pid in the name, this host) is gone;
    those of live processes and of other hosts are kept. Returns the removed paths."""
    removed: list[str] = []
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    me = host_tag()
    for name in names:
        m = _NAME.match(name)
        if not m or m.group(2) != me:
            continue
        pid = int(m.group(1))
        if pid == os.getpid() or process_alive(pid):
            continue
        path = os.path.join(directory, name)
        remove(path)
        removed.append(path)
    return removed


@contextlib.contextmanager
def atomic_file(path: str, mode: str = "w") -> Iterator[IO]:
    """Open a temporary file beside `path`; rename it to `path` only if the block succeeds
    (a failure, e.g. a full disk, leaves `path` as it was and no temporary)."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    tmp = temp_path(path)
    kwargs = {} if "b" in mode else {"encoding": "utf-8", "newline": "\n"}
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)   # the umask applies
    except OSError as e:                  # named as the output, not as its temporary
        raise OSError(e.errno, e.strerror, path) from None
    try:
        with os.fdopen(fd, mode, **kwargs) as f:
            yield f
        try:
            os.replace(tmp, path)
        except OSError as e:              # e.g. a directory there: named as the output
            raise OSError(e.errno, e.strerror, path) from None
    except OSError as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if e.filename is None and e.errno is not None:     # a write: name the file
            raise OSError(e.errno, e.strerror, path) from None
        raise
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def new_dir(dest: str) -> str:
    """A fresh empty temporary directory beside `dest` (created with the umask's permissions;
    the parent is created if needed). Temporaries of dead runs there are removed first."""
    parent = os.path.dirname(os.path.abspath(dest))
    os.makedirs(parent, exist_ok=True)
    cleanup_stale(parent)
    while True:
        tmp = temp_path(dest)
        try:
            os.mkdir(tmp, 0o777)          # the umask applies (mkdtemp would give 0700)
            return tmp
        except FileExistsError:
            continue
        except OSError as e:              # named as the output, not as its temporary
            raise OSError(e.errno, e.strerror, dest) from None


def _same_kind(new: str, dest: str) -> None:
    """OSError when `dest` exists as the other kind than `new` (a directory where a file goes,
    or the reverse): replacing it would delete what it holds (the output guard refuses this
    before a run, termeval/core/guard.py; this is the last line)."""
    if not os.path.lexists(dest):
        return
    new_is_dir = os.path.isdir(new) and not os.path.islink(new)
    if os.path.isdir(dest) and not new_is_dir:
        raise IsADirectoryError(errno.EISDIR, "exists and is a directory (a file goes there; not replaced)", dest)
    if new_is_dir and not os.path.isdir(dest):
        raise NotADirectoryError(errno.ENOTDIR, "exists and is not a directory (a directory goes there; "
                                 "not replaced)", dest)


def replace(new: str, dest: str, keep_existing: bool = False) -> None:
    """Put the file or directory `new` in the place of `dest`, replacing an existing dest whole
    (it is renamed away first, then removed); a dest of the other kind (a directory where a
    file goes, or the reverse) is an OSError and stays as it is. keep_existing: when another
    process put a dest there meanwhile (content-keyed caches), keep that one and remove `new`."""
    dest = os.path.abspath(dest)
    _same_kind(new, dest)
    old = None
    if os.path.lexists(dest):
        old = temp_path(dest)
        try:
            os.rename(dest, old)
        except FileNotFoundError:
            old = None
    try:
        os.rename(new, dest)
    except OSError:
        if not keep_existing or not os.path.lexists(dest):
            if old is not None:            # put the old one back
                with contextlib.suppress(OSError):
                    os.rename(old, dest)
            raise
        remove(new)
    if old is not None:
        remove(old)


@contextlib.contextmanager
def output_dir(dest: str) -> Iterator[str]:
    """A temporary directory filled by the block, then put in the place of `dest` whole; a
    failed block leaves `dest` as it was and removes the temporary."""
    tmp = new_dir(dest)
    try:
        yield tmp
        replace(tmp, dest)
    except BaseException:
        remove(tmp)
        raise


@contextlib.contextmanager
def all_or_none(paths: Sequence[str]) -> Iterator[dict[str, str]]:
    """{path: temporary sibling path} for files anywhere: the block writes every temporary, and
    only when it succeeds are they all renamed into place (a failure, e.g. a full disk, leaves
    every old file as it was and no temporary). Temporaries of dead runs there are removed."""
    tmps: dict[str, str] = {}
    for d in dict.fromkeys(os.path.dirname(os.path.abspath(p)) for p in paths):
        os.makedirs(d, exist_ok=True)
        cleanup_stale(d)                  # what a killed run of this output left there
    try:
        for p in paths:
            tmps[p] = temp_path(p)
        yield tmps
        for p, t in tmps.items():     # a directory at p: nothing replaced yet (checked first)
            if os.path.isdir(p):
                raise IsADirectoryError(errno.EISDIR, "exists and is a directory (a file goes there; "
                                        "not replaced)", p)
        for p, t in tmps.items():
            try:
                os.replace(t, p)
            except OSError as e:
                raise OSError(e.errno, e.strerror, p) from None
    except BaseException:
        for t in tmps.values():
            remove(t)
        raise


@contextlib.contextmanager
def files(directory: str, names: Sequence[str]) -> Iterator[dict[str, str]]:
    """{name: temporary path} for files of `directory`, all renamed into place or none
    (all_or_none)."""
    with all_or_none([os.path.join(directory, n) for n in names]) as tmps:
        yield {n: tmps[os.path.join(directory, n)] for n in names}


def withdraw(path: str) -> None:
    """Remove an output (a file or a whole directory) at once: renamed to a temporary, then
    removed (a kill mid-way leaves a temporary that cleanup_stale removes, never half of it)."""
    if os.path.lexists(path):
        gone = temp_path(path)
        os.rename(path, gone)
        remove(gone)


def inside(path: str, directory: str) -> bool:
    """Whether `path` is `directory` or lies inside it (both resolved)."""
    p, d = os.path.realpath(path), os.path.realpath(directory)
    return p == d or p.startswith(d.rstrip(os.sep) + os.sep)


def redirect(path: str, exp_dir: str, out: str, owned: Sequence[str]) -> str:
    """Where a run writing into the temporary exp dir `out` must write the file `path`: inside
    `out` when `path` lies in an output of `exp_dir` the run replaces whole (owned), else `path`
    (so `--summary <exp>/scores/summary.json` is published with the scores, not lost)."""
    for name in owned:
        if "/" in name or any(c in name for c in "*?["):
            continue
        if inside(path, os.path.join(exp_dir, name)):
            rel = os.path.relpath(os.path.realpath(path), os.path.realpath(exp_dir))
            return os.path.join(out, rel)
    return path
