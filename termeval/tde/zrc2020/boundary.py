"""Boundary precision/recall (tdev2, tde-spec §4.6).

Discovered onsets are the onsets of the first kept phone of each distinct fragment, offsets
the offsets of the last kept phone (phone-snapped by the transcription rule); gold onsets and
offsets are word starts and ends (SIL words excluded). Points are (file, time) compared by
exact float equality, and a hit needs the same direction (onset on a gold onset, or offset
on a gold offset). tdev2 raises for a fragment in a file without words; we count its points
as misses.
"""
from __future__ import annotations

import numpy as np

BLOCK_POINTS = 1 << 19    # points handled at once (bounded temporaries at any corpus size)


def points(d_file: np.ndarray, d_on: np.ndarray, d_off: np.ndarray,
           g_file: np.ndarray, g_on: np.ndarray, g_off: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per distinct (file, time) point, in (file, time) order: its file, discovered?, gold?,
    hit? Points never meet across files, so blocks of whole files are done one at a time
    (both sides sorted by file: discovered fragments as dedupe_fragments leaves them, gold
    words as load_words does)."""
    d_file, g_file = np.asarray(d_file), np.asarray(g_file)
    if len(d_file) > 1 and np.any(np.diff(d_file) < 0) or len(g_file) > 1 and np.any(np.diff(g_file) < 0):
        return _points(d_file, d_on, d_off, g_file, g_on, g_off)     # unsorted input: at once
    nfiles = int(max(d_file.max(initial=-1), g_file.max(initial=-1))) + 1
    if nfiles == 0:
        return _points(d_file, d_on, d_off, g_file, g_on, g_off)
    ds = np.searchsorted(d_file, np.arange(nfiles + 1))
    gs = np.searchsorted(g_file, np.arange(nfiles + 1))
    cum = np.cumsum(np.diff(ds) + np.diff(gs))          # points (/2) up to each file
    marks = np.arange(1, int(cum[-1]) // BLOCK_POINTS + 1) * BLOCK_POINTS
    # a few cuts, ascending and distinct (a plain np.unique would import numpy.ma)
    cuts = np.array(sorted(set(np.r_[0, np.searchsorted(cum, marks, side="right"), nfiles].tolist())), dtype=np.int64)
    parts = [_points(d_file[ds[a]:ds[b]], d_on[ds[a]:ds[b]], d_off[ds[a]:ds[b]],
                     g_file[gs[a]:gs[b]], g_on[gs[a]:gs[b]], g_off[gs[a]:gs[b]])
             for a, b in zip(cuts[:-1].tolist(), cuts[1:].tolist())]
    return tuple(np.concatenate(x) for x in zip(*parts))


def _points(d_file, d_on, d_off, g_file, g_on, g_off):
    f, _, disc, gold, hit = point_times(d_file, d_on, d_off, g_file, g_on, g_off)
    return f, disc, gold, hit


def point_times(d_file, d_on, d_off, g_file, g_on, g_off):
    """Per distinct (file, time) point, in (file, time) order: its file, time, discovered?,
    gold?, hit? (what `points` counts; the report's timeline shows each)."""
    sets = (d_on, d_off, g_on, g_off)
    f = np.concatenate([d_file, d_file, g_file, g_file]).astype(np.int64)
    t = np.concatenate(sets).astype(np.float64) + 0.0       # -0.0 == 0.0, as in a Python set
    tag = np.repeat(np.arange(4, dtype=np.int8), [len(x) for x in sets])
    order = np.lexsort((t, f))
    fs, ts = f[order], t[order]
    new = np.r_[True, (fs[1:] != fs[:-1]) | (ts[1:] != ts[:-1])] if len(t) else np.zeros(0, dtype=bool)
    pid = np.empty(len(t), dtype=np.int64)
    pid[order] = np.cumsum(new) - 1
    n = int(new.sum())
    D, U, GD, GU = (np.bincount(pid[tag == k], minlength=n) > 0 for k in range(4))
    return fs[new], ts[new], D | U, GD | GU, (D & GD) | (U & GU)


def boundary(d_file: np.ndarray, d_on: np.ndarray, d_off: np.ndarray,
             g_file: np.ndarray, g_on: np.ndarray, g_off: np.ndarray) -> tuple[float, float, dict]:
    """P, R (NaN when a set is empty) and the counts."""
    return from_points(points(d_file, d_on, d_off, g_file, g_on, g_off))


def from_points(pts: tuple) -> tuple[float, float, dict]:
    """P, R and the counts from the result of `points` (which the per-file tables reuse)."""
    _, disc, gold, hit = pts
    n_disc, n_gold, hits = int(disc.sum()), int(gold.sum()), int(hit.sum())
    P = hits / n_disc if n_disc else float("nan")
    R = hits / n_gold if n_gold else float("nan")
    return P, R, {"boundary_hits": hits, "boundaries_discovered": n_disc, "boundaries_gold": n_gold}
