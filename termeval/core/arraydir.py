"""A directory of .npy arrays keyed on content, written atomically: what a step saves once for
its `--nj` jobs to memory-map (zrc2020/classcache.py, zr2015/store.py).

The key (a digest of the inputs and settings the arrays come from) is written to `key`; a
directory whose key differs is never used. The arrays are written into a temporary directory
beside `path` and renamed into place, so a process killed mid-way leaves no directory under
that name (a stale temporary one is ignored); when another process put its copy there
meanwhile, that copy (same key: same content) is kept.

`write_npz` writes one compressed .npz file (the per-unit tables of units/), faster than
numpy's savez_compressed.
"""
from __future__ import annotations

import os
import zipfile
from typing import IO, Mapping

import numpy as np

from termeval.core import publish

KEY_FILE = "key"


def write_npz(f: IO[bytes], arrays: Mapping[str, np.ndarray]) -> None:
    """A compressed .npz, as numpy.load reads it, deflated at level 1: numpy's savez_compressed
    uses level 6, about five times the CPU for some 12 % fewer bytes on termeval's tables."""
    with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for name, a in arrays.items():
            with z.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(a), allow_pickle=False)


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
    tmp = publish.new_dir(path)
    try:
        for n, a in arrays.items():
            np.save(os.path.join(tmp, n + ".npy"), a)
        for n, text in (texts or {}).items():
            with open(os.path.join(tmp, n), "w", encoding="utf-8") as f:
                f.write(text)
        with open(os.path.join(tmp, KEY_FILE), "w", encoding="utf-8") as f:
            f.write(key + "\n")
        # another process that put its copy there meanwhile (same key: same content) wins
        publish.replace(tmp, path, keep_existing=True)
    except BaseException:
        publish.remove(tmp)
        raise
