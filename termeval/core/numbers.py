"""The one text of a number in score and details files (docs/guide.md §11.1).

* a count (int, numpy integer, bool) prints as an integer: `7`;
* a value prints with 6 decimals, and with more when needed to show 6 significant digits, so a
  small value (a threshold of 5.2e-05, a C_Det) keeps its precision: `0.933820`, `66.656667`,
  `0.0661800`, `0.0000523674`; -0.0 prints as 0.000000;
* never in exponent notation for ordinary magnitudes: only a nonzero value below 1e-9 in
  magnitude prints as `1.23457e-12` (6 significant digits);
* undefined (None, NaN) prints as `na` (`-` in score files, `NA` in TSV tables), infinities as
  `inf` / `-inf`.

`scores/scores.json` keeps full precision; files that must equal another tool's byte for byte
(F4DE's sum.txt/bsum.txt, Kaldi's score.sh files, wordseg/tdev2 outputs) keep that tool's format.

>>> [fmt_value(x) for x in (7, 0.6000000000000001, 5.23673727892816e-05, None, -0.0, 1e-12)]
['7', '0.600000', '0.0000523674', '-', '0.000000', '1.00000e-12']
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

DECIMALS = 6        # at least this many decimals
SIGNIFICANT = 6     # and at least this many significant digits
TINY = 1e-9         # below this (nonzero), exponent notation
ZERO = f"{0.0:.{DECIMALS}f}"


def fmt_value(x: Any, na: str = "-") -> str:
    """The text of one number (see the module docstring); `na` for None and NaN."""
    if x is None:
        return na
    if isinstance(x, bool):
        return str(int(x))
    if isinstance(x, int) or (hasattr(x, "dtype") and getattr(x, "dtype").kind in "iub"):
        return str(int(x))
    v = float(x)
    if math.isnan(v):
        return na
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    a = abs(v)
    if a == 0.0:
        return ZERO
    if a < TINY:
        return f"{v:.{SIGNIFICANT - 1}e}"
    decimals = max(DECIMALS, SIGNIFICANT - 1 - math.floor(math.log10(a)))
    return f"{v:.{decimals}f}"


def fmt_column(values: Any, na: str = "NA") -> list[str]:
    """fmt_value of each float of an array (a table column): one list; the values of one
    number of decimals are formatted by one C-level `%` (exponents by math.log10, as
    fmt_value)."""
    a = np.asarray(values, dtype=np.float64).ravel()
    ax = np.abs(a)
    out = np.empty(len(a), dtype=object)
    out[np.isnan(a)] = na
    out[ax == 0.0] = ZERO
    small = np.flatnonzero((ax >= TINY) & (ax < 0.1))
    decimals = np.full(len(a), -1, dtype=np.int64)
    decimals[(ax >= 0.1) & (ax < math.inf)] = DECIMALS
    log = np.floor(np.fromiter(map(math.log10, ax[small].tolist()), dtype=np.float64, count=len(small)))
    decimals[small] = SIGNIFICANT - 1 - log.astype(np.int64)
    for d in np.unique(decimals[decimals >= 0]).tolist():
        idx = np.flatnonzero(decimals == d)
        vals = a[idx].tolist()
        texts = (f"%.{d}f\n" * len(vals) % tuple(vals)).split("\n")
        texts.pop()
        out[idx] = texts
    rest = np.flatnonzero((decimals < 0) & ~np.isnan(a) & (ax != 0.0))
    for i in rest.tolist():         # infinities, exponents
        out[i] = fmt_value(float(a[i]), na)
    return out.tolist()
