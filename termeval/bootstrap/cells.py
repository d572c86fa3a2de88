"""Per-unit contingency cells: cluster metrics (purity, V-measure, NMI, ...) under resampling.

A segmentation's cluster metrics are functions of the contingency table (reference label x
predicted cluster) of all segments. Each unit (file or speaker) contributes the cells of its
own segments, so a resample's table is w @ C with C the sparse (units x cells) count matrix:
the table is recomputed exactly from the resampled per-unit cells, and every cluster metric is
recomputed from that table, as termeval.segmentation.clusters.quality does for the full one
(vectorised over the resamples). The metric kind in UnitStats.metrics is ("cells", <what>).

Not recomputed per resample (docs/uncertainty.md): the one-to-one mapping (its accuracy is a
plain ratio of per-unit counts under the full-sample mapping, a Hungarian solve per resample
would cost more than the scoring) and, for --compat vqwordseg purity, the set of clusters the
script visits (held at the full sample's).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:          # annotations only: scipy is imported where cells are built
    import scipy.sparse as sp

WHAT = ("purity", "inverse_purity", "homogeneity", "completeness", "v_measure", "nmi", "m2o_accuracy")
BLOCK = 4_000_000           # resampled cells evaluated at once (memory bound, not the result)
EPS = np.finfo(np.float64).eps


@dataclass
class Cells:
    """C[u, j] = segments of unit u in cell j; cell j = (labels[row[j]], clusters[col[j]])."""
    X: sp.csr_matrix
    row: np.ndarray
    col: np.ndarray
    labels: list[str]
    clusters: list[str]
    visit: np.ndarray | None = None     # clusters counted by the vqwordseg purity (None: all)

    def __post_init__(self) -> None:
        import scipy.sparse as sp   # only where needed: import termeval stays light
        self.X = sp.csr_matrix(self.X, dtype=np.float64)
        self.row, self.col = np.asarray(self.row, np.int64), np.asarray(self.col, np.int64)

    def sums(self, w: np.ndarray) -> np.ndarray:
        """(B x U) weights -> (B x M) resampled tables."""
        return np.asarray((self.X.T @ np.atleast_2d(w).T).T)


def build(unit: np.ndarray, label: list[str], cluster: list[str], count: np.ndarray, n_units: int) -> Cells:
    """Cells from (unit index, label name, cluster name, count) rows; names sorted, so the
    indices are those of termeval.segmentation.clusters.from_named_cells on the same names."""
    import scipy.sparse as sp   # only where needed: import termeval stays light
    labels, clusters = sorted(set(label)), sorted(set(cluster))
    li, ci = {x: i for i, x in enumerate(labels)}, {x: i for i, x in enumerate(clusters)}
    r = np.fromiter(map(li.__getitem__, label), np.int64, len(label))
    c = np.fromiter(map(ci.__getitem__, cluster), np.int64, len(cluster))
    code, cell = np.unique(r * max(len(clusters), 1) + c, return_inverse=True)
    X = sp.csr_matrix((np.asarray(count, np.float64), (np.asarray(unit, np.int64), cell.ravel())),
                      shape=(n_units, len(code)))
    X.sum_duplicates()
    nc = max(len(clusters), 1)
    return Cells(X, code // nc, code % nc, labels, clusters)


def _entropy(sizes: np.ndarray, n: np.ndarray) -> np.ndarray:
    pos = sizes > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(pos, (sizes / n) * (np.log(np.where(pos, sizes, 1.0)) - np.log(n)), 0.0)
    return np.where(pos.any(axis=1), -t.sum(axis=1), 1.0)   # 1.0: scikit-learn's empty labelling


def _sizes(S: np.ndarray, index: np.ndarray, n: int) -> np.ndarray:
    """(B x n) sums of the cells of each label (or cluster)."""
    import scipy.sparse as sp   # only where needed: import termeval stays light
    ind = sp.csr_matrix((np.ones(len(index)), (index, np.arange(len(index)))), shape=(n, len(index)))
    return np.asarray((ind @ S.T).T)


def _group_max(S: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Per row, the sum over groups (equal key) of the group's largest cell."""
    order = np.argsort(key, kind="stable")
    k = key[order]
    starts = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
    return np.maximum.reduceat(S[:, order], starts, axis=1).sum(axis=1)


