"""ZeroSpeech `.phn`/`.wrd` files: `<file> <onset> <offset> <label>` (seconds)."""
from __future__ import annotations

import numpy as np

from termeval.gold.intervals import Intervals, sorted_codes
from termeval.core.textio import read_table

ZR_FIELDS = "'<file> <onset> <offset> <label>'"


def read_zr(path: str) -> Intervals:
    """A ZeroSpeech .phn or .wrd file; times are the parsed doubles, unrounded."""
    t = read_table(path, (4,), ZR_FIELDS, {1: "onset", 2: "offset"}, (0, 3))
    files, fcode = sorted_codes(*t.codes(0))
    labels, lcode = t.codes(3)
    return Intervals(files, fcode, t.floats(1), t.floats(2), labels, lcode, t.line,
                     np.zeros(len(t), dtype=np.int32), [path])
