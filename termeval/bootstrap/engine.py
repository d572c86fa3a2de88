"""Resampling engine: percentile bootstrap CIs, paired bootstrap and approximate randomization
from a matrix of per-unit statistics.

Every termeval metric is a function of sums of per-unit statistics (units x columns). A
bootstrap resample draws U units with replacement, i.e. multinomial counts w (1 x U), and
its sums are w @ X; B resamples are one (B x U) @ (U x K) product, done in fixed-size chunks
so memory stays small. Metrics are declared, not coded, so they can be stored next to the
statistics and re-evaluated by steps/compare_systems.sh:

  ("ratio", num, den)          sum(num) / sum(den), NaN when sum(den) = 0
  ("fscore", p, r)             harmonic mean of two other metrics, 0 when P + R = 0
  ("maxratio", [c1, ...], den) max_j sum(c_j) / sum(den)
  ("lincomb", [[a, num, den], ...])            sum_i a_i sum(num_i) / sum(den_i)   (ATWV)
  ("maxlincomb", [[a, [c1, ...], den], ...])   max_j sum_i a_i sum(c_ij) / sum(den_i)
                                               (MTWV over a threshold grid)
  ("os", p, r) / ("rvalue", p, r)   over-segmentation R/P - 1 and R-value of two other metrics
  ("cells", what)              a cluster metric of the resampled contingency table
                               (UnitStats.cells, termeval.bootstrap.cells)

Each metric also has the exact full-sample value (the score file's value). The resampled
value is centred on it: theta*(w) = exact + r(w) - r(1), where r is the decomposable form
above. For exactly decomposable metrics r(1) = exact (up to float rounding) and this is the
plain bootstrap; for the others (e.g. distinct-type counts) r is a decomposable surrogate
whose variability is used around the exact value (docs/uncertainty.md lists which).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterator, Mapping, Sequence

import numpy as np

from termeval.bootstrap.cells import Cells, align
from termeval.bootstrap import MAX_RESAMPLES, cells
from termeval.core.errors import InputError

CHUNK = 50            # resamples per matrix product (fixed: the random stream does not depend on it)


@dataclass
class UnitStats:
    """Per-unit statistics of one scoring stage, and the metrics defined on their sums."""
    unit: str                          # file, speaker, class, term, query
    ids: list[str]                     # unit ids, in a canonical (sorted) order
    columns: list[str]
    X: np.ndarray                      # (U, K) float64
    metrics: dict[str, tuple]          # name -> spec (see module doc)
    exact: dict[str, float | None] = field(default_factory=dict)
    cells: Cells | None = None         # per-unit contingency cells (segmentation clusters)

    def __post_init__(self) -> None:
        self.X = np.asarray(self.X, dtype=np.float64).reshape(len(self.ids), len(self.columns))

    def col(self, name: str) -> int:
        return self.columns.index(name)

    def sums(self, w: np.ndarray) -> np.ndarray:
        """(B x U) unit weights -> (B x K [+ M cells]) resampled sums."""
        w = np.atleast_2d(w)
        return w @ self.X if self.cells is None else np.c_[w @ self.X, self.cells.sums(w)]

    def full(self):
        """The (U x K [+ M]) statistics, sparse when there are cells."""
        import scipy.sparse as sp   # only where needed: import termeval stays light
        return self.X if self.cells is None else sp.hstack([sp.csr_matrix(self.X), self.cells.X], format="csr")


def evaluate(us: UnitStats, sums: np.ndarray) -> dict[str, np.ndarray]:
    """Metric values for rows of column sums (B x K) -> name -> (B,) array (NaN = undefined)."""
    sums = np.atleast_2d(sums)
    out: dict[str, np.ndarray] = {}
    cv = None
    for name, spec in us.metrics.items():
        kind = spec[0]
        with np.errstate(divide="ignore", invalid="ignore"):
            if kind == "cells":
                if cv is None:
                    cv = cells.values(us.cells, sums[:, len(us.columns):])
                out[name] = cv[spec[1]]
            elif kind in ("os", "rvalue"):
                p, r = out[spec[1]], out[spec[2]]
                os_ = np.where(p != 0, r / np.where(p != 0, p, 1.0) - 1, np.nan)
                if kind == "os":
                    out[name] = os_
                else:       # Räsänen et al. 2009, as termeval.segmentation.rvalue
                    r1 = np.sqrt((1 - r) ** 2 + os_ ** 2)
                    r2 = (-os_ + r - 1) / np.sqrt(2)
                    out[name] = 1 - (np.abs(r1) + np.abs(r2)) / 2
            elif kind == "ratio":
                num, den = sums[:, us.col(spec[1])], sums[:, us.col(spec[2])]
                out[name] = np.where(den != 0, num / np.where(den != 0, den, 1.0), np.nan)
            elif kind == "maxratio":
                idx = [us.col(c) for c in spec[1]]
                den = sums[:, us.col(spec[2])]
                best = sums[:, idx].max(axis=1) if idx else np.full(len(sums), np.nan)
                out[name] = np.where(den != 0, best / np.where(den != 0, den, 1.0), np.nan)
            elif kind in ("lincomb", "maxlincomb"):
                total = 0.0
                for coef, cols, den in spec[1]:
                    d = sums[:, us.col(den)][:, None]
                    idx = [us.col(c) for c in cols] if kind == "maxlincomb" else [us.col(cols)]
                    total = total + coef * np.where(d != 0, sums[:, idx] / np.where(d != 0, d, 1.0), np.nan)
                out[name] = np.max(total, axis=1) if np.ndim(total) == 2 else np.full(len(sums), np.nan)
            elif kind == "fscore":
                p, r = out[spec[1]], out[spec[2]]
                f = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1.0), 0.0)
                out[name] = np.where(np.isnan(p) | np.isnan(r), np.nan, f)
            else:
                raise ValueError(f"unknown metric kind {kind!r} for {name}")
    return out


def check_resamples(n: int) -> None:
    """Refuse more replicates than MAX_RESAMPLES (they are all kept until the percentiles)."""
    if n > MAX_RESAMPLES:
        raise InputError(f"--bootstrap: at most {MAX_RESAMPLES} resamples (docs/uncertainty.md), got {n}")


def draw_weights(rng: np.random.Generator, n_units: int, n: int) -> Iterator[np.ndarray]:
    """n resample count vectors (multinomial: n_units draws with replacement; rows sum to
    n_units), in chunks of CHUNK rows. Drawing indices and counting them is ~10x faster than
    Generator.multinomial for large U."""
    check_resamples(n)
    done = 0
    while done < n:
        b = min(CHUNK, n - done)
        if n_units == 0:
            yield np.zeros((b, 0))
        else:
            idx = rng.integers(0, n_units, size=(b, n_units), dtype=np.int64)
            idx += (np.arange(b, dtype=np.int64) * n_units)[:, None]
            yield np.bincount(idx.ravel(), minlength=b * n_units).reshape(b, n_units).astype(np.float64)
        done += b


def draw_swaps(rng: np.random.Generator, n_units: int, n: int) -> Iterator[np.ndarray]:
    """n rows of fair coin flips per unit (approximate randomization), in chunks."""
    check_resamples(n)
    done = 0
    while done < n:
        b = min(CHUNK, n - done)
        yield rng.integers(0, 2, size=(b, n_units)).astype(np.float64)
        done += b


def _centred(us: UnitStats, values: Mapping[str, np.ndarray], base: Mapping[str, float]) -> dict[str, np.ndarray]:
    """theta* = exact + r(w) - r(1); NaN where exact is undefined."""
    out = {}
    for name, v in values.items():
        e = us.exact.get(name)
        out[name] = v * np.nan if e is None or not math.isfinite(e) else e + (v - base[name])
    return out


def percentile_ci(samples: np.ndarray, level: float) -> tuple[float, float] | None:
    """Percentile interval of the defined resampled values; None if none is defined."""
    s = samples[np.isfinite(samples)]
    if not len(s):
        return None
    a = (1.0 - level) / 2.0
    lo, hi = np.quantile(s, [a, 1.0 - a])
    return float(lo), float(hi)


def paired_ci_p(samples: np.ndarray, level: float) -> tuple[tuple[float, float] | None, float | None]:
    """The percentile interval of the replicated differences and the two-sided bootstrap p-value,
    from the same replicates and consistent by construction (docs/uncertainty.md): with the n
    finite replicates sorted s_1 <= ... <= s_n, m = min(#{d* <= 0}, #{d* >= 0}),
      p = min(1, 2 m / n)
    (the smallest alpha whose percentile interval contains 0) and the (1 - alpha) interval
    [s_j, s_(n+1-j)], alpha = 1 - level, j the smallest integer with 2 j / n >= alpha. Then
    s_j > 0 iff #{d* <= 0} < j, s_(n+1-j) < 0 iff #{d* >= 0} < j, so the interval excludes 0
    iff m < j iff 2 m / n < alpha iff p < alpha (the same float expression on both sides)."""
    s = np.sort(samples[np.isfinite(samples)])
    n = len(s)
    if not n:
        return None, None
    alpha = 1.0 - level
    m = min(int(np.sum(s <= 0)), int(np.sum(s >= 0)))
    j = max(1, math.ceil(alpha * n / 2))
    while j > 1 and not 2 * (j - 1) / n < alpha:
        j -= 1
    while 2 * j / n < alpha:
        j += 1
    return (float(s[j - 1]), float(s[n - j])), min(1.0, 2 * m / n)


def full_values(us: UnitStats) -> dict[str, float]:
    """r(1): the decomposable form on the plain sums."""
    return {k: float(v[0]) for k, v in evaluate(us, us.sums(np.ones((1, len(us.ids))))).items()}


def debias(us: UnitStats, reps: dict[str, np.ndarray]) -> dict[str, float]:
    """Cluster metrics of a resampled contingency table ("cells": maxima and entropies, convex
    in the cells) come out biased upward under resampling (fewer distinct units, lumpier
    clusters; e.g. +0.03 purity on Buckeye). Their replicates are shifted by the bootstrap bias
    estimate mean(theta*) - exact, so the percentile interval is centred on the reported value
    with the resampling spread; returns the removed bias per metric (docs/uncertainty.md)."""
    out = {}
    for k, spec in us.metrics.items():
        v = reps[k]
        if spec[0] == "cells" and np.isfinite(v).any():
            out[k] = float(np.nanmean(v)) - float(us.exact[k])
            reps[k] = v - out[k]
    return out


def resample(us: UnitStats, n: int, seed: int) -> dict[str, np.ndarray]:
    """n bootstrap replicates (centred on the exact values) of every metric."""
    rng = np.random.default_rng(seed)
    base = full_values(us)
    parts: dict[str, list[np.ndarray]] = {k: [] for k in us.metrics}
    for w in draw_weights(rng, len(us.ids), n):
        for k, v in _centred(us, evaluate(us, us.sums(w)), base).items():
            parts[k].append(v)
    return {k: np.concatenate(v) if v else np.zeros(0) for k, v in parts.items()}


def bootstrap_ci(us: UnitStats, n: int, seed: int, level: float = 0.95) -> dict[str, dict]:
    """Per metric {"lo", "hi", "level", "unit", "n", "seed", "units"}; lo/hi None if undefined."""
    reps = resample(us, n, seed)
    bias = debias(us, reps)
    out = {}
    for k, v in reps.items():
        ci = percentile_ci(v, level)
        out[k] = {"lo": None if ci is None else ci[0], "hi": None if ci is None else ci[1],
                  "level": level, "unit": us.unit, "units": len(us.ids), "n": n, "seed": seed}
        if k in bias:
            out[k]["bias_removed"] = bias[k]
    return out


def check_paired(a: UnitStats, b: UnitStats) -> None:
    """Paired tests need the same units, columns and metric definitions."""
    if a.unit != b.unit or a.ids != b.ids:
        raise ValueError(f"the systems do not share their {a.unit} units")
    if a.columns != b.columns or a.metrics != b.metrics or (a.cells is None) != (b.cells is None):
        raise ValueError("the systems' statistics have different columns or metric definitions")


def paired_test(a: UnitStats, b: UnitStats, n: int, seed: int, level: float = 0.95,
                test: str = "bootstrap") -> dict[str, dict]:
    """Per metric: diff = exact(A) - exact(B), its percentile CI (paired bootstrap, the same
    resample for both systems) and a two-sided p-value:
      bootstrap    p = min(1, 2 min(#{d* <= 0}, #{d* >= 0}) / n), from the same replicates as
                   the interval, which excludes 0 exactly when p < 1 - level (paired_ci_p)
      permutation  approximate randomization: each unit's statistics swapped between A and B
                   with probability 1/2; p = (1 + #{|d_perm| >= |d_obs|}) / (1 + n), d_obs the
                   decomposable difference r_A(1) - r_B(1).
    Identical systems give d = 0 exactly and p = 1."""
    check_paired(a, b)
    rng = np.random.default_rng(seed)
    ba, bb = full_values(a), full_values(b)
    diffs: dict[str, list[np.ndarray]] = {k: [] for k in a.metrics}
    perm: dict[str, list[np.ndarray]] = {k: [] for k in a.metrics}
    for w in draw_weights(rng, len(a.ids), n):
        va = _centred(a, evaluate(a, a.sums(w)), ba)
        vb = _centred(b, evaluate(b, b.sums(w)), bb)
        for k in diffs:
            diffs[k].append(va[k] - vb[k])
    if test == "permutation":
        if a.cells is not None:     # one cell space, so a unit's cells can move between systems
            ca, cb = align(a.cells, b.cells)
            a = UnitStats(a.unit, a.ids, a.columns, a.X, a.metrics, a.exact, ca)
            b = UnitStats(b.unit, b.ids, b.columns, b.X, b.metrics, b.exact, cb)
        D = b.full() - a.full()
        ones = np.ones((1, len(a.ids)))
        sa, sb = a.sums(ones)[0], b.sums(ones)[0]
        for s in draw_swaps(rng, len(a.ids), n):
            moved = s @ D if isinstance(D, np.ndarray) else np.asarray((D.T @ s.T).T)
            va, vb = evaluate(a, sa + moved), evaluate(b, sb - moved)
            for k in perm:
                perm[k].append(va[k] - vb[k])
    elif test != "bootstrap":
        raise ValueError(f"unknown test {test!r} (bootstrap or permutation)")
    out = {}
    for k in a.metrics:
        ea, eb = a.exact.get(k), b.exact.get(k)
        dd = np.concatenate(diffs[k]) if diffs[k] else np.zeros(0)
        if a.metrics[k][0] == "cells" and _defined(ea, eb) and np.isfinite(dd).any():
            dd = dd - (float(np.nanmean(dd)) - (ea - eb))  # the difference of the two debias shifts
        out[k] = paired_summary(ea, eb, dd, ba[k] - bb[k], perm[k], test, level,
                                {"unit": a.unit, "units": len(a.ids), "n": n, "seed": seed})
    return out


def _defined(ea: float | None, eb: float | None) -> bool:
    return ea is not None and eb is not None and math.isfinite(ea) and math.isfinite(eb)


def paired_summary(ea: float | None, eb: float | None, dd: np.ndarray, obs, perm: list[np.ndarray],
                   test: str, level: float, info: dict) -> dict:
    """One metric's paired result: diff = ea - eb, the percentile CI of the replicated
    differences dd, and the two-sided p-value of paired_test (the bootstrap p of the same
    replicates, paired_ci_p, or approximate randomization from the permuted differences
    against the observed one). A bootstrap p of 0 (no replicate reached 0) is given as its
    bound: p = 2/N (the smallest non-zero value of 2 m / N) with p_upper_bound true, p < 2/N."""
    defined = _defined(ea, eb)
    d = ea - eb if defined else None
    ci, p = paired_ci_p(dd, level) if defined else (None, None)
    bound = False
    if defined and test != "bootstrap":
        pp = np.concatenate(perm) if perm else np.zeros(0)
        pp = pp[np.isfinite(pp)]
        p = (1 + int(np.sum(np.abs(pp) >= abs(obs) - 1e-12 * max(1.0, abs(obs))))) / (1 + len(pp))
    elif p == 0:    # no replicate reached 0: p is below the smallest value the test can give, 2/N
        p, bound = 2 / int(np.isfinite(dd).sum()), True
    return {"a": ea, "b": eb, "diff": d, "lo": None if ci is None else ci[0],
            "hi": None if ci is None else ci[1], "p": None if p is None else min(1.0, p),
            "p_upper_bound": bound, "level": level, **info, "test": test}


def merge_units(ids: Sequence[str], parts: Sequence[np.ndarray]) -> tuple[list[str], np.ndarray]:
    """Rows with equal ids summed, ordered by id: the same table whatever the sharding."""
    X = np.concatenate([np.atleast_2d(p) for p in parts]) if parts else np.zeros((0, 0))
    uniq, inv = np.unique(np.asarray(ids, dtype=object).astype(str), return_inverse=True)
    out = np.zeros((len(uniq), X.shape[1]))
    np.add.at(out, inv, X)
    return uniq.tolist(), out
