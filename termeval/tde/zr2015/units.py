"""Confidence intervals of the fold means of --benchmark zr2015 / zr2017 (docs/uncertainty.md).

The reported `cross_<metric>` / `within_<metric>` is a mean over folds of per-fold metrics,
after the tools' cleaning (termeval.tde.zr2015.aggregate: NaN folds dropped, F per fold, defaults
when no fold is left). Each fold contributes per-unit statistics (termeval.tde.zr2015.evaluate
score_fold(units=...)) on two tables:
  class  (discovered classes)   NED sum and pairs; grouping surrogate counts
  file   (recordings, or their speakers with --bootstrap-unit speaker)   covered seconds of
         the discovered and the gold n-gram fragments, token, type and boundary counts
A table is a (units x folds x columns) array. One replicate draws multinomial unit weights
once and applies them to every fold of both fold sets (a unit's weight is the same in every
fold), recomputes each fold's metric from its weighted sums, and the fold mean with the same
cleaning. As in termeval.bootstrap.engine, replicates are centred on the exact reported value:
theta* = exact + r(w) - r(1); r(1) = exact (to rounding) where the decomposition is exact.
The random stream of a table depends on the seed only; the statistics are ordered by unit id,
so the intervals do not depend on --nj.
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field

import numpy as np

from termeval.bootstrap.engine import (
    UnitStats, draw_swaps, draw_weights, evaluate, paired_summary, percentile_ci)
from termeval.bootstrap.units import BROKEN, MAX_STAT
from termeval.core.arraydir import write_npz
from termeval.core.errors import InputError
from termeval.core.textio import atomic_write
from termeval.tde.benchmarks import ZR15_MODES, zr15

COLUMNS = {"class": ["ned_sum", "ned_pairs", "grp_i", "grp_p", "grp_g"],
           "file": ["cov_num", "cov_den", "tok_hit", "tok_disc", "tok_gold", "type_hit", "type_seen",
                    "type_gold", "bnd_dhit", "bnd_disc", "bnd_ghit", "bnd_gold"]}
FOLD_METRICS = {
    "class": {"ned": ("ratio", "ned_sum", "ned_pairs"),
              "grouping_precision": ("ratio", "grp_i", "grp_p"),
              "grouping_recall": ("ratio", "grp_i", "grp_g")},
    "file": {"coverage": ("ratio", "cov_num", "cov_den"),
             "token_precision": ("ratio", "tok_hit", "tok_disc"), "token_recall": ("ratio", "tok_hit", "tok_gold"),
             "type_precision": ("ratio", "type_hit", "type_seen"), "type_recall": ("ratio", "type_hit", "type_gold"),
             "boundary_precision": ("ratio", "bnd_dhit", "bnd_disc"),
             "boundary_recall": ("ratio", "bnd_ghit", "bnd_gold")}}
PR_FAMILIES = {"class": ("grouping",), "file": ("token", "type", "boundary")}
ONE = {"class": {"ned": 1.0}, "file": {"coverage": 0.0}}      # defaults of aggregate_one
EXACT = ("ned", "coverage", "token_precision", "token_recall", "token_fscore", "boundary_precision",
         "boundary_recall", "boundary_fscore")                  # exactly decomposable fold metrics
SETS = ("cross", "within")


def pack(units: dict) -> dict:
    """score_fold's {table: {column: (ids, values)}} -> JSON-able {table: {"ids", "X"}}, rows
    ordered by id, columns in COLUMNS order (absent columns 0)."""
    out = {}
    for table, cols in units.items():
        names = COLUMNS[table]
        ids = np.unique(np.concatenate([np.asarray(i, np.int64) for i, _ in cols.values()])) \
            if cols else np.zeros(0, np.int64)
        X = np.zeros((len(ids), len(names)))
        for c, (i, v) in cols.items():
            np.add.at(X[:, names.index(c)], np.searchsorted(ids, np.asarray(i, np.int64)), v)
        out[table] = {"ids": ids.tolist(), "X": X.tolist()}
    return out


@dataclass
class FoldUnits:
    """One table: X[s] is the (units x folds x columns) array of fold set s."""
    unit: str                       # class, file, speaker
    table: str                      # class | file (its columns and fold metrics)
    ids: list[str]
    X: dict[str, np.ndarray]
    mode: str                       # zr2015 | zr2017 (coverage's NaN rule)
    exact: dict[str, float | None] = field(default_factory=dict)   # reported fold means (saved tables)


def build(table: str, unit: str, ids: list[str], owner: np.ndarray, packed: dict[str, list[dict | None]],
          mode: str, keep_empty: bool = True) -> FoldUnits:
    """The table from the packed folds (packed[s][i] = pack(...)[table] of fold i, None if the
    fold was not scored); owner maps a global index (class or file) to its unit row."""
    K = len(COLUMNS[table])
    X = {}
    for s, folds in packed.items():
        A = np.zeros((len(ids), len(folds), K))
        for i, fp in enumerate(folds):
            if fp and fp["ids"]:
                np.add.at(A[:, i, :], owner[np.asarray(fp["ids"], np.int64)], np.asarray(fp["X"], np.float64))
        X[s] = A
    t = FoldUnits(unit, table, list(ids), X, mode)
    if not keep_empty:          # classes without a pair in any fold carry nothing
        used = np.zeros(len(ids), bool)
        for A in X.values():
            used |= np.abs(A).reshape(len(ids), -1).sum(axis=1) > 0
        t = FoldUnits(unit, table, [x for x, u in zip(ids, used) if u], {s: A[used] for s, A in X.items()}, mode)
    return t


def _fscore(p: np.ndarray, r: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1.0), 0.0)


def _mean(x: np.ndarray, ok: np.ndarray, default: float) -> np.ndarray:
    n = ok.sum(axis=1)
    s = np.where(ok, x, 0.0).sum(axis=1)
    return np.where(n > 0, s / np.maximum(n, 1), default)


def fold_means(t: FoldUnits, sums: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Resampled sums {set: (B, folds, K)} -> {set_metric: (B,)} with the tools' cleaning."""
    cols = COLUMNS[t.table]
    spec = UnitStats(t.unit, [], cols, np.zeros(0), dict(FOLD_METRICS[t.table]))
    out = {}
    for s, S in sums.items():
        B, F, K = S.shape
        if F == 0:
            continue
        v = {k: x.reshape(B, F) for k, x in evaluate(spec, S.reshape(B * F, K)).items()}
        if "coverage" in v:        # termeval.tde.zr2015.coverage.coverage's NaN rules
            num, den = S[:, :, cols.index("cov_num")], S[:, :, cols.index("cov_den")]
            bad = (np.abs(den) <= 1e-8) | (np.abs(num) <= 1e-8) if zr15(t.mode).coverage_nan_near_zero \
                else ((num < 1e-8) & (den < 1e-8)) | (den == 0)
            v["coverage"] = np.where(bad, np.nan, v["coverage"])
        for fam in PR_FAMILIES[t.table]:
            p, r = v[f"{fam}_precision"], v[f"{fam}_recall"]
            ok = np.isfinite(p) & np.isfinite(r)
            none = ~ok.any(axis=1)
            out[f"{s}_{fam}_precision"] = np.where(none, 0.0, _mean(p, ok, 0.0))
            out[f"{s}_{fam}_recall"] = np.where(none, 0.0, _mean(r, ok, 0.0))
            out[f"{s}_{fam}_fscore"] = _mean(_fscore(p, r), ok, 0.0)
        for m, default in ONE[t.table].items():
            out[f"{s}_{m}"] = _mean(v[m], np.isfinite(v[m]), default)
    return out


