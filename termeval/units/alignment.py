"""discophon's gold alignment files (`alignment/alignment-<lang>-<split>.txt`, read by its
`read_gold_annotations`): a header `#file onset offset #phone`, then one phone a line, times in
seconds as decimals. The rows are sorted by file, then onset; each file's phones must start at
0, follow each other without gap or overlap and last a whole number (>= 1) of 10 ms frames,
checked on the decimals as written (0.0125 is refused, 0.120 is 12 frames). Every problem is one
InputError naming the line. Whitespace of any width separates the fields (discophon reads one
space); times must be plain decimals (`12`, `0.02`)."""
from __future__ import annotations

import re
from decimal import Decimal

import numpy as np

from termeval.core.errors import InputError
from termeval.units.frames import GoldFrames, check_tiling, from_intervals, on_grid

HEADER = ["#file", "onset", "offset", "#phone"]
_DECIMALS = re.compile(r"(?:\d+(?:\.\d+)?\n)*")
_DECIMAL = re.compile(r"\d+(?:\.\d+)?")


def _times(col: list[str], lines: np.ndarray, path: str, what: str) -> np.ndarray:
    """Centiseconds of decimal strings that lie on the 10 ms grid (InputError otherwise)."""
    if not _DECIMALS.fullmatch("\n".join(col) + "\n" if col else ""):
        i = next(i for i, x in enumerate(col) if not _DECIMAL.fullmatch(x))
        raise InputError(f"{what} '{col[i]}' is not a decimal number of seconds", path, int(lines[i]))
    t = np.array(col, dtype=np.float64)
    cs, ok = on_grid(t)
    long = np.flatnonzero(np.fromiter(map(len, col), np.int64, len(col)) > 15)
    for i in long.tolist():        # beyond 15 digits two decimals may share a double: exact check
        v = Decimal(col[i]) * 100
        ok[i] = v == v.to_integral_value()
        cs[i] = int(v) if ok[i] else cs[i]
    bad = np.flatnonzero(~ok)
    if len(bad):
        i = int(bad[0])
        raise InputError(f"{what} {col[i]} is not on the 10 ms grid (each phone lasts a whole number of "
                         "10 ms frames)", path, int(lines[i]))
    return cs


def read_alignment(path: str) -> GoldFrames:
    """The phones of an alignment file as 10 ms frames, files in sorted order."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text (byte {e.start})", path) from None
    rows = text.splitlines()
    if not rows or rows[0].split() != HEADER:
        got = rows[0][:80] if rows else ""
        raise InputError(f"expected the header '{' '.join(HEADER)}', got '{got}'", path, 1)
    fields = [(n, r.split()) for n, r in enumerate(rows[1:], 2) if r.strip()]
    wrong = next(((n, len(p)) for n, p in fields if len(p) != 4), None)
    if wrong is not None:
        raise InputError(f"expected '<file> <onset> <offset> <phone>', got {wrong[1]} fields", path, wrong[0])
    if not fields:
        raise InputError("no phone (only the header)", path)
    lines = np.fromiter((n for n, _ in fields), np.int64, len(fields))
    files_col = [p[0] for _, p in fields]
    on = _times([p[1] for _, p in fields], lines, path, "onset")
    off = _times([p[2] for _, p in fields], lines, path, "offset")
    files = sorted(set(files_col))
    fidx = {f: i for i, f in enumerate(files)}
    file = np.fromiter(map(fidx.__getitem__, files_col), np.int64, len(files_col))
    order = np.lexsort((on, file))          # discophon sorts by file, then onset
    file, on, off, lines = file[order], on[order], off[order], lines[order]
    labels_col = [fields[i][1][3] for i in order.tolist()]
    labels = list(dict.fromkeys(labels_col))
    lidx = {x: i for i, x in enumerate(labels)}
    label = np.fromiter(map(lidx.__getitem__, labels_col), np.int64, len(labels_col))

    def fail(i: int, message: str) -> None:
        raise InputError(f"file '{files[int(file[i])]}': phone {message}", path, int(lines[i]))
    check_tiling(file, on, off, fail)
    return from_intervals(files, file, on, off, label, labels, lines, path)
