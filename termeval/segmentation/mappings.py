"""Cluster-to-label mappings and their accuracies (fraction of segments whose cluster maps to
their own reference label).

many-to-one: every cluster maps to its most frequent label (accuracy = purity; ties go to the
    first label in name order).
one-to-one, default: a maximum-weight matching of clusters to labels (each label used once),
    the Hungarian method of scipy.optimize.linear_sum_assignment. The table is sparse, so it is
    solved per connected component of the cluster-label graph; a component with one cluster or
    one label is its largest cell; a component too large for a dense matrix is solved by
    scipy.sparse.csgraph.min_weight_full_bipartite_matching (LAPJVsp), same optimum.
one-to-one, vqwordseg: that script's greedy mapping (repeatedly the largest remaining cell whose
    cluster and label are both unmapped; ties: lower cluster order, then label name order; the
    script's own label tie-break follows Python's string hash seed).
"""
from __future__ import annotations

import numpy as np

from termeval.segmentation.clusters import Table

DENSE_CELLS = 4_000_000


def many_to_one(t: Table) -> tuple[dict[int, int], int]:
    """cluster -> label and number of correctly mapped segments."""
    order = np.lexsort((t.row, -t.count, t.col))      # per cluster: largest count, then label
    first = np.ones(len(order), dtype=bool)
    first[1:] = t.col[order][1:] != t.col[order][:-1]
    best = order[first]
    return dict(zip(t.col[best].tolist(), t.row[best].tolist())), int(t.count[best].sum())


def one_to_one(t: Table) -> tuple[dict[int, int], int]:
    """Maximum-weight one-to-one cluster -> label mapping and its number of correct segments."""
    keep = t.count > 0
    row, col, cnt = t.row[keep], t.col[keep], t.count[keep]
    nl, nk = len(t.labels), len(t.clusters)
    if not len(cnt):
        return {}, 0
    from scipy.sparse import coo_matrix                      # scipy.sparse: only a one-to-one mapping needs it
    from scipy.sparse.csgraph import connected_components    # scipy.sparse: only a one-to-one mapping needs it
    # graph nodes: clusters 0..nk-1, labels nk..nk+nl-1
    g = coo_matrix((np.ones(len(cnt)), (col, row + nk)), shape=(nk + nl, nk + nl))
    _, comp = connected_components(g, directed=False)
    cell_comp = comp[col]
    order = np.argsort(cell_comp, kind="stable")
    bounds = np.flatnonzero(np.diff(cell_comp[order])) + 1
    mapping: dict[int, int] = {}
    for cells in np.split(order, bounds):
        r, c, n = row[cells], col[cells], cnt[cells]
        ur, uc = np.unique(r), np.unique(c)
        if len(ur) == 1 or len(uc) == 1:
            i = int(np.lexsort((r, c, -n))[0])
            pairs = [(int(c[i]), int(r[i]))]
        else:
            pairs = _assign(np.searchsorted(uc, c), np.searchsorted(ur, r), n, len(uc), len(ur))
            pairs = [(int(uc[a]), int(ur[b])) for a, b in pairs]
        for k, lab in pairs:
            mapping[k] = lab
    # segments in the mapped cells (a table's cells are distinct (label, cluster) pairs)
    cell = col.astype(np.int64) * nl + row
    by = np.argsort(cell, kind="stable")
    want = (np.fromiter(mapping.keys(), np.int64, len(mapping)) * nl
            + np.fromiter(mapping.values(), np.int64, len(mapping)))
    at = by[np.minimum(np.searchsorted(cell[by], want), len(cell) - 1)]
    return mapping, int(cnt[at][cell[at] == want].sum())


def _assign(ci: np.ndarray, li: np.ndarray, n: np.ndarray, nk: int, nl: int) -> list[tuple[int, int]]:
    """Max-weight matching of one connected component (local indices)."""
    if nk * nl <= DENSE_CELLS:
        from scipy.optimize import linear_sum_assignment    # scipy.optimize: heavy, only a Hungarian solve needs it
        w = np.zeros((nk, nl))
        w[ci, li] = n
        a, b = linear_sum_assignment(w, maximize=True)
        return [(x, y) for x, y in zip(a.tolist(), b.tolist()) if w[x, y] > 0]
    # Sparse: every cluster also gets a private dummy label, so a full matching of the clusters
    # exists; weights big - count (> 0) make the minimum the maximum-count matching.
    from scipy.sparse import csr_matrix                                  # scipy.sparse: only this solve needs it
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching  # scipy.sparse: only this solve needs it
    big = int(n.max()) + 1
    rows = np.concatenate((ci, np.arange(nk)))
    cols = np.concatenate((li, nl + np.arange(nk)))
    w = np.concatenate((big - n, np.full(nk, big))).astype(np.float64)
    m = csr_matrix((w, (rows, cols)), shape=(nk, nl + nk))
    rows_m, cols_m = min_weight_full_bipartite_matching(m)
    return [(int(k), int(j)) for k, j in zip(rows_m.tolist(), cols_m.tolist()) if j < nl]


def greedy_one_to_one(t: Table, cluster_rank: np.ndarray) -> tuple[dict[int, int], int]:
    """vqwordseg's greedy one-to-one mapping; cluster_rank[c] is the script's cluster order."""
    keep = t.count > 0
    row, col, cnt = t.row[keep], t.col[keep], t.count[keep]
    order = np.lexsort((row, cluster_rank[col], -cnt))
    used_l: set[int] = set()
    mapping: dict[int, int] = {}
    total = 0
    for i in order.tolist():
        k, lab = int(col[i]), int(row[i])
        if k in mapping or lab in used_l:
            continue
        mapping[k] = lab
        used_l.add(lab)
        total += int(cnt[i])
    return mapping, total
