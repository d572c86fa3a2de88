"""NED over a set of distinct same-cluster fragment pairs (V4 zr2015-doc §3.2: without the
pairs that overlap in time; lrec2014 §4.2: all of them), counted per cluster by string:
sum over clusters of n_A·n_B·ned(A, B), minus the listed overlapping pairs, minus the extra
copies of pairs that sit together in several clusters. Also gives, per fragment, whether it
is in some such pair (flat(P_disc), for zr2015-doc coverage)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import cdist

from termeval.seeddoc.common import Corpus, Strings
from termeval.seeddoc.pairs import interval_pairs, multi_cluster_pairs, same_key_rows


@dataclass
class NedStats:
    total: float          # sum of ned over the pairs
    pairs: int
    flat: np.ndarray      # bool per fragment: in some pair


def _as_text(strings: Strings, sid: np.ndarray) -> list[str]:
    out = []
    for s in sid.tolist():
        lab = strings.text(s)
        out.append("".join(chr(0x100 + x if 0x100 + x < 0xD800 else 0x100 + x + 0x800) for x in lab))
    return out


def ned_of(a: str, b: str) -> float:
    return Levenshtein.distance(a, b) / max(len(a), len(b))


def time_overlap(c: Corpus, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """§3.1: same file and shared time more than half of either fragment."""
    o = np.minimum(c.f_off[x], c.f_off[y]) - np.maximum(c.f_on[x], c.f_on[y])
    d = np.minimum(c.f_off[x] - c.f_on[x], c.f_off[y] - c.f_on[y])
    return (c.f_file[x] == c.f_file[y]) & (2 * o > d)


def ned_stats(c: Corpus, strings: Strings, fsid: np.ndarray, m_frag: np.ndarray, m_key: np.ndarray,
              filter_overlap: bool) -> NedStats:
    nf = len(c.f_on)
    flat_count = np.zeros(len(m_frag), np.int64)      # partners per membership row
    total, npairs = 0.0, 0
    order = np.lexsort((fsid[m_frag], m_key))
    mf, mk = m_frag[order], m_key[order]
    ms = fsid[mf]
    cut = np.flatnonzero(np.r_[True, mk[1:] != mk[:-1], True])
    texts: dict[int, str] = {}
    for lo, hi in zip(cut[:-1].tolist(), cut[1:].tolist()):
        n = hi - lo
        flat_count[order[lo:hi]] = n - 1
        if n < 2:
            continue
        npairs += n * (n - 1) // 2
        u, cnt = np.unique(ms[lo:hi], return_counts=True)
        if len(u) < 2:
            continue
        for s in u.tolist():
            if s not in texts:
                texts[s] = _as_text(strings, np.asarray([s]))[0]
        tx = [texts[s] for s in u.tolist()]
        dist = cdist(tx, tx, scorer=Levenshtein.distance, dtype=np.int64)
        ln = np.asarray([len(t) for t in tx], np.float64)
        ned = dist / np.maximum(ln[:, None], ln[None, :])
        w = cnt.astype(np.float64)
        total += float((w[:, None] * w[None, :] * ned).sum()) / 2
    # overlapping pairs of one cluster are not pairs (zr2015-doc)
    if filter_overlap and nf:
        ov = interval_pairs(c.f_file, c.f_on, c.f_off)
        ov = ov[time_overlap(c, ov[:, 0], ov[:, 1])] if len(ov) else ov
        pi, kk = same_key_rows(ov, m_frag, m_key)
        if len(pi):
            x, y = ov[pi, 0], ov[pi, 1]
            for a, b in zip(x.tolist(), y.tolist()):
                total -= ned_of(_txt(texts, strings, fsid[a]), _txt(texts, strings, fsid[b]))
            npairs -= len(pi)
            # the rows (fragment, key) lose one partner each
            row = _row_index(m_frag, m_key)
            for a, b, k in zip(x.tolist(), y.tolist(), kk.tolist()):
                flat_count[row[(a, k)]] -= 1
                flat_count[row[(b, k)]] -= 1
    # pairs in k >= 2 clusters counted k times; overlapping ones were removed k times already
    mp, mk2 = multi_cluster_pairs(m_frag, m_key)
    if len(mp):
        keep = ~time_overlap(c, mp[:, 0], mp[:, 1]) if filter_overlap else np.ones(len(mp), bool)
        for (a, b), k in zip(mp[keep].tolist(), mk2[keep].tolist()):
            total -= (k - 1) * ned_of(_txt(texts, strings, fsid[a]), _txt(texts, strings, fsid[b]))
            npairs -= k - 1
    flat = np.zeros(nf, bool)
    flat[m_frag[flat_count > 0]] = True
    return NedStats(total, npairs, flat)


def _txt(texts: dict, strings: Strings, s) -> str:
    s = int(s)
    if s not in texts:
        texts[s] = _as_text(strings, np.asarray([s]))[0]
    return texts[s]


def _row_index(m_frag: np.ndarray, m_key: np.ndarray) -> dict:
    return {(f, k): i for i, (f, k) in enumerate(zip(m_frag.tolist(), m_key.tolist()))}
