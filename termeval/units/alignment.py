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
from termeval.core.textio import read_table
from termeval.gold.intervals import sorted_codes
from termeval.units.frames import GoldFrames, check_tiling, from_intervals, on_grid

HEADER = ["#file", "onset", "offset", "#phone"]
_DECIMALS = re.compile(r"(?:\d+(?:\.\d+)?\n)*")
_DECIMAL = re.compile(r"\d+(?:\.\d+)?")


def _times(table: list[str], codes: np.ndarray, lines: np.ndarray, path: str, what: str) -> np.ndarray:
    """Centiseconds of a factorised column of decimal strings on the 10 ms grid (InputError
    otherwise); each distinct string is checked once."""
    used, codes = np.unique(codes, return_inverse=True)      # the header's words are in the table too
    table = [table[i] for i in used.tolist()]
    codes = codes.ravel()
    if not _DECIMALS.fullmatch("\n".join(table) + "\n" if table else ""):
        bad = next(i for i, x in enumerate(table) if not _DECIMAL.fullmatch(x))
        r = int(np.argmax(codes == bad))
        raise InputError(f"{what} '{table[bad]}' is not a decimal number of seconds", path, int(lines[r]))
    t = np.array(table, dtype=np.float64)
    cs, ok = on_grid(t)
    for i in np.flatnonzero(np.fromiter(map(len, table), np.int64, len(table)) > 15).tolist():
        v = Decimal(table[i]) * 100      # beyond 15 digits two decimals may share a double: exact check
        ok[i] = v == v.to_integral_value()
        cs[i] = int(v) if ok[i] else cs[i]
    if not ok.all():
        bad_rows = np.flatnonzero(~ok[codes])
        r = int(bad_rows[0])
        raise InputError(f"{what} {table[int(codes[r])]} is not on the 10 ms grid (each phone lasts a whole number "
                         "of 10 ms frames)", path, int(lines[r]))
    return cs[codes]


def _header(path: str) -> None:
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline()
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text (byte {e.start})", path) from None
    if first.split() != HEADER:
        raise InputError(f"expected the header '{' '.join(HEADER)}', got '{first.strip()[:80]}'", path, 1)


def read_alignment(path: str) -> GoldFrames:
    """The phones of an alignment file as 10 ms frames, files in sorted order."""
    _header(path)
    t = read_table(path, (4,), "'<file> <onset> <offset> <phone>'", strings=(0, 1, 2, 3))
    body = slice(1, None)                  # the header is the first record
    if len(t) < 2:
        raise InputError("no phone (only the header)", path)
    lines = t.line[body]
    ftab, fcode = t.codes(0)
    on = _times(t.codes(1)[0], t.codes(1)[1][body], lines, path, "onset")
    off = _times(t.codes(2)[0], t.codes(2)[1][body], lines, path, "offset")
    files, rank = sorted_codes(ftab, fcode[body])
    ltab, lcode = t.codes(3)
    order = np.lexsort((on, rank))          # discophon sorts by file, then onset
    file, on, off, lines = rank[order], on[order], off[order], lines[order]
    label_codes = lcode[body][order]
    used = np.unique(label_codes)           # the header's '#phone' is no label
    remap = np.full(len(ltab), -1, np.int64)
    remap[used] = np.arange(len(used))
    label = remap[label_codes]
    labels = [ltab[i] for i in used.tolist()]

    def fail(i: int, message: str) -> None:
        raise InputError(f"file '{files[int(file[i])]}': phone {message}", path, int(lines[i]))
    check_tiling(file, on, off, fail)
    present = np.unique(file)
    files = [files[i] for i in present.tolist()] if len(present) < len(files) else files   # '#file' dropped
    if len(present) < len(set(ftab)):
        file = np.searchsorted(present, file)
    return from_intervals(files, file, on, off, label, labels, lines, path)
