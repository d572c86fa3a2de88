"""Confidence intervals of the fold means of --benchmark zr2015 / zr2017 (docs/uncertainty.md).

The reported `cross_<metric>` / `within_<metric>` is a mean over folds of per-fold metrics,
after the tools' cleaning (termeval.zr2015.aggregate: NaN folds dropped, F per fold, defaults
when no fold is left). Each fold contributes per-unit statistics (termeval.zr2015.evaluate
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

import math
from dataclasses import dataclass

import numpy as np

from termeval.bootstrap.engine import UnitStats, draw_weights, evaluate, percentile_ci

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
        if "coverage" in v:        # termeval.zr2015.coverage.coverage's NaN rules
            num, den = S[:, :, cols.index("cov_num")], S[:, :, cols.index("cov_den")]
            bad = (np.abs(den) <= 1e-8) | (np.abs(num) <= 1e-8) if t.mode == "zr2015" \
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