def full_values(t: FoldUnits) -> dict[str, float]:
    """r(1): the fold means recomputed from the unit tables with weight 1."""
    return {k: float(x[0]) for k, x in fold_means(t, {s: A.sum(axis=0)[None] for s, A in t.X.items()}).items()}


def resample(t: FoldUnits, exact: dict[str, float | None], n: int, seed: int) -> dict[str, np.ndarray]:
    """n centred replicates of every fold mean in `exact` that this table resamples."""
    rng = np.random.default_rng(seed)
    base = full_values(t)
    keys = [k for k in base if exact.get(k) is not None and math.isfinite(exact[k])]
    flat = {s: A.reshape(len(t.ids), -1) for s, A in t.X.items()}
    parts: dict[str, list[np.ndarray]] = {k: [] for k in keys}
    for w in draw_weights(rng, len(t.ids), n):
        sums = {s: (w @ M).reshape(len(w), *t.X[s].shape[1:]) for s, M in flat.items()}
        v = fold_means(t, sums)
        for k in keys:
            parts[k].append(exact[k] + (v[k] - base[k]))
    return {k: np.concatenate(p) if p else np.zeros(0) for k, p in parts.items()}


def bootstrap_ci(tables: list[FoldUnits], exact: dict, n: int, seed: int, level: float) -> dict[str, dict]:
    """{set_metric: {"lo", "hi", "level", "unit", "units", "n", "seed"}} over all tables."""
    out = {}
    for t in tables:
        for k, v in resample(t, exact, n, seed).items():
            ci = percentile_ci(v, level)
            out[k] = {"lo": None if ci is None else ci[0], "hi": None if ci is None else ci[1],
                      "level": level, "unit": t.unit, "units": len(t.ids), "n": n, "seed": seed,
                      "exact_decomposition": k.split("_", 1)[1] in EXACT}
    return out


# --- saved tables and paired comparison (steps/compare_systems.sh) -------------------------
# The file/speaker table is shared by every system scored on the same data dir and folds, so it
# is saved as exp/<sys>/units/units.tde15_file.npz. The class table is not: discovered classes
# differ between systems, so NED and grouping are not paired (and not compared).

def save_table(path: str, t: FoldUnits) -> None:
    meta = {"unit": t.unit, "table": t.table, "mode": t.mode, "sets": list(t.X),
            "exact": {k: (float(v) if v is not None and math.isfinite(v) else None) for k, v in t.exact.items()}}
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with atomic_write(path, "wb") as f:
        write_npz(f, {"ids": np.asarray(t.ids, dtype=str), "meta": np.asarray(json.dumps(meta)),
                      **{f"X_{s}": A for s, A in t.X.items()}})


