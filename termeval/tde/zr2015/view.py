"""The zr2015/zr2017 boundary measure's points of one recording, for report.html's timeline
(termeval/tde/view.py): the distinct word edges against the distinct fragment edges
(termeval/tde/zr2015/boundary.py), each a hit, missed or spurious."""
from __future__ import annotations

import numpy as np

from termeval.core.datadir import Tier as GoldTier
from termeval.report.timeline import span
from termeval.tde.view import BoundaryPoints
from termeval.tde.zr2015.boundary import matched


def boundary_points(words: GoldTier) -> BoundaryPoints:
    """The boundary points of the zr2015/zr2017 measure, per file (time, status): the word edges
    with a fragment edge closer than 30 ms (0 hit) or none (1 missed), the fragment edges without
    a word edge closer than 30 ms (2 spurious)."""
    def points(f: int, file, on, off):
        w = span(words.starts, f) if f + 1 < len(words.starts) else slice(0, 0)
        _, dv, _, gv, dhit, ghit = matched(np.zeros(len(on), np.int64), on, off,
                                           np.zeros(w.stop - w.start, np.int64), words.onset[w], words.offset[w])
        t = np.concatenate([gv[ghit], gv[~ghit], dv[~dhit]])
        status = np.repeat(np.arange(3), [int(ghit.sum()), int((~ghit).sum()), int((~dhit).sum())])
        order = np.lexsort((status, t))
        return t[order], status[order]
    return points
