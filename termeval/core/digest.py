"""The one content digest: what a cache, a stamp or a data identity is keyed on (prepared
classes, zrc2020 gold and class caches, zr2015 prepared folds, the API's prepared inputs,
bootstrap unit tables' data identity): the bytes of files (a directory: its files, by relative
path) and the settings they are read with. A key whose format changes carries a new version in
its settings, so an old cache is rebuilt, never trusted wrongly."""
from __future__ import annotations

import hashlib
import json
import os
from typing import Iterable, Mapping


def _update_file(h, path: str) -> None:
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)


def content_digest(paths: Iterable[str], settings: Mapping | None = None, *, algorithm: str = "blake2b",
                   missing_ok: bool = True) -> str:
    """Hex digest of the base name and bytes of each of `paths` (in the order given; a
    directory: each of its files' relative path and bytes, sorted; a missing file counts as
    such unless missing_ok is False: FileNotFoundError) and of `settings` (JSON, sorted keys).
    algorithm: blake2b (16 bytes, the caches) or sha256 (bootstrap data identities)."""
    h = hashlib.blake2b(digest_size=16) if algorithm == "blake2b" else hashlib.new(algorithm)
    for p in paths:
        p = os.fspath(p)
        h.update(os.path.basename(p).encode() + b"\0")
        if os.path.isdir(p):
            h.update(b"\0dir")
            for root, dirs, names in os.walk(p):
                dirs.sort()
                for n in sorted(names):
                    f = os.path.join(root, n)
                    h.update(os.path.relpath(f, p).encode() + b"\0")
                    _update_file(h, f)
                    h.update(b"\1")
        else:
            try:
                _update_file(h, p)
            except FileNotFoundError:
                if not missing_ok:
                    raise
                h.update(b"\0missing")
        h.update(b"\0")
    h.update(json.dumps(dict(settings or {}), sort_keys=True).encode())
    return h.hexdigest()
