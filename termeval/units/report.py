"""What a unit scoring writes besides the scores: the per-utterance and per-phone tables, the
unit -> phone mapping, the confusion plot, fairseq's table, and the per-file statistics of
the bootstrap (units/units.<stage>_file.npz)."""
from __future__ import annotations

import os
from typing import Sequence

import numpy as np

from termeval.bootstrap import cells as bcells
from termeval.bootstrap.engine import UnitStats
from termeval.core.numbers import fmt_column
from termeval.core.plots import drawing, new_figure, save_figure, tight_layout
from termeval.core.scores import Metric
from termeval.core.textio import atomic_write
from termeval.units import fairseq
from termeval.units.evaluate import FILE_COLUMNS, Result

KEYS = ("pnmi", "phone_purity", "cluster_purity", "per", "boundary_precision", "boundary_recall",
        "boundary_fscore", "boundary_rvalue")
FAIRSEQ_KEYS = ("ref_entropy", "hyp_entropy", "mutual_information", "ref_segment_length", "hyp_segment_length")
LOWER_IS_BETTER = ("per",)


def metrics(scores: dict, result: Result, prefix: str = "", keys: Sequence[str] = KEYS,
            ci: dict | None = None) -> list[Metric]:
    """The score lines, with their support (frames, files, boundaries)."""
    tot = result.per_file.sum(axis=0)
    support = {"pnmi": f"{int(tot[2])} frames", "per": f"{int(tot[3])} / {int(tot[4])} phones",
               "boundary_precision": f"{int(tot[7])} / {int(tot[6])}", "boundary_recall": f"{int(tot[7])} / {int(tot[5])}"}
    out = []
    for k in keys:
        if k in scores:
            name = prefix + k
            out.append(Metric(name, scores[k], support.get(k, ""), (ci or {}).get(name)))
    return out


def _tsv(path: str, header: Sequence[str], columns: Sequence[Sequence[str]]) -> None:
    with atomic_write(path) as f:
        f.write("\t".join(header) + "\n")
        for row in zip(*columns):
            f.write("\t".join(row) + "\n")


def write_details(d: str, files: Sequence[str], r: Result, plot: bool = True) -> list[str]:
    """per_utterance.tsv, per_phone.tsv, mapping.tsv (and teacher_quality.txt, confusion.png/.pdf) in d."""
    os.makedirs(d, exist_ok=True)
    pf = r.per_file
    ints = [[str(x) for x in pf[:, k].tolist()] for k in range(pf.shape[1])]
    with np.errstate(divide="ignore", invalid="ignore"):
        per = np.where(pf[:, 4] > 0, pf[:, 3] / np.maximum(pf[:, 4], 1), np.nan)
        prec = np.where(pf[:, 6] > 0, pf[:, 7] / np.maximum(pf[:, 6], 1), np.nan)
        rec = np.where(pf[:, 5] > 0, pf[:, 7] / np.maximum(pf[:, 5], 1), np.nan)
    _tsv(os.path.join(d, "per_utterance.tsv"), ("utterance",) + FILE_COLUMNS + ("per", "bnd_precision", "bnd_recall"),
         [list(files)] + ints + [fmt_column(per), fmt_column(prec), fmt_column(rec)])
    count = r.count
    total = max(int(count.sum()), 1)
    frames = count.sum(axis=1)
    best = count.argmax(axis=1)
    mapped = np.bincount(r.unit_row[count.sum(axis=0) > 0], minlength=len(frames)) if count.size else frames
    _tsv(os.path.join(d, "per_phone.tsv"), ("phone", "frames", "share", "best_unit", "best_unit_share",
                                            "units_mapped"),
         [r.rows.names, [str(x) for x in frames.tolist()], fmt_column(frames / total),
          [str(x) for x in best.tolist()],
          fmt_column(np.where(frames > 0, count[np.arange(len(frames)), best] / np.maximum(frames, 1), np.nan)),
          [str(x) for x in mapped.tolist()]])
    ufr = count.sum(axis=0)
    seen = np.flatnonzero(ufr > 0)
    row = r.unit_row[seen]
    argmax = count[:, seen].argmax(axis=0) if len(seen) else row
    _tsv(os.path.join(d, "mapping.tsv"), ("unit", "frames", "phone", "phone_share", "best_phone", "best_phone_share"),
         [[str(x) for x in seen.tolist()], [str(x) for x in ufr[seen].tolist()], [r.rows.names[i] for i in row.tolist()],
          fmt_column(count[row, seen] / np.maximum(ufr[seen], 1)), [r.rows.names[i] for i in argmax.tolist()],
          fmt_column(count[argmax, seen] / np.maximum(ufr[seen], 1))])
    written = ["per_utterance.tsv", "per_phone.tsv", "mapping.tsv"]
    if r.fairseq is not None:
        with atomic_write(os.path.join(d, "teacher_quality.txt")) as f:
            f.write(fairseq.table(r.fairseq))
        written.append("teacher_quality.txt")
    if plot:
        written += [os.path.basename(p) for p in confusion_plot(os.path.join(d, "confusion"), r)]
    return written


