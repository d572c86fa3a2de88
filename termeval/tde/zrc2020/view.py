"""The zrc2020 boundary measure's points of one recording, for report.html's timeline
(termeval/tde/view.py): fragment edges snapped to the phones they keep, against the edges of
the non-SIL words (termeval/tde/zrc2020/boundary.py), each a hit, missed or spurious."""
from __future__ import annotations

from typing import Callable

import numpy as np

from termeval.core.datadir import Tier as GoldTier
from termeval.report.timeline import span
from termeval.tde.zrc2020.boundary import point_times
from termeval.tde.zrc2020.transcribe import SIL, Phones, transcribe


def points(phones: Phones, words: GoldTier, f: int, file, onset, offset):
    """(time, status) of the zrc2020 boundary points of file f (its fragments given), in time
    order: 0 hit, 1 missed (a gold point not hit), 2 spurious (a discovered point not hit; a
    point both gold and discovered in opposite directions is both missed and spurious)."""
    k0, k1, _ = transcribe(phones, file, onset, offset)
    kept = k1 > k0
    d_file, d_on, d_off = file[kept], phones.onset[k0[kept]], phones.offset[k1[kept] - 1]
    w = span(words.starts, f) if f + 1 < len(words.starts) else slice(0, 0)
    sil = words.label_index(SIL)
    keep = np.arange(w.start, w.stop)
    keep = keep[words.label[w] != sil] if sil >= 0 else keep
    _, pt, disc, gold, hit = point_times(d_file, d_on, d_off, words.file[keep], words.onset[keep], words.offset[keep])
    parts = [(hit, 0), (gold & ~hit, 1), (disc & ~hit, 2)]
    t = np.concatenate([pt[m] for m, _ in parts])
    status = np.concatenate([np.full(int(m.sum()), k, dtype=np.int64) for m, k in parts])
    order = np.lexsort((status, t))
    return t[order], status[order]


def boundary_points(phones: Phones, words: GoldTier) -> Callable | None:
    """The timeline's `points` callable (termeval/tde/view.py BoundaryPoints; None without phones)."""
    if phones is None or not len(phones.onset):
        return None
    return lambda f, file, onset, offset: points(phones, words, f, file, onset, offset)
