"""A directory of .npy arrays keyed on content, written atomically: what a step saves once for
its `--nj` jobs to memory-map (zrc2020/classcache.py, zr2015/store.py).

The key (a digest of the inputs and settings the arrays come from) is written to `key`; a
directory whose key differs is never used. The arrays are written into a temporary directory
beside `path` and renamed into place, so a process killed mid-way leaves no directory under
that name (a stale temporary one is ignored); when another process put its copy there
meanwhile, that copy (same key: same content) is kept.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from typing import Mapping

import numpy as np

KEY_FILE = "key"


def key_matches(path: str, key: str) -> bool:
    """Whether `path` holds a directory saved under `key`."""
    try:
        with open(os.path.join(path, KEY_FILE), encoding="utf-8") as f:
            return f.read().strip() == key
    except OSError:
        return False


def save(path: str, arrays: Mapping[str, np.ndarray], key: str, texts: Mapping[str, str] | None = None) -> None:
    """Write `arrays` (name -> array, as <name>.npy), the text files `texts` (name -> content)
    and the key to the directory `path`, atomically."""
    parent = os.path.dirname(os.path.abspath(path))
    name = os.path.basename(os.path.abspath(path))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=f".{name}.", dir=parent)
    try:
        for n, a in arrays.items():
            np.save(os.path.join(tmp, n + ".npy"), a)
        for n, text in (texts or {}).items():
            with open(os.path.join(tmp, n), "w", encoding="utf-8") as f:
                f.write(text)
        with open(os.path.join(tmp, KEY_FILE), "w", encoding="utf-8") as f:
            f.write(key + "\n")
        old = None
        if os.path.lexists(path):
            old = tempfile.mkdtemp(prefix=f".{name}-old.", dir=parent)
            with contextlib.suppress(FileNotFoundError):
                os.rename(path, os.path.join(old, name))
        try:
            os.rename(tmp, path)
        except OSError:      # another process put its copy there meanwhile: content-keyed, keep it
            shutil.rmtree(tmp, ignore_errors=True)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
