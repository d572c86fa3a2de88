"""--folds of the seed modes (docs/tde.md §13): the file sets of a parsed fold spec
(termeval/tde/foldspec.py: the syntax).

  none                   one fold = the corpus
  equal:N                zr2015-doc: N parts by the duration midpoint of each file
  random:BxFRAC[:SEED]   lrec2014: B batches of k = max(1, floor(FRAC*n + 1/2)) files,
                         numpy default_rng(SEED), rng.random(n) + stable argsort per batch
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from termeval.core.errors import InputError
from termeval.tde.foldspec import FoldSpec


def scored_files(nphones_per_file: np.ndarray) -> np.ndarray:
    """Files with at least one phone, in id order (the data dir's file order is sorted)."""
    return np.flatnonzero(nphones_per_file > 0)


def equal_parts(files: np.ndarray, dur: np.ndarray, n: int) -> list[np.ndarray]:
    """File f -> part min(N-1, floor(N (2 C_f + d_f) / (2 D))) (§2.10), exact integers."""
    d = dur[files].astype(np.int64)
    total = int(d.sum())
    if total == 0:
        return [files.copy()] + [files[:0]] * (n - 1)
    before = np.r_[0, np.cumsum(d)[:-1]]
    part = np.array([min(n - 1, (n * (2 * int(cf) + int(df))) // (2 * total)) for cf, df in zip(before, d)],
                    np.int64)
    return [files[part == p] for p in range(n)]


def random_batches(files: np.ndarray, b: int, frac: Fraction, seed: int) -> list[np.ndarray]:
    n = len(files)
    k = max(1, math.floor(frac * n + Fraction(1, 2)))
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(b):
        u = rng.random(n)
        out.append(np.sort(files[np.argsort(u, kind="stable")[:k]]))
    return out


def make_folds(spec: FoldSpec, nphones_per_file: np.ndarray, dur: np.ndarray) -> list[np.ndarray]:
    """File index sets of the folds; an error when there are more folds than files."""
    files = scored_files(nphones_per_file)
    if spec.kind == "none":
        return [files]
    if spec.kind == "equal":
        if spec.n > len(files):
            raise InputError(f"--folds {spec}: {spec.n} parts but only {len(files)} files with phones")
        return equal_parts(files, dur, spec.n)
    if not len(files):
        raise InputError(f"--folds {spec}: no file with phones to sample")
    return random_batches(files, spec.n, spec.frac, spec.seed)
