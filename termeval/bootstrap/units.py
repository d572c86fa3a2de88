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

from termeval.bootstrap.cells import Cells
from termeval.bootstrap.engine import UnitStats
from termeval.errors import InputError
from termeval.textio import atomic_write


def units_path(exp_dir: str, stage: str) -> str:
    # not under scores/: that folder holds only text score files (grep, summaries)
    return os.path.join(exp_dir, "units", f"units.{stage}.npz")


def save_units(path: str, us: UnitStats) -> None:
    meta = {"unit": us.unit, "columns": us.columns, "metrics": {k: list(v) for k, v in us.metrics.items()},
            "exact": {k: (None if v is None else float(v)) for k, v in us.exact.items()}}
    arrays = {}
    if us.cells is not None:        # sparse contingency cells per unit (segmentation clusters)
        c = us.cells
        arrays = {"c_data": c.X.data, "c_indices": c.X.indices, "c_indptr": c.X.indptr,
                  "c_shape": np.asarray(c.X.shape), "c_row": c.row, "c_col": c.col,
                  "c_labels": np.asarray(c.labels, dtype=str), "c_clusters": np.asarray(c.clusters, dtype=str)}
        if c.visit is not None:
            arrays["c_visit"] = c.visit
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with atomic_write(path, "wb") as f:
        np.savez_compressed(f, ids=np.asarray(us.ids, dtype=str), X=us.X,
                            meta=np.asarray(json.dumps(meta, allow_nan=False)), **arrays)


def _spec(v):
    """JSON lists back to the tuples the metric definitions are written with."""
    return tuple(_spec(x) for x in v) if isinstance(v, list) else v


def load_units(path: str) -> UnitStats:
    import scipy.sparse as sp   # only where needed: import termeval stays light
    if not os.path.isfile(path):
        raise InputError("no per-unit statistics (score the system with this termeval version)", path)
    try:
        with np.load(path, allow_pickle=False) as z:
            ids, X, meta = z["ids"].tolist(), z["X"], json.loads(str(z["meta"]))
            cells = None
            if "c_data" in z:
                cx = sp.csr_matrix((z["c_data"], z["c_indices"], z["c_indptr"]), shape=tuple(z["c_shape"]))
                cells = Cells(cx, z["c_row"], z["c_col"], z["c_labels"].tolist(), z["c_clusters"].tolist(),
                              z["c_visit"] if "c_visit" in z else None)
    except (OSError, ValueError, KeyError) as e:
        raise InputError(f"unreadable per-unit statistics ({e})", path) from None
    return UnitStats(meta["unit"], ids, meta["columns"], X,
                     {k: _spec(v) for k, v in meta["metrics"].items()}, meta["exact"], cells)


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
