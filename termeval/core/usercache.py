"""The user's cache of termeval: content-keyed stores that a later run reads instead of
preparing or parsing the same input again (zrc's prepared gold, zrc2020's parsed gold arrays).

  root(name)   <cache>/<name>, <cache> being $TERMEVAL_CACHE_DIR, else $XDG_CACHE_HOME/termeval,
               else ~/.cache/termeval; None when TERMEVAL_CACHE_DIR is empty or `none` (no store)
  code_key(*packages)   a digest of the source of termeval's packages named (an entry made by
               other code is never used)
  prune(dir, prefix, keep)   all but the `keep` newest entries of `dir` starting with `prefix` removed

A store is only a cache: every entry is keyed on the content it was made from, written whole
(temporary, rename) and checked when read; one that cannot be read or written is not used.
"""
from __future__ import annotations

import os

from termeval.core import publish
from termeval.core.digest import content_digest

ENV = "TERMEVAL_CACHE_DIR"
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))     # termeval/
_code_keys: dict[tuple[str, ...], str] = {}


def root(name: str) -> str | None:
    """The directory of the store `name` (see the module doc), None when switched off."""
    base = os.environ.get(ENV)
    if base is not None:
        return None if base in ("", "none") else os.path.join(base, name)
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "termeval", name)


def code_key(*packages: str) -> str:
    """Digest of the .py files of termeval's `packages` ("core", "gold", "tde/zrc2020", ...)."""
    key = _code_keys.get(packages)
    if key is None:
        files = [os.path.join(PACKAGE, p, n) for p in packages
                 for n in sorted(os.listdir(os.path.join(PACKAGE, p))) if n.endswith(".py")]
        key = _code_keys[packages] = content_digest(files)
    return key


def prune(directory: str, prefix: str, keep: int) -> None:
    """Remove all but the `keep` most recently written entries of `directory` whose names start
    with `prefix` (temporaries of live runs are left alone)."""
    try:
        mine = [e for e in os.scandir(directory) if e.name.startswith(prefix) and not publish.is_temporary(e.name)]
        mine.sort(key=lambda e: e.stat(follow_symlinks=False).st_mtime_ns, reverse=True)
    except OSError:
        return
    for e in mine[keep:]:
        publish.remove(e.path)
