"""Fragments grouped by their transcribed range ("nodes") and the split into simple nodes,
whose pairs are counted, and complex ones, whose pairs are listed (§5: "duplicates and dropped
overlapping completions corrected only where fragments' ranges overlap").

A node is a distinct phone range r(x) of the fold's fragments. It is **simple** when
  * no other node shares a phone with it (its completed sub-ranges are nobody else's),
  * it is pause-free (every sub-range is an F_all candidate),
  * it holds one fragment, in one cluster (of the cluster key in use),
  * (zr2015-doc) that fragment overlaps no other fragment of its file in time (o > 0), so every
    pair it is in is a P_disc pair and no completion of it is dropped;
otherwise **complex**.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from termeval.tde.seeddoc.common import Corpus, pause_free


@dataclass
class Nodes:
    k0: np.ndarray
    k1: np.ndarray
    sid: np.ndarray              # string id (Strings) of each node
    of_frag: np.ndarray          # node of each fragment
    complex: np.ndarray          # bool per node
    m_node: np.ndarray           # node of each membership row
    m_key: np.ndarray            # cluster key of each membership row
    m_frag: np.ndarray


def time_overlapping(c: Corpus) -> np.ndarray:
    """Fragments that share time (o > 0) with another fragment of the same file."""
    n = len(c.f_on)
    out = np.zeros(n, bool)
    if n < 2:
        return out
    order = np.lexsort((c.f_off, c.f_on, c.f_file))
    f, s, e = c.f_file[order], c.f_on[order], c.f_off[order]
    nxt = (f[1:] == f[:-1]) & (s[1:] < e[:-1])        # overlaps the next one
    # running max of the earlier offsets of the same file (files sorted: offset by file * 2^40)
    acc = np.maximum.accumulate(f.astype(np.int64) * (1 << 40) + e)
    prev = np.r_[False, (f[1:] == f[:-1]) & (acc[:-1] - f[1:].astype(np.int64) * (1 << 40) > s[1:])]
    hit = prev.copy()
    hit[:-1] |= nxt
    out[order] = hit
    return out


def build_nodes(c: Corpus, fsid: np.ndarray, key: np.ndarray, time_overlap: bool) -> Nodes:
    """Nodes of the fold's fragments (fsid: string id of each); `key` = cluster key of each
    membership row; time_overlap: fragments overlapping in time make their nodes complex."""
    nf = len(c.f_k0)
    rk = c.f_k0.astype(np.int64) * (1 << 32) + c.f_k1
    uk, of_frag = np.unique(rk, return_inverse=True)
    of_frag = of_frag.reshape(-1)
    k0, k1 = uk >> 32, uk & ((1 << 32) - 1)
    sid = np.zeros(len(uk), np.int64)
    sid[of_frag] = fsid
    nn = len(uk)
    cx = ~pause_free(c, k0, k1) if nn else np.zeros(0, bool)
    # nodes sharing a phone with another node (sorted by k0, then k1)
    if nn > 1:
        runmax = np.maximum.accumulate(k1)
        shares_prev = np.r_[False, k0[1:] < runmax[:-1]]
        comp = np.cumsum(~shares_prev)
        size = np.bincount(comp)
        cx |= size[comp] > 1
    frags_per_node = np.bincount(of_frag, minlength=nn)
    cx |= frags_per_node > 1
    m_node = of_frag[c.m_frag] if len(c.m_frag) else np.zeros(0, np.int64)
    pair = np.unique(np.stack([m_node, key], 1), axis=0) if len(m_node) else np.zeros((0, 2), np.int64)
    cx |= np.bincount(pair[:, 0], minlength=nn) > 1
    if time_overlap and nf:
        ov = time_overlapping(c)
        cx[of_frag[ov]] = True
    return Nodes(k0, k1, sid, of_frag, cx, m_node, np.asarray(key, np.int64), c.m_frag)
