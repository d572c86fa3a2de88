"""--folds of the seed modes (seed-definitions.md §1, §2.10): parsing and the file sets.

  none                   one fold = the corpus
  equal:N                zr2015-doc: N parts by the duration midpoint of each file
  random:BxFRAC[:SEED]   lrec2014: B batches of k = max(1, floor(FRAC*n + 1/2)) files,
                         numpy default_rng(SEED), rng.random(n) + stable argsort per batch
  auto                   equal:10 (zr2015-doc), random:50x0.04:777 (lrec2014)
N and B are at most MAX_FOLDS (10000): each fold is scored on its own, so a larger count would
run for hours (random:100000000x0.5 would never finish); it is refused before any work.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from termeval.core.errors import InputError

DEFAULT_SEED = 777
MAX_FOLDS = 10_000
AUTO = {"zr2015-doc": "equal:10", "lrec2014": "random:50x0.04:777"}


@dataclass(frozen=True)
class FoldSpec:
    kind: str                 # none | equal | random
    n: int = 1                # parts (equal) or batches (random)
    frac: Fraction = Fraction(1)
    frac_text: str = "1"
    seed: int = DEFAULT_SEED

    def __str__(self) -> str:
        if self.kind == "none":
            return "none"
        if self.kind == "equal":
            return f"equal:{self.n}"
        return f"random:{self.n}x{self.frac_text}:{self.seed}"


def parse_folds(value: str, mode: str) -> FoldSpec:
    """The --folds value for `mode`; one-line InputError naming the option otherwise."""
    v = value.strip()
    if v == "auto":
        v = AUTO[mode]
    if v == "none":
        return FoldSpec("none")
    m = re.fullmatch(r"equal:(\d+)", v)
    if m:
        if mode != "zr2015-doc":
            raise InputError(f"--folds {value}: equal:N is for --benchmark zr2015-doc; "
                             f"{mode} takes none|random:BxFRAC[:SEED]|auto")
        n = int(m.group(1))
        if not 1 <= n <= MAX_FOLDS:
            raise InputError(f"--folds {value}: N must be from 1 to {MAX_FOLDS}")
        return FoldSpec("equal", n)
    m = re.fullmatch(r"random:(\d+)x([0-9]*\.?[0-9]+(?:[eE][-+]?\d+)?)(?::(-?\d+))?", v)
    if m:
        if mode != "lrec2014":
            raise InputError(f"--folds {value}: random:BxFRAC[:SEED] is for --benchmark lrec2014; "
                             f"{mode} takes none|equal:N|auto")
        b, frac_text, seed = int(m.group(1)), m.group(2), m.group(3)
        frac = Fraction(frac_text)
        if not 1 <= b <= MAX_FOLDS:
            raise InputError(f"--folds {value}: the number of batches B must be from 1 to {MAX_FOLDS}")
        if not 0 < frac <= 1:
            raise InputError(f"--folds {value}: FRAC must lie in (0, 1]")
        s = DEFAULT_SEED if seed is None else int(seed)
        if s < 0:
            raise InputError(f"--folds {value}: SEED must be a non-negative integer")
        return FoldSpec("random", b, frac, frac_text, s)
    expect = "none|equal:N|auto" if mode == "zr2015-doc" else "none|random:BxFRAC[:SEED]|auto"
    raise InputError(f"--folds {value}: expected {expect}")


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
