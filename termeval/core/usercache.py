"""The user's cache of termeval: content-keyed stores that a later run reads instead of
preparing or parsing the same input again (zrc's prepared gold, zrc2020's parsed gold arrays).

  base()       the cache directory: $TERMEVAL_CACHE_DIR, else $XDG_CACHE_HOME/termeval (an
               absolute XDG_CACHE_HOME), else ~/.cache/termeval; None when TERMEVAL_CACHE_DIR is
               empty or `none`, or when there is no usable home (HOME empty, relative or the
               file-system root: one `note:` line per process, never a cache at /.cache)
  root(name)   <base>/<name>, the directory of the store `name` (None: no store); an
               InputError when the cache directory is, holds or lies inside an input or an
               output of the running step (`guarding`)
  guarding(step, inputs, outputs, uses)   context: the paths of the run (the driver's, a
               zrc submission's) that root() checks the cache directory against (at once when
               the run uses the cache: a stage with `user_cache = True`)
  code_key(*packages)   a digest of the source of termeval's packages named (an entry made by
               other code is never used)
  prune(dir, pattern, keep)   all but the `keep` newest entries of `dir` whose names match
               `pattern` (the store's own entry names, nothing else) removed

A store is only a cache: every entry is keyed on the content it was made from, written whole
(temporary, rename) and checked when read; one that cannot be read or written is not used, one
that fails its check is made again (a `note:` line). The cache deletes only entries it wrote:
names matching its own pattern, in its own store directory -- never a file it did not name
(`TERMEVAL_CACHE_DIR=data` beside `data/gold` can no longer delete the gold).
"""
from __future__ import annotations

import contextlib
import contextvars
import os
import re
from typing import Iterable, Iterator

from termeval.core import publish
from termeval.core.digest import content_digest
from termeval.core.errors import InputError
from termeval.core.warn import note

ENV = "TERMEVAL_CACHE_DIR"
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))     # termeval/
_code_keys: dict[tuple[str, ...], str] = {}
_noted: set[str] = set()
# (step, inputs, outputs) of the runs in progress in this context (the driver nests a zrc2020
# run inside a zrc submission's: both are checked)
_running: contextvars.ContextVar[tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]] = \
    contextvars.ContextVar("termeval_usercache_running", default=())


def _usable_home() -> str | None:
    home = os.environ["HOME"] if "HOME" in os.environ else os.path.expanduser("~")
    if not home or not os.path.isabs(home) or os.path.realpath(home) == os.path.realpath(os.sep):
        return None
    return home


def note_once(key: str, message: str) -> None:
    """One `note:` line per process for `key`."""
    if key not in _noted:
        _noted.add(key)
        note(None, message)


def base() -> str | None:
    """The cache directory (see the module doc); None: no cache."""
    given = os.environ.get(ENV)
    if given is not None:
        return None if given.strip() in ("", "none") else given
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        return os.path.join(xdg, "termeval")
    home = _usable_home()
    if home is None:
        shown = repr(os.environ.get("HOME", ""))
        note_once("home", f"no cache of parsed inputs: no usable home directory (HOME={shown}) and no "
                          f"XDG_CACHE_HOME; set {ENV} to a directory of its own to keep them between runs")
        return None
    return os.path.join(home, ".cache", "termeval")


def _real(path: str) -> str:
    return os.path.realpath(os.path.abspath(path))


def _related(a: str, b: str) -> bool:
    """Whether a is b, lies inside b or holds b (resolved paths)."""
    return a == b or a.startswith(b.rstrip(os.sep) + os.sep) or b.startswith(a.rstrip(os.sep) + os.sep)


def _check(directory: str) -> None:
    real = _real(directory)
    for step, inputs, outputs in _running.get():
        for kind, paths in (("input", inputs), ("output", outputs)):
            for p in paths:
                if _related(real, _real(p)):
                    shown = f"{ENV}={directory}" if os.environ.get(ENV) is not None else directory
                    raise InputError(f"the cache directory {shown} is, holds or lies inside the {kind} {p} of "
                                     f"{step}: the cache writes and prunes its entries there; set {ENV} to "
                                     "a directory of its own (or none)")


def root(name: str) -> str | None:
    """The directory of the store `name` (see the module doc), None when switched off."""
    b = base()
    if b is None:
        return None
    _check(b)
    return os.path.join(b, name)


@contextlib.contextmanager
def guarding(step: str, inputs: Iterable[object], outputs: Iterable[object], uses: bool = False) -> Iterator[None]:
    """While the block runs, root() refuses a cache directory that is, holds or lies inside one
    of `inputs` or `outputs` (paths; None, '' and '-' ignored). uses: the run uses the cache
    (zrc2020, zrc submissions): checked now, before anything is written, even when this
    process's memo would never consult the cache."""
    def paths(xs: Iterable[object]) -> tuple[str, ...]:
        return tuple(os.fspath(x) for x in xs if x is not None and os.fspath(x) not in ("", "-"))  # type: ignore[arg-type]
    token = _running.set(_running.get() + ((step, paths(inputs), paths(outputs)),))
    try:
        if uses:
            b = base()
            if b is not None:
                _check(b)
        yield
    finally:
        _running.reset(token)


def code_key(*packages: str) -> str:
    """Digest of the .py files of termeval's `packages` ("core", "gold", "tde/zrc2020", ...)."""
    key = _code_keys.get(packages)
    if key is None:
        files = [os.path.join(PACKAGE, p, n) for p in packages
                 for n in sorted(os.listdir(os.path.join(PACKAGE, p))) if n.endswith(".py")]
        key = _code_keys[packages] = content_digest(files)
    return key


def prune(directory: str, pattern: re.Pattern[str], keep: int) -> None:
    """Remove all but the `keep` most recently written entries of `directory` whose names match
    `pattern` whole (the store's own entry names: nothing else there is ever removed;
    temporaries of live runs are left alone)."""
    try:
        mine = [e for e in os.scandir(directory) if pattern.fullmatch(e.name)]
        mine.sort(key=lambda e: e.stat(follow_symlinks=False).st_mtime_ns, reverse=True)
    except OSError:
        return
    for e in mine[keep:]:
        publish.remove(e.path)