def load_table(path: str) -> FoldUnits:
    """One saved fold table, checked whole: a truncated or altered file is one InputError."""
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            if not isinstance(meta, dict) or not isinstance(meta.get("sets"), list):
                raise ValueError("no fold sets in the metadata")
            X = {s: np.asarray(z[f"X_{s}"], np.float64) for s in meta["sets"]}
            ids = z["ids"]
        if ids.ndim != 1 or ids.dtype.kind != "U" or len(set(ids.tolist())) != len(ids):
            raise ValueError("the unit ids are not distinct names")
        if meta.get("table") not in COLUMNS or meta.get("mode") not in ZR15_MODES \
                or not isinstance(meta.get("unit"), str) or not isinstance(meta.get("exact"), dict):
            raise ValueError("unknown table, mode or unit")
        K = len(COLUMNS[meta["table"]])
        if set(meta["sets"]) != set(SETS) or any(
                A.ndim != 3 or A.shape[0] != len(ids) or A.shape[2] != K or not np.isfinite(A).all()
                or np.any(np.abs(A) > MAX_STAT)
                for A in X.values()):
            raise ValueError("the fold statistics are not a units x folds x columns table of numbers")
        if not all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) <= MAX_STAT)
                   for v in meta["exact"].values()):
            raise ValueError("the exact values are not numbers")
        t = FoldUnits(meta["unit"], meta["table"], ids.tolist(), X, meta["mode"], meta["exact"])
        with np.errstate(all="ignore"):
            full_values(t)
    except BROKEN as e:
        raise InputError(f"unreadable per-unit fold statistics ({type(e).__name__}: {e}); re-score "
                         "this system", path) from None
    return t


def check_paired(a: FoldUnits, b: FoldUnits) -> None:
    """Same units, table, definitions (zr2015/zr2017) and fold sets of the same sizes."""
    if a.unit != b.unit or a.ids != b.ids:
        raise ValueError(f"the systems do not share their {a.unit} units")
    if a.table != b.table or a.mode != b.mode or {s: x.shape for s, x in a.X.items()} != \
            {s: x.shape for s, x in b.X.items()}:
        raise ValueError("the systems' fold statistics have different tables, definitions or folds")


def _sums(t: FoldUnits, w: np.ndarray, moved: dict | None = None, sign: float = 1.0) -> dict:
    out = {}
    for s, A in t.X.items():
        S = (w @ A.reshape(len(t.ids), -1)) if w is not None else A.sum(axis=0).reshape(1, -1)
        if moved is not None:
            S = S + sign * moved[s]
        out[s] = S.reshape(len(S), *A.shape[1:])
    return out


def paired_test(a: FoldUnits, b: FoldUnits, n: int, seed: int, level: float = 0.95,
                test: str = "bootstrap") -> dict[str, dict]:
    """termeval.bootstrap.engine.paired_test for fold means: one unit weight per replicate for
    both systems and every fold (paired bootstrap, replicates centred on the exact values), or
    approximate randomization swapping a unit's statistics (all its folds) between A and B.
    diff = exact(A) - exact(B); p as in engine.paired_test; identical systems give 0 and p = 1."""
    check_paired(a, b)
    rng = np.random.default_rng(seed)
    ba, bb = full_values(a), full_values(b)
    keys = list(ba)
    diffs: dict[str, list[np.ndarray]] = {k: [] for k in keys}
    perm: dict[str, list[np.ndarray]] = {k: [] for k in keys}
    for w in draw_weights(rng, len(a.ids), n):
        va, vb = fold_means(a, _sums(a, w)), fold_means(b, _sums(b, w))
        for k in keys:
            diffs[k].append((va[k] - ba[k]) - (vb[k] - bb[k]))     # + exact(A) - exact(B) below
    if test == "permutation":
        D = {s: (b.X[s] - a.X[s]).reshape(len(a.ids), -1) for s in a.X}
        for sw in draw_swaps(rng, len(a.ids), n):
            moved = {s: sw @ M for s, M in D.items()}
            va, vb = fold_means(a, _sums(a, None, moved, 1.0)), fold_means(b, _sums(b, None, moved, -1.0))
            for k in keys:
                perm[k].append(va[k] - vb[k])
    elif test != "bootstrap":
        raise ValueError(f"unknown test {test!r} (bootstrap or permutation)")
    out = {}
    for k in keys:
        ea, eb = a.exact.get(k), b.exact.get(k)
        dd = np.concatenate(diffs[k]) if diffs[k] else np.zeros(0)
        if ea is not None and eb is not None:
            dd = dd + (ea - eb)     # deviations centred on the exact difference
        out[k] = paired_summary(ea, eb, dd, ba[k] - bb[k], perm[k], test, level,
                                {"unit": a.unit, "units": len(a.ids), "n": n, "seed": seed})
    return out
