"""A directory of .npy arrays keyed on content, written atomically: what a step saves once for
its `--nj` jobs to memory-map (zrc2020/classcache.py, zr2015/store.py).

The key (a digest of the inputs and settings the arrays come from) is written to `key`; a
directory whose key differs is never used, nor one whose files are no longer what was saved
(`manifest`: the digest of each file, checked by `key_matches`; a `note:` line, then the
caller prepares again). The arrays are written into a temporary directory
beside `path` and renamed into place, so a process killed mid-way leaves no directory under
that name (a stale temporary one is ignored); when another process put its copy there
meanwhile, that copy (same key: same content) is kept.

`write_npz` writes one compressed .npz file (the per-unit tables of units/), faster than
numpy's savez_compressed.
"""
from __future__ import annotations

import hashlib
import os
import zipfile
from typing import IO, Mapping

import numpy as np

from termeval.core import publish
from termeval.core.warn import note

KEY_FILE = "key"
MANIFEST_FILE = "manifest"      # `<digest> <file name>` of every file saved: checked when used


def write_npz(f: IO[bytes], arrays: Mapping[str, np.ndarray]) -> None:
    """A compressed .npz, as numpy.load reads it, deflated at level 1: numpy's savez_compressed
    uses level 6, about five times the CPU for some 12 % fewer bytes on termeval's tables."""
    with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for name, a in arrays.items():
            with z.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(a), allow_pickle=False)


def array_digest(arrays: Mapping[str, np.ndarray]) -> str:
    """A digest of arrays: each one's name, dtype, shape and bytes (what a cache entry records
    so that one with the right key but other content -- truncated, other shapes -- is not used)."""
    h = hashlib.blake2b(digest_size=16)
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}\0{a.dtype.str}\0{a.shape}\0".encode())
        h.update(memoryview(a.reshape(-1).view(np.uint8)) if a.size else b"")
    return h.hexdigest()


def _file_digest(path: str) -> str:
    h = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def key_matches(path: str, key: str) -> bool:
    """Whether `path` holds a directory saved under `key` whose files are still what `save`
    wrote (their digests, in MANIFEST_FILE). A directory with the key but other content
    (truncated, edited, other shapes) is not used: a `note:` line, and the caller makes it again;
    one without a manifest (an older termeval's) is not used either, silently."""
    try:
        with open(os.path.join(path, KEY_FILE), encoding="utf-8") as f:
            if f.read().strip() != key:
                return False
        with open(os.path.join(path, MANIFEST_FILE), encoding="utf-8") as f:
            manifest = [line.split(" ", 1) for line in f.read().splitlines()]
    except OSError:
        return False
    try:
        for digest, name in manifest:
            if "/" in name or _file_digest(os.path.join(path, name)) != digest:
                why = f"{name} is not what was saved"
                break
        else:
            return True
    except (OSError, ValueError) as e:
        why = f"{type(e).__name__}: {e}"
    note(None, f"{path}: saved arrays fail their check ({why}): made again")
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
        names = [n + ".npy" for n in arrays] + list(texts or {})
        with open(os.path.join(tmp, MANIFEST_FILE), "w", encoding="utf-8") as f:
            f.write("".join(f"{_file_digest(os.path.join(tmp, n))} {n}\n" for n in names))
        with open(os.path.join(tmp, KEY_FILE), "w", encoding="utf-8") as f:
            f.write(key + "\n")
        # another process that put its copy there meanwhile (same key: same content) wins
        publish.replace(tmp, path, keep_existing=True)
    except BaseException:
        publish.remove(tmp)
        raise
