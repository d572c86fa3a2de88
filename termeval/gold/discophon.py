"""discophon's gold alignment files (`alignment-<lang>-<split>.txt`): a header line `#file onset
offset #phone`, then `<file> <onset> <offset> <phone>` lines (seconds). Phones only: the data
dir prepared from them has no word (steps/prepare_gold.sh --format discophon). Rows are sorted
by file then onset, as discophon reads them (any order is accepted)."""
from __future__ import annotations

import numpy as np

from termeval.core.errors import InputError
from termeval.core.textio import parse_floats, read_text
from termeval.gold.intervals import Intervals, make_intervals

HEADER = ["#file", "onset", "offset", "#phone"]


def read_discophon(path: str) -> Intervals:
    """The phone intervals of one alignment file, sorted by file and onset."""
    rows = read_text(path).splitlines()
    if not rows or rows[0].split() != HEADER:
        raise InputError(f"expected the header '{' '.join(HEADER)}', got '{rows[0][:80] if rows else ''}'", path, 1)
    fields = [(n, r.split()) for n, r in enumerate(rows[1:], 2) if r.strip()]
    for n, parts in fields:
        if len(parts) != 4:
            raise InputError(f"expected '<file> <onset> <offset> <phone>', got {len(parts)} fields", path, n)
    if not fields:
        raise InputError("no phone (only the header)", path)
    lines = np.fromiter((n for n, _ in fields), np.int64, len(fields))
    onset = parse_floats([p[1] for _, p in fields], path, lines, "onset")
    offset = parse_floats([p[2] for _, p in fields], path, lines, "offset")
    files = [p[0] for _, p in fields]
    order = sorted(range(len(fields)), key=lambda i: (files[i], onset[i]))
    idx = np.asarray(order, dtype=np.int64)
    return make_intervals([files[i] for i in order], onset[idx], offset[idx], [fields[i][1][3] for i in order],
                          lines[idx], np.zeros(len(order), np.int32), [path])


def no_words(phones: Intervals) -> Intervals:
    """An empty word tier over the phones' files."""
    z = np.zeros(0)
    return Intervals(phones.files, z.astype(np.int64), z, z, [], z.astype(np.int64), z.astype(np.int64),
                     z.astype(np.int32), phones.paths)
