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

from termeval.tde.seeddoc.common import Corpus, Strings
from termeval.tde.seeddoc.pairs import interval_pairs, multi_cluster_pairs, row_of, same_key_rows


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
    m_key = np.asarray(m_key, np.int64)
    size = np.bincount(m_key) if len(m_key) else np.zeros(0, np.int64)
    flat_count = (size[m_key] - 1) if len(m_key) else np.zeros(0, np.int64)   # partners per row
    npairs = int((size * (size - 1) // 2).sum())
    total = 0.0
    texts: dict[int, str] = {}
    # (cluster, string) groups; only clusters holding two strings or more have ned > 0
    if len(m_key):
        ms = fsid[m_frag].astype(np.int64)
        code = m_key * (int(ms.max()) + 1) + ms
        u, cnt = np.unique(code, return_counts=True)
        gk, gs = u // (int(ms.max()) + 1), u % (int(ms.max()) + 1)
        multi = np.bincount(gk, minlength=len(size))[gk] >= 2
        gk, gs, cnt = gk[multi], gs[multi], cnt[multi]
        cut = np.flatnonzero(np.r_[True, gk[1:] != gk[:-1], True])
        for lo, hi in zip(cut[:-1].tolist(), cut[1:].tolist()):
            tx = [_txt(texts, strings, s) for s in gs[lo:hi].tolist()]
            dist = cdist(tx, tx, scorer=Levenshtein.distance, dtype=np.int64)
            ln = np.asarray([len(t) for t in tx], np.float64)
            ned = dist / np.maximum(ln[:, None], ln[None, :])
            w = cnt[lo:hi].astype(np.float64)
            total += float((w[:, None] * w[None, :] * ned).sum()) / 2
    # overlapping pairs of one cluster are not pairs (zr2015-doc)
    if filter_overlap and nf:
        ov = interval_pairs(c.f_file, c.f_on, c.f_off)
        ov = ov[time_overlap(c, ov[:, 0], ov[:, 1])] if len(ov) else ov
        pi, kk = same_key_rows(ov, m_frag, m_key)
        if len(pi):
            x, y = ov[pi, 0], ov[pi, 1]
            total -= _ned_sum(texts, strings, fsid[x], fsid[y], np.ones(len(x), np.int64))
            npairs -= len(pi)
            # the rows (fragment, key) lose one partner each
            np.subtract.at(flat_count, row_of(m_frag, m_key, x, kk), 1)
            np.subtract.at(flat_count, row_of(m_frag, m_key, y, kk), 1)
    # pairs in k >= 2 clusters counted k times; overlapping ones were removed k times already
    mp, mk2 = multi_cluster_pairs(m_frag, m_key)
    if len(mp):
        keep = ~time_overlap(c, mp[:, 0], mp[:, 1]) if filter_overlap else np.ones(len(mp), bool)
        total -= _ned_sum(texts, strings, fsid[mp[keep, 0]], fsid[mp[keep, 1]], mk2[keep] - 1)
        npairs -= int((mk2[keep] - 1).sum())
    flat = np.zeros(nf, bool)
    flat[m_frag[flat_count > 0]] = True
    return NedStats(total, npairs, flat)


def _txt(texts: dict, strings: Strings, s) -> str:
    s = int(s)
    if s not in texts:
        texts[s] = _as_text(strings, np.asarray([s]))[0]
    return texts[s]


def _ned_sum(texts: dict, strings: Strings, sa: np.ndarray, sb: np.ndarray, weight: np.ndarray) -> float:
    """Σ weight · ned over pairs of string ids, one edit distance per distinct string pair."""
    if not len(sa):
        return 0.0
    lo, hi = np.minimum(sa, sb).astype(np.int64), np.maximum(sa, sb).astype(np.int64)
    big = int(hi.max()) + 1
    u, inv = np.unique(lo * big + hi, return_inverse=True)
    w = np.bincount(inv.reshape(-1), weights=weight, minlength=len(u))
    return float(sum(wi * ned_of(_txt(texts, strings, a), _txt(texts, strings, b))
                     for wi, a, b in zip(w.tolist(), (u // big).tolist(), (u % big).tolist()) if a != b))
