"""Boundary scores: V14 (zr2015-doc §3.8: fragment edges snapped to the nearest phone
boundary under 30 ms, whole fold) and V15 (lrec2014 §4.7: edges of the transcribed ranges
against the gold boundaries of the covered corpus)."""
from __future__ import annotations

import numpy as np

from termeval.core.intervals import nearest_edges
from termeval.tde.seeddoc.common import MS30, Corpus, ratio
from termeval.tde.seeddoc.ngrams import covered_phones

SHIFT = 42


def _points(f: np.ndarray, t: np.ndarray) -> np.ndarray:
    return np.unique(np.asarray(f, np.int64) << SHIFT | np.asarray(t, np.int64))


def zr_boundary(c: Corpus) -> dict[str, float | None]:
    raw = _points(np.r_[c.f_file, c.f_file], np.r_[c.f_on, c.f_off])
    rf, rt = raw >> SHIFT, raw & ((1 << SHIFT) - 1)
    mask = c.phone_mask
    # phones are sorted and disjoint: onset, offset, onset, ... is sorted within each file
    bf = np.repeat(c.ph_file[mask], 2)
    bt = np.stack([c.ph_on[mask], c.ph_off[mask]], 1).ravel()
    near = nearest_edges(bf, bt.astype(np.float64), rf, rt.astype(np.float64), len(c.files), ties="lower")
    ok = ~np.isnan(near)
    ok[ok] = np.abs(near[ok] - rt[ok]) < MS30
    snapped = np.unique(rf[ok] << SHIFT | near[ok].astype(np.int64))
    wrong = int((~ok).sum())                                  # each wrong edge its own element
    gold = _points(c.b_file, c.b_t)
    hit = len(np.intersect1d(snapped, gold))
    ndisc = len(snapped) + wrong
    return {"boundary_precision": ratio(hit, ndisc), "boundary_recall": ratio(hit, len(gold))}


def lrec_boundary(c: Corpus) -> dict[str, float | None]:
    k0, k1 = c.f_k0, c.f_k1
    x = _points(np.r_[c.ph_file[k0], c.ph_file[k1 - 1]], np.r_[c.ph_on[k0], c.ph_off[k1 - 1]]) \
        if len(k0) else np.zeros(0, np.int64)
    cov = covered_phones(len(c.ph_on), k0, k1)
    cp = _points(np.r_[c.ph_file[cov], c.ph_file[cov]], np.r_[c.ph_on[cov], c.ph_off[cov]])
    gold = _points(c.b_file, c.b_t)
    y = np.intersect1d(gold, cp)
    hit = len(np.intersect1d(x, y))
    return {"boundary_precision": ratio(hit, len(x)), "boundary_recall": ratio(hit, len(y))}
