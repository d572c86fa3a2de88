"""Boundary precision/recall (spec §4.6, TDE15/17): distinct per-file fragment edges of
R1(D, F) (truncated times, not phone-snapped) against distinct per-file word edges of W(F); a
point is matched iff the nearest point of the other set in the same file is strictly closer
than 30 ms (the original's `has_close`, nearest chosen with the same float tests)."""
from __future__ import annotations

import math

import numpy as np

from termeval.core.intervals import nearest_edges


def points(file: np.ndarray, on: np.ndarray, off: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    f = np.concatenate([file, file]).astype(np.int64)
    v = np.concatenate([on, off]).astype(np.float64)
    if len(f) == 0:
        return f, v
    o = np.lexsort((v, f))                    # distinct (file, time), sorted (no 2-D unique)
    f, v = f[o], v[o]
    new = np.ones(len(f), dtype=bool)
    new[1:] = (f[1:] != f[:-1]) | (v[1:] != v[:-1])
    return f[new], v[new]


def has_close(ref_f, ref_v, q_f, q_v) -> np.ndarray:
    """For each query point: nearest ref point of its file closer than 0.03 (ref sorted); the
    lower neighbour is the nearest only when strictly closer."""
    if len(q_f) == 0:
        return np.zeros(0, dtype=bool)
    nfiles = max(int(ref_f.max()) if len(ref_f) else 0, int(q_f.max())) + 1
    near = nearest_edges(ref_f, ref_v, q_f, q_v, nfiles, ties="upper")   # NaN: no ref point
    return np.abs(near - q_v) < 0.03


def boundary(disc_f, disc_on, disc_off, gold_f, gold_on, gold_off, m: tuple | None = None) -> tuple[float, float]:
    """(P, R); m = matched(...) of the same arguments when already computed."""
    df, dv, gf, gv, dhit, ghit = m if m is not None else matched(disc_f, disc_on, disc_off, gold_f, gold_on, gold_off)
    prec = float(np.mean(dhit)) if len(df) else math.nan
    rec = float(np.mean(ghit)) if len(gf) else math.nan
    return prec, rec


def matched(disc_f, disc_on, disc_off, gold_f, gold_on, gold_off) -> tuple:
    """Distinct points of both sides and their matched flags (what boundary() and
    boundary_by_file() count)."""
    df, dv = points(disc_f, disc_on, disc_off)
    gf, gv = points(gold_f, gold_on, gold_off)
    return df, dv, gf, gv, has_close(gf, gv, df, dv), has_close(df, dv, gf, gv)


def boundary_by_file(disc_f, disc_on, disc_off, gold_f, gold_on, gold_off, nfiles: int,
                     m: tuple | None = None) -> np.ndarray:
    """(nfiles, 4) per-file counts [matched discovered points, discovered points, matched gold
    points, gold points] (points and matches never cross files): P = sum col 0 / sum col 1."""
    df, dv, gf, gv, dhit, ghit = m if m is not None else matched(disc_f, disc_on, disc_off, gold_f, gold_on, gold_off)
    return np.c_[np.bincount(df, weights=dhit.astype(float), minlength=nfiles),
                 np.bincount(df, minlength=nfiles), np.bincount(gf, weights=ghit.astype(float), minlength=nfiles),
                 np.bincount(gf, minlength=nfiles)].astype(np.float64)
