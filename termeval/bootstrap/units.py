"""Per-unit statistics on disk and the identity of the scored data.

`exp/<sys>/units/units.<stage>.npz` holds one UnitStats table (ids, columns, matrix, metric
definitions, exact values); scoring writes it always (it is small), so systems can be
compared later without re-scoring. `data_identity` hashes the reference files and the
scoring settings; it is stored in scores.json (`data_id`) and steps/compare_systems.sh
refuses systems whose identities differ.
"""
from __future__ import annotations

import json
import os
import zipfile
import zlib
from typing import Iterable, Mapping

import numpy as np

from termeval.bootstrap.cells import Cells
from termeval.bootstrap.engine import UnitStats, full_values
from termeval.core.arraydir import write_npz
from termeval.core.digest import content_digest
from termeval.core.errors import InputError
from termeval.core.textio import atomic_write


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
        write_npz(f, {"ids": np.asarray(us.ids, dtype=str), "X": us.X,
                      "meta": np.asarray(json.dumps(meta, allow_nan=False)), **arrays})


def _spec(v):
    """JSON lists back to the tuples the metric definitions are written with."""
    return tuple(_spec(x) for x in v) if isinstance(v, list) else v


# what numpy, zipfile, zlib and json raise on a truncated or altered .npz (BadZipFile, EOFError,
# zlib.error, JSONDecodeError; NotImplementedError or RuntimeError from zipfile for an altered
# compression or encryption flag), or our
# checks below on a table of the wrong shape or types
BROKEN = (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError, EOFError,
          NotImplementedError, RuntimeError, zipfile.BadZipFile, zlib.error)


# Per-unit statistics are counts, seconds or sums of NEDs: beyond 2^53 they are neither exact
# nor plausible, and their resampled sums would overflow.
MAX_STAT = float(2 ** 53)


def load_units(path: str) -> UnitStats:
    """One saved table, checked whole (shapes, types, finite values, metric definitions that
    evaluate): a truncated or altered file is one InputError naming it, never a traceback."""
    import scipy.sparse as sp   # only where needed: import termeval stays light
    if not os.path.isfile(path):
        raise InputError("no per-unit statistics (score the system with this termeval version)", path)
    try:
        with np.load(path, allow_pickle=False) as z:
            ids, X, meta = z["ids"], z["X"], json.loads(str(z["meta"]))
            cells = None
            if "c_data" in z:
                if any(z[k].dtype.kind not in "iu" for k in ("c_indices", "c_indptr", "c_shape", "c_row", "c_col")):
                    raise ValueError("contingency cell indices are not integers")
                if any(z[k].ndim != 1 or z[k].dtype.kind != "U" for k in ("c_labels", "c_clusters")):
                    raise ValueError("contingency labels or clusters are not a list of names")
                cx = sp.csr_matrix((z["c_data"], z["c_indices"], z["c_indptr"]), shape=tuple(z["c_shape"]))
                cells = Cells(cx, z["c_row"], z["c_col"], z["c_labels"].tolist(), z["c_clusters"].tolist(),
                              z["c_visit"] if "c_visit" in z else None)
        us = checked_units(meta, ids, X, cells)
    except BROKEN as e:
        raise InputError(f"unreadable per-unit statistics ({type(e).__name__}: {e}); re-score this system",
                         path) from None
    return us


def _strings(x, what: str) -> list[str]:
    if not isinstance(x, list) or not all(isinstance(v, str) for v in x) or len(set(x)) != len(x):
        raise ValueError(f"{what} are not distinct names")
    return x


def checked_units(meta, ids: np.ndarray, X: np.ndarray, cells: Cells | None) -> UnitStats:
    """A UnitStats from a file's parts, or ValueError/TypeError saying what is inconsistent."""
    if not isinstance(meta, dict) or not isinstance(meta.get("unit"), str):
        raise ValueError("no unit in the metadata")
    if ids.ndim != 1 or ids.dtype.kind != "U":
        raise ValueError("the unit ids are not a list of names")
    ids_list = _strings(ids.tolist(), "the unit ids")
    columns = _strings(meta.get("columns"), "the columns")
    if X.ndim != 2 or X.dtype.kind not in "fiu" or X.shape != (len(ids_list), len(columns)):
        raise ValueError(f"the statistics are not a {len(ids_list)} x {len(columns)} table of numbers")
    if not (np.isfinite(X).all() and np.all(np.abs(X) <= MAX_STAT)):
        raise ValueError(f"non-finite statistics or beyond {MAX_STAT:.0f}")
    metrics, exact = meta.get("metrics"), meta.get("exact")
    if not isinstance(metrics, dict) or not isinstance(exact, dict) or not all(
            isinstance(v, list) and v and isinstance(v[0], str) for v in metrics.values()):
        raise ValueError("no metric definitions")
    if not all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) <= MAX_STAT)
               for v in exact.values()):
        raise ValueError("the exact values are not numbers of a plausible size")
    if cells is not None:
        M = len(cells.row)
        if (cells.X.shape != (len(ids_list), M) or len(cells.col) != M or not np.isfinite(cells.X.data).all()
                or np.any(cells.X.data < 0) or np.any(cells.X.data > MAX_STAT)   # segment counts
                or (M and (cells.row.min() < 0 or cells.row.max() >= len(cells.labels)
                           or cells.col.min() < 0 or cells.col.max() >= len(cells.clusters)))):
            raise ValueError("inconsistent contingency cells")
        if cells.visit is not None and (cells.visit.dtype != bool or cells.visit.shape != (len(cells.clusters),)):
            raise ValueError("inconsistent visited clusters")
    us = UnitStats(meta["unit"], ids_list, columns, X.astype(np.float64),
                   {k: _spec(v) for k, v in metrics.items()}, exact, cells)
    with np.errstate(all="ignore"):
        full_values(us)            # every metric definition names existing columns and kinds
    return us


def data_identity(files: Iterable[str], settings: Mapping) -> str:
    """sha256 over the contents of the reference files (by basename) and the settings (the one
    digest, termeval.core.digest; 16 hex digits)."""
    return content_digest(sorted(files, key=os.path.basename), settings, algorithm="sha256",
                          missing_ok=False)[:16]
