"""Grouping precision/recall (V8 zr2015-doc §3.5 with fragment weights; V9 lrec2014 §4.5 with
ordered-pair weights), counted per (cluster, string) with the listed exceptions (pairs.py).

Per fragment y: dx = its distinct same-cluster partners (P_clus / X), dy = its gold partners
(same string, not overlapping: zr2015-doc disjoint times, lrec2014 no shared phone and both
ranges in F_all), dxy = partners in both. Each is a count minus listed corrections.
"""
from __future__ import annotations

import numpy as np

from termeval.tde.benchmarks import SeedRules
from termeval.tde.seeddoc.common import Corpus, ratio
from termeval.tde.seeddoc.pairs import interval_pairs, multi_cluster_pairs, row_of, same_key_rows


def _count_by(keys: np.ndarray) -> np.ndarray:
    """For each row, how many rows share its key (keys: 2-D int array)."""
    if not len(keys):
        return np.zeros(0, np.int64)
    keys = np.asarray(keys, np.int64)
    code = keys[:, 0]
    for j in range(1, keys.shape[1]):                 # rows -> one int64 code (values < 2^31)
        code = code * (int(keys[:, j].max()) + 1) + keys[:, j]
    _, inv, cnt = np.unique(code, return_inverse=True, return_counts=True)
    return cnt[inv.reshape(-1)]


def grouping_degrees(c: Corpus, fsid: np.ndarray, m_frag: np.ndarray, m_key: np.ndarray,
                     gold_group: np.ndarray, rules: SeedRules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """dx, dy, dxy per fragment. gold_group: per fragment (0, or its speaker for within)."""
    nf = len(c.f_on)
    by_phone = rules.overlap == "phone"         # lrec2014: fragments overlap when they share a phone
    if rules.grouping_lengths is not None:     # lrec2014: gold pairs among the n-grams of these lengths
        L = c.f_k1 - c.f_k0
        lo, hi = rules.grouping_lengths
        in_fall = (L >= lo) & (L <= hi) & (c.stretch[c.f_k0] == c.stretch[np.maximum(c.f_k1 - 1, 0)])
    else:
        in_fall = np.ones(nf, bool)
    if by_phone:
        ov = interval_pairs(c.f_file, c.f_k0, c.f_k1)             # share a phone
    else:
        ov = interval_pairs(c.f_file, c.f_on, c.f_off)           # share time (not disjoint)
    same = (fsid[ov[:, 0]] == fsid[ov[:, 1]]) & (gold_group[ov[:, 0]] == gold_group[ov[:, 1]]) \
        & in_fall[ov[:, 0]] & in_fall[ov[:, 1]] if len(ov) else np.zeros(0, bool)
    ov = ov[same]
    # gold: same string (and group), minus the overlapping ones
    dy = np.zeros(nf, np.int64)
    sel = np.flatnonzero(in_fall)
    dy[sel] = _count_by(np.stack([fsid[sel], gold_group[sel]], 1)) - 1
    np.subtract.at(dy, ov[:, 0], 1)
    np.subtract.at(dy, ov[:, 1], 1)
    # clusters: per membership row, n_c - 1 and same-string (F_all) members - 1
    dx_row = _count_by(m_key[:, None]) - 1 if len(m_key) else np.zeros(0, np.int64)
    fr = in_fall[m_frag] if len(m_frag) else np.zeros(0, bool)
    dxy_row = np.zeros(len(m_frag), np.int64)
    r = np.flatnonzero(fr)
    if len(r):
        dxy_row[r] = _count_by(np.stack([m_key[r], fsid[m_frag[r]]], 1)) - 1
    # overlapping same-string pairs inside a cluster are not gold
    pi, kk = same_key_rows(ov, m_frag, m_key)
    if len(pi):
        np.subtract.at(dxy_row, row_of(m_frag, m_key, ov[pi, 0], kk), 1)
        np.subtract.at(dxy_row, row_of(m_frag, m_key, ov[pi, 1], kk), 1)
    dx = np.bincount(m_frag, weights=dx_row, minlength=nf).astype(np.int64)
    dxy = np.bincount(m_frag, weights=dxy_row, minlength=nf).astype(np.int64)
    # a partner in k >= 2 shared clusters is one partner
    mp, mk = multi_cluster_pairs(m_frag, m_key)
    if len(mp):
        a, b = mp[:, 0], mp[:, 1]
        np.subtract.at(dx, a, mk - 1)
        np.subtract.at(dx, b, mk - 1)
        g = (fsid[a] == fsid[b]) & in_fall[a] & in_fall[b] & (gold_group[a] == gold_group[b])
        if by_phone:
            g &= ~((c.f_file[a] == c.f_file[b]) & (c.f_k0[a] < c.f_k1[b]) & (c.f_k0[b] < c.f_k1[a]))
        else:
            o = np.minimum(c.f_off[a], c.f_off[b]) - np.maximum(c.f_on[a], c.f_on[b])
            g &= ~((c.f_file[a] == c.f_file[b]) & (o > 0))
        np.subtract.at(dxy, a[g], mk[g] - 1)
        np.subtract.at(dxy, b[g], mk[g] - 1)
    if rules.grouping_lengths is not None:
        dxy[~in_fall] = 0
    return dx, dy, dxy


def grouping_stats(fsid: np.ndarray, dx: np.ndarray, dy: np.ndarray, dxy: np.ndarray) -> dict:
    """Additive counts: fragment weights (|flat|) and, per string, the ordered-pair sums."""
    types, inv = np.unique(fsid, return_inverse=True)
    inv = inv.reshape(-1)
    col = lambda w: np.bincount(inv, weights=w, minlength=len(types)).astype(np.int64)
    return {"type": types, "fx": col(dx > 0), "fy": col(dy > 0), "fxy": col(dxy > 0),
            "mx": col(dx), "my": col(dy), "mxy": col(dxy)}


def scores(st: dict, weights: str) -> tuple[float | None, float | None]:
    fx, fy = st["fx"].sum(), st["fy"].sum()
    if weights == "fragments":
        return ratio(st["fxy"].sum(), fx), ratio(st["fxy"].sum(), fy)
    p = r = None
    if fx:
        s = st["fx"] > 0
        p = float(np.sum(st["fx"][s] / fx * st["mxy"][s] / st["mx"][s]))
    if fy:
        s = st["fy"] > 0
        r = float(np.sum(st["fy"][s] / fy * st["mxy"][s] / st["my"][s]))
    return p, r
