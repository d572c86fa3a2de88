"""Cluster quality from a contingency table of counts (reference label x predicted cluster).

Each predicted segment is labelled with the reference token (word or phone) it overlaps most;
on equal overlap the earlier token wins; a segment overlapping none gets `fallback` (default
mode: the extra label `<sil>`; vqwordseg: the utterance's first token). The table is a sparse
list of (label, cluster, count) cells, so shards add up by summing counts.

From the table: purity (= many-to-one mapping accuracy) and inverse purity (sum of the largest
cell of each cluster, resp. label, over N); homogeneity, completeness and V-measure
(Rosenberg & Hirschberg 2007) and NMI with arithmetic normalisation, as scikit-learn defines
them (natural logarithms; with the arithmetic mean NMI equals V-measure).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from termeval.segmentation.matching import keys

SIL_LABEL = "<sil>"


def overlap_labels(ref_utt: np.ndarray, ref_start: np.ndarray, ref_end: np.ndarray,
                   pred_utt: np.ndarray, pred_start: np.ndarray, pred_end: np.ndarray) -> np.ndarray:
    """Index of the reference interval each predicted one overlaps most (first on ties), -1 if
    it overlaps none with a positive length. Reference sorted and disjoint per utterance."""
    rs, re = keys(ref_utt, ref_start), keys(ref_utt, ref_end)
    ps, pe = keys(pred_utt, pred_start), keys(pred_utt, pred_end)
    first = np.searchsorted(re, ps, side="right")      # first reference ending after the start
    stop = np.searchsorted(rs, pe, side="left")        # references starting before the end
    best = np.full(len(ps), -1, dtype=np.int64)
    best_len = np.zeros(len(ps), dtype=np.int64)
    k = 0
    active = np.flatnonzero(stop > first)
    while len(active):                                  # k-th overlapping reference of each
        j = first[active] + k
        ov = np.minimum(re[j], pe[active]) - np.maximum(rs[j], ps[active])
        better = ov > best_len[active]
        best[active[better]] = j[better]
        best_len[active[better]] = ov[better]
        k += 1
        active = active[stop[active] > first[active] + k]
    return best


@dataclass
class Table:
    """Sparse contingency table: cell i counts segments of reference label `row[i]` in
    predicted cluster `col[i]`; rows index `labels`, columns index `clusters`."""
    row: np.ndarray
    col: np.ndarray
    count: np.ndarray
    labels: list[str]
    clusters: list[str]

    @property
    def total(self) -> int:
        return int(self.count.sum())


def contingency(ref_label: np.ndarray, cluster: np.ndarray, labels: list[str],
                clusters: list[str]) -> Table:
    """Cells of the table from one label and one cluster index per segment."""
    code = ref_label.astype(np.int64) * max(len(clusters), 1) + cluster.astype(np.int64)
    code = np.sort(code)
    first = np.flatnonzero(np.concatenate(([True], code[1:] != code[:-1]))) if len(code) else np.zeros(0, np.int64)
    cells, counts = code[first], np.diff(np.append(first, len(code)))
    nc = max(len(clusters), 1)
    return Table(cells // nc, cells % nc, counts.astype(np.int64), labels, clusters)


def from_named_cells(label: list[str], cluster: list[str], count: list[int]) -> Table:
    """Table of (label name, cluster name, count) cells, repeated cells summed, names sorted."""
    labels, clusters = sorted(set(label)), sorted(set(cluster))
    li = {x: i for i, x in enumerate(labels)}
    ci = {x: i for i, x in enumerate(clusters)}
    nc = max(len(clusters), 1)
    code = (np.fromiter(map(li.__getitem__, label), dtype=np.int64, count=len(label)) * nc
            + np.fromiter(map(ci.__getitem__, cluster), dtype=np.int64, count=len(cluster)))
    cnt = np.asarray(count, dtype=np.int64)
    order = np.argsort(code, kind="stable")
    code, cnt = code[order], cnt[order]
    first = np.flatnonzero(np.concatenate(([True], code[1:] != code[:-1]))) if len(code) else np.zeros(0, np.int64)
    sums = np.add.reduceat(cnt, first) if len(first) else cnt
    return Table(code[first] // nc, code[first] % nc, sums.astype(np.int64), labels, clusters)


def _group_max(index: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros(n, dtype=np.int64)
    np.maximum.at(out, index, values)
    return out


def _entropy(sizes: np.ndarray, total: int) -> float:
    s = sizes[sizes > 0].astype(np.float64)
    if len(s) == 0:
        return 1.0   # scikit-learn's value for an empty labelling
    return float(-np.sum((s / total) * (np.log(s) - math.log(total))))


@dataclass
class Quality:
    segments: int
    clusters: int
    purity: float | None
    inverse_purity: float | None
    homogeneity: float | None
    completeness: float | None
    v_measure: float | None
    nmi: float | None


def quality(t: Table) -> Quality:
    n = t.total
    k = len(np.unique(t.col[t.count > 0]))
    if n == 0:
        return Quality(0, 0, None, None, None, None, None, None)
    nl, nk = len(t.labels), len(t.clusters)
    col_max = _group_max(t.col, t.count, nk)
    row_max = _group_max(t.row, t.count, nl)
    a = np.bincount(t.row, weights=t.count, minlength=nl).astype(np.int64)   # label sizes
    b = np.bincount(t.col, weights=t.count, minlength=nk).astype(np.int64)   # cluster sizes
    h_c, h_k = _entropy(a, n), _entropy(b, n)
    nz = t.count > 0
    c = t.count[nz].astype(np.float64)
    outer = a[t.row[nz]].astype(np.float64) * b[t.col[nz]].astype(np.float64)
    terms = (c / n) * (np.log(c) - math.log(n)) + (c / n) * (-np.log(outer) + 2 * math.log(n))
    terms = np.where(np.abs(terms) < np.finfo(np.float64).eps, 0.0, terms)
    mi = max(float(terms.sum()), 0.0)
    hom = mi / h_c if h_c else 1.0
    com = mi / h_k if h_k else 1.0
    v = 2 * hom * com / (hom + com) if hom + com else 0.0
    n_labels = int((a > 0).sum())
    if n_labels == k == 1:
        nmi = 1.0
    elif mi == 0:
        nmi = 0.0
    else:
        nmi = mi / max((h_c + h_k) / 2, np.finfo(np.float64).eps)
    return Quality(n, k, float(col_max.sum()) / n, float(row_max.sum()) / n, hom, com, v, nmi)
