"""The --folds syntax of the seed benchmarks (docs/tde.md §13), parsed without numpy (the
options are checked with it before any job; termeval/tde/seeddoc/folds.py makes the folds).

  none                   one fold = the corpus
  equal:N                zr2015-doc: N parts by the duration midpoint of each file
  random:BxFRAC[:SEED]   lrec2014: B batches of a fraction FRAC of the files, seed SEED
  auto                   the benchmark's own (SeedRules.folds_auto: equal:10, random:50x0.04:777)
N and B are at most MAX_FOLDS (10000): each fold is scored on its own, so a larger count would
run for hours (random:100000000x0.5 would never finish); it is refused before any work.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from termeval.core.errors import InputError
from termeval.tde.benchmarks import BENCHMARKS, seed_rules

SYNTAX = {"equal": "none|equal:N|auto", "random": "none|random:BxFRAC[:SEED]|auto"}
DEFAULT_SEED = 777
MAX_FOLDS = 10_000


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
    """The --folds value for the seed benchmark `mode`; one-line InputError naming the option otherwise."""
    rules = seed_rules(mode)
    v = value.strip()
    if v == "auto":
        v = rules.folds_auto
    if v == "none":
        return FoldSpec("none")
    m = re.fullmatch(r"equal:(\d+)", v)
    if m:
        if rules.folds != "equal":
            raise InputError(f"--folds {value}: equal:N is for --benchmark {_taking('equal')}; "
                             f"{mode} takes {SYNTAX[rules.folds]}")
        n = int(m.group(1))
        if not 1 <= n <= MAX_FOLDS:
            raise InputError(f"--folds {value}: N must be from 1 to {MAX_FOLDS}")
        return FoldSpec("equal", n)
    m = re.fullmatch(r"random:(\d+)x([0-9]*\.?[0-9]+(?:[eE][-+]?\d+)?)(?::(-?\d+))?", v)
    if m:
        if rules.folds != "random":
            raise InputError(f"--folds {value}: random:BxFRAC[:SEED] is for --benchmark {_taking('random')}; "
                             f"{mode} takes {SYNTAX[rules.folds]}")
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
    expect = SYNTAX[rules.folds]
    raise InputError(f"--folds {value}: expected {expect}")


def _taking(kind: str) -> str:
    """The seed benchmarks whose --folds syntax is `kind`."""
    return ", ".join(b.name for b in BENCHMARKS.values() if b.seed is not None and b.seed.folds == kind)