def _block(c: Cells, S: np.ndarray) -> dict[str, np.ndarray]:
    n = S.sum(axis=1, keepdims=True)
    nl, nk = len(c.labels), len(c.clusters)
    a, b = _sizes(S, c.row, nl), _sizes(S, c.col, nk)          # label and cluster sizes
    h_c, h_k = _entropy(a, n), _entropy(b, n)
    pos = S > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        outer = a[:, c.row] * b[:, c.col]
        t = (S / n) * (np.log(np.where(pos, S, 1.0)) - np.log(n)) \
            + (S / n) * (-np.log(np.where(pos, outer, 1.0)) + 2 * np.log(n))
        t = np.where(pos & (np.abs(t) >= EPS), t, 0.0)
        mi = np.maximum(t.sum(axis=1), 0.0)
        hom = np.where(h_c != 0, mi / np.where(h_c != 0, h_c, 1.0), 1.0)
        com = np.where(h_k != 0, mi / np.where(h_k != 0, h_k, 1.0), 1.0)
        v = np.where(hom + com != 0, 2 * hom * com / np.where(hom + com != 0, hom + com, 1.0), 0.0)
        one = ((a > 0).sum(axis=1) == 1) & ((b > 0).sum(axis=1) == 1)
        nmi = np.where(one, 1.0, np.where(mi == 0, 0.0, mi / np.maximum((h_c + h_k) / 2, EPS)))
        n1 = n[:, 0]
        colmax = _group_max(S, c.col)
        out = {"inverse_purity": _group_max(S, c.row) / n1, "homogeneity": hom, "completeness": com,
               "v_measure": v, "nmi": nmi, "m2o_accuracy": colmax / n1}
        if c.visit is None:
            out["purity"] = colmax / n1
        else:
            keep = c.visit[c.col]
            vis = S[:, keep].sum(axis=1)
            out["purity"] = _group_max(S[:, keep], c.col[keep]) / np.where(vis > 0, vis, np.nan) \
                if keep.any() else np.full(len(S), np.nan)
    empty = n1 == 0
    return {k: np.where(empty, np.nan, x) for k, x in out.items()}


def values(c: Cells, S: np.ndarray) -> dict[str, np.ndarray]:
    """Every cluster metric for each row of resampled tables S (B x M); NaN = undefined."""
    S = np.atleast_2d(S)
    step = max(1, BLOCK // max(S.shape[1], 1))
    parts = [_block(c, S[i:i + step]) for i in range(0, len(S), step)]
    return {k: np.concatenate([p[k] for p in parts]) if parts else np.zeros(0) for k in WHAT}


def align(a: Cells, b: Cells) -> tuple[Cells, Cells]:
    """Both systems' cells in one cell space (for approximate randomization, which moves a
    unit's cells from one system to the other): labels by name, clusters kept apart (the
    clusters of two systems are unrelated even when their names coincide)."""
    import scipy.sparse as sp   # only where needed: import termeval stays light
    labels = sorted(set(a.labels) | set(b.labels))
    li = {x: i for i, x in enumerate(labels)}
    clusters = [f"a:{x}" for x in a.clusters] + [f"b:{x}" for x in b.clusters]
    row = np.r_[[li[a.labels[r]] for r in a.row], [li[b.labels[r]] for r in b.row]].astype(np.int64)
    col = np.r_[a.col, b.col + len(a.clusters)].astype(np.int64)
    va = np.ones(len(a.clusters), bool) if a.visit is None else a.visit
    vb = np.ones(len(b.clusters), bool) if b.visit is None else b.visit
    visit = None if a.visit is None and b.visit is None else np.r_[va, vb]
    za, zb = sp.csr_matrix(a.X.shape[:1] + (b.X.shape[1],)), sp.csr_matrix(b.X.shape[:1] + (a.X.shape[1],))
    return (Cells(sp.hstack([a.X, za], format="csr"), row, col, labels, clusters, visit),
            Cells(sp.hstack([zb, b.X], format="csr"), row, col, labels, clusters, visit))
