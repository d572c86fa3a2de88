"""Per-unit statistics on disk and the identity of the scored data.

`exp/<sys>/units/units.<stage>.npz` holds one UnitStats table (ids, columns, matrix, metric
definitions, exact values); scoring writes it always (it is small), so systems can be
compared later without re-scoring. `data_identity` hashes the reference files and the
scoring settings; it is stored in scores.json (`data_id`) and steps/compare_systems.sh
refuses systems whose identities differ.
"""
from __future__ import annotations

import hashlib
import json
import os
from typing import Iterable, Mapping

import numpy as np

from termeval.bootstrap.engine import UnitStats
from termeval.errors import InputError
from termeval.textio import atomic_write


def units_path(exp_dir: str, stage: str) -> str:
    # not under scores/: that folder holds only text score files (grep, summaries)
    return os.path.join(exp_dir, "units", f"units.{stage}.npz")


def save_units(path: str, us: UnitStats) -> None:
    meta = {"unit": us.unit, "columns": us.columns, "metrics": {k: list(v) for k, v in us.metrics.items()},
            "exact": {k: (None if v is None else float(v)) for k, v in us.exact.items()}}
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with atomic_write(path, "wb") as f:
        np.savez_compressed(f, ids=np.asarray(us.ids, dtype=str), X=us.X,
                            meta=np.asarray(json.dumps(meta, allow_nan=False)))


def _spec(v):
    """JSON lists back to the tuples the metric definitions are written with."""
    return tuple(_spec(x) for x in v) if isinstance(v, list) else v


def load_units(path: str) -> UnitStats:
    if not os.path.isfile(path):
        raise InputError("no per-unit statistics (score the system with this termeval version)", path)
    try:
        with np.load(path, allow_pickle=False) as z:
            ids, X, meta = z["ids"].tolist(), z["X"], json.loads(str(z["meta"]))
    except (OSError, ValueError, KeyError) as e:
        raise InputError(f"unreadable per-unit statistics ({e})", path) from None
    return UnitStats(meta["unit"], ids, meta["columns"], X,
                     {k: _spec(v) for k, v in meta["metrics"].items()}, meta["exact"])


def data_identity(files: Iterable[str], settings: Mapping) -> str:
    """sha256 over the contents of the reference files (by basename) and the settings."""
    h = hashlib.sha256()
    for p in sorted(files, key=os.path.basename):
        h.update(os.path.basename(p).encode() + b"\0")
        with open(p, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        h.update(b"\0")
    h.update(json.dumps(dict(settings), sort_keys=True).encode())
    return h.hexdigest()[:16]