def probability_order(count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(units seen, P(phone | unit)) with the units grouped by their most probable phone in row
    order, by decreasing probability within a group (discophon's probability_phone_given_unit)."""
    seen = np.flatnonzero(count.sum(axis=0) > 0)
    proba = count[:, seen] / count[:, seen].sum(axis=0)
    top = proba.argmax(axis=0)
    order = np.lexsort((-proba[top, np.arange(len(seen))], top))
    return seen[order], proba[:, order]


@drawing
def confusion_plot(base: str, r: Result) -> list[str]:
    """P(phone | unit) as an image: phones (rows, most frequent first) x units seen."""
    units, proba = probability_order(r.count)
    keep = r.count.sum(axis=1) > 0
    proba, names = proba[keep], [n for n, k in zip(r.rows.names, keep.tolist()) if k]
    width = min(4 + 0.04 * len(units), 24)
    fig, ax = new_figure((width, 2 + 0.18 * len(names)))
    im = ax.imshow(proba, aspect="auto", interpolation="nearest", cmap="viridis", vmin=0, vmax=1)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=6)
    ax.set_xlabel(f"units ({len(units)} seen), grouped by their most probable phone")
    ax.set_ylabel("phone")
    fig.colorbar(im, ax=ax, label="P(phone | unit)")
    tight_layout(fig)
    return save_figure(fig, base)


def _cells(owner: np.ndarray, row: np.ndarray, unit: np.ndarray, count: np.ndarray, names: Sequence[str],
           n: int) -> bcells.Cells:
    """What termeval.bootstrap.cells.build makes of the cells with label names[row] and cluster
    str(unit) (names sorted, cells in sorted (label, cluster) order), without a Python object a cell."""
    import scipy.sparse as sp   # only where the bootstrap tables are built
    rows_seen = np.unique(row)
    labels = sorted(names[i] for i in rows_seen.tolist())
    lrank = np.zeros(max(int(row.max()) + 1, 1) if len(row) else 1, np.int64)
    lrank[rows_seen] = [labels.index(names[i]) for i in rows_seen.tolist()]
    units_seen = np.unique(unit)
    clusters = sorted(str(u) for u in units_seen.tolist())
    crank = np.zeros(max(int(unit.max()) + 1, 1) if len(unit) else 1, np.int64)
    crank[units_seen] = [clusters.index(str(u)) for u in units_seen.tolist()]
    nc = max(len(clusters), 1)
    code, cell = np.unique(lrank[row] * nc + crank[unit], return_inverse=True)
    X = sp.csr_matrix((np.asarray(count, np.float64), (np.asarray(owner, np.int64), cell.ravel())),
                      shape=(n, len(code)))
    X.sum_duplicates()
    return bcells.Cells(X, code // nc, code % nc, labels, clusters)


def unit_stats(owner: Sequence[str], r: Result, cell: dict, prefix: str, unit: str,
               rename: dict[str, str] | None = None) -> UnitStats:
    """Per-unit (file or speaker) statistics: PER and boundary counts, and the contingency cells
    (phone row, unit) for PNMI (the homogeneity of phones by units) and the purities."""
    names, inv = np.unique(np.asarray(owner, dtype=str), return_inverse=True)
    n = len(names)
    pf = r.per_file
    X = np.zeros((n, 5))
    np.add.at(X, inv, pf[:, [3, 4, 5, 6, 7]].astype(np.float64))
    columns = ["per_errors", "per_length", "bnd_ref", "bnd_pred", "bnd_hit"]
    row_of_code = np.full(int(r.rows.code.max()) + 1 if len(r.rows.code) else 1, -1, np.int64)
    real = r.rows.code >= 0
    row_of_code[r.rows.code[real]] = np.flatnonzero(real)
    c = _cells(inv[cell["cell_file"]], row_of_code[cell["cell_phone"]], cell["cell_unit"], cell["cell_count"],
               r.rows.names, n)
    specs = {f"{prefix}pnmi": ("cells", "homogeneity"), f"{prefix}phone_purity": ("cells", "purity"),
             f"{prefix}cluster_purity": ("cells", "inverse_purity"),
             f"{prefix}per": ("ratio", "per_errors", "per_length"),
             f"{prefix}boundary_precision": ("ratio", "bnd_hit", "bnd_pred"),
             f"{prefix}boundary_recall": ("ratio", "bnd_hit", "bnd_ref"),
             f"{prefix}boundary_fscore": ("fscore", f"{prefix}boundary_precision", f"{prefix}boundary_recall"),
             f"{prefix}boundary_rvalue": ("rvalue", f"{prefix}boundary_precision", f"{prefix}boundary_recall")}
    rename = {prefix + k: prefix + v for k, v in (rename or {}).items()}
    specs = {rename.get(k, k): (v[0], *[rename.get(x, x) for x in v[1:]]) for k, v in specs.items()}
    return UnitStats(unit, names.tolist(), columns, X, specs, {}, c)


@drawing
def pairs_plot(base: str, names: Sequence[str], values: Sequence[dict]) -> list[str]:
    """PNMI, PER, F1 and R-value of every (language, split) pair, side by side."""
    fig, axes = new_figure((max(6.0, 0.45 * len(names) + 2), 5.5), 4, 1, sharex=True)
    for ax, key in zip(axes, ("pnmi", "per", "f1", "r_val")):
        ax.bar(range(len(names)), [np.nan if v[key] is None else v[key] for v in values], color="0.35")
        ax.set_ylabel(key)
        ax.grid(axis="y", alpha=0.3)
    axes[-1].set_xticks(range(len(names)))
    axes[-1].set_xticklabels(names, rotation=60, fontsize=7)
    tight_layout(fig)
    return save_figure(fig, base)
