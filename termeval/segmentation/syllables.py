"""SD-HuBERT's syllable cluster metrics (Cho et al. 2024, cheoljun95/sdhubert
`evaluate_purity.py` and `utils/syllable.py`), at `--level syllable` when the segments carry
cluster labels.

Per utterance, the gold syllables (sorted by onset) and the predicted segments (sorted by
onset) are matched one to one by maximum total IoU: scipy's Hungarian solver
(`linear_sum_assignment(iou, maximize=True)`) on

    iou[g, p] = (min(end_g, end_p) - max(start_g, start_p)) / (max(end_g, end_p) - min(start_g, start_p) + 1e-4)

(times in seconds from the utterance start). There is no threshold: the intersection term is
negative for disjoint intervals and every utterance gives min(#gold, #pred) pairs, overlapping
or not. Over all matched pairs, with n(l, c) the number of pairs of gold label l and cluster c
and N their total:

    syllable_purity = sum_c max_l n(l, c) / N     (each cluster's most frequent syllable)
    cluster_purity  = sum_l max_c n(l, c) / N     (each syllable's most frequent cluster)
    snmi            = I(L; C) / H(G)              (natural logs)

where I(L; C) is the mutual information of the matched pairs' labels and clusters, and H(G)
the entropy of the labels of *every* gold syllable of the scored utterances (unmatched
syllables and utterances without a prediction included), as ryota-komatsu/
speaker_disentangled_hubert `src/s5hubert/tasks/eval.py` (SylReg) computes its
syllable_normalized_mutual_info: its `syllable_counter` counts each utterance's whole
`ref_syllables`, its joint table only the matched pairs. H(G) = 0 (one syllable type) is
undefined there (0/0): undefined here too.

SD-HuBERT's script removes the characters 0, 1, 2, 3 from every label (`trim_label`: the
ARPAbet stress digits of its syllable labels; eval.py's `re.sub("[0-3]", "", ...)`) before
counting; termeval does so under `--compat harwath` (SD-HuBERT's own scorer), and counts
labels as written otherwise. The cells (label, cluster, count) and the gold label counts add
up over jobs, so any --nj gives the same numbers.

Examples
--------
>>> import numpy as np
>>> g = (np.array([0.0, 0.3]), np.array([0.3, 0.5]))
>>> p = (np.array([0.0, 0.25]), np.array([0.25, 0.5]))
>>> match_utterance(g[0], g[1], p[0], p[1])
(array([0, 1]), array([0, 1]))
"""
from __future__ import annotations

import numpy as np

from termeval.core.scores import Metric
from termeval.segmentation.clusters import from_named_cells, quality

IOU_EPS = 1e-4
TRIM = str.maketrans("", "", "0123")


def trim_label(label: str) -> str:
    """SD-HuBERT's trim_label: the label without the characters 0, 1, 2 and 3."""
    return label.translate(TRIM)


def iou_matrix(gs: np.ndarray, ge: np.ndarray, ps: np.ndarray, pe: np.ndarray) -> np.ndarray:
    """iou[g, p] of gold intervals (gs, ge) and predicted ones (ps, pe) (module doc)."""
    inter = np.minimum(ge[:, None], pe[None, :]) - np.maximum(gs[:, None], ps[None, :])
    union = np.maximum(ge[:, None], pe[None, :]) - np.minimum(gs[:, None], ps[None, :])
    return inter / (union + IOU_EPS)


def match_utterance(gs: np.ndarray, ge: np.ndarray, ps: np.ndarray, pe: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(gold indices, predicted indices) of the maximum-IoU one-to-one matching of one utterance."""
    from scipy.optimize import linear_sum_assignment   # why: scipy only for this step's syllable metrics
    if not len(gs) or not len(ps):
        z = np.zeros(0, dtype=np.int64)
        return z, z
    g, p = linear_sum_assignment(iou_matrix(gs, ge, ps, pe), maximize=True)
    return g.astype(np.int64), p.astype(np.int64)


def matched_pairs(ref, pred, utt_start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(reference indices, predicted indices) of the matched pairs of all utterances; ref and
    pred are termeval.segmentation.inputs.Intervals sorted by utterance then onset."""
    nu = len(utt_start)
    rb = np.searchsorted(ref.utt, np.arange(nu + 1))
    pb = np.searchsorted(pred.utt, np.arange(nu + 1))
    both = np.flatnonzero((np.diff(rb) > 0) & (np.diff(pb) > 0))
    gi, pi = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    for u in both.tolist():
        r0, r1, p0, p1 = int(rb[u]), int(rb[u + 1]), int(pb[u]), int(pb[u + 1])
        t0 = utt_start[u]
        g, p = match_utterance(ref.onset[r0:r1] - t0, ref.offset[r0:r1] - t0,
                               pred.onset[p0:p1] - t0, pred.offset[p0:p1] - t0)
        gi.append(g + r0)
        pi.append(p + p0)
    return np.concatenate(gi), np.concatenate(pi)


def matched_cells(ref, pred, utt_start: np.ndarray) -> list[list]:
    """[label names, cluster names, counts] of the matched pairs (additive over jobs)."""
    gi, pi = matched_pairs(ref, pred, utt_start)
    if not len(gi):
        return [[], [], []]
    code = np.stack((ref.label[gi], pred.label[pi]), axis=1).astype(np.int64)
    cells, count = np.unique(code, axis=0, return_counts=True)
    return [[ref.labels[x] for x in cells[:, 0].tolist()], [pred.labels[x] for x in cells[:, 1].tolist()],
            count.tolist()]


def gold_label_counts(ref) -> list[list]:
    """[label names, counts] of every gold syllable of `ref` (additive over jobs)."""
    if not len(ref):
        return [[], []]
    lab, cnt = np.unique(ref.label, return_counts=True)
    return [[ref.labels[x] for x in lab.tolist()], cnt.tolist()]


def _entropy(counts: np.ndarray) -> float:
    p = counts / counts.sum()
    return float(-np.sum(p * np.log(p)))


def normalised_mutual_information(cells: list[list], gold: list[list]) -> float | None:
    """I(L; C) of the matched pairs over H of the gold labels (module doc); None without
    pairs or when H = 0."""
    labels, clusters, counts = cells
    names, gcount = gold
    if not counts or not gcount:
        return None
    li = {x: i for i, x in enumerate(dict.fromkeys(labels))}
    ci = {x: i for i, x in enumerate(dict.fromkeys(clusters))}
    p = np.zeros((len(li), len(ci)))
    for a, b, n in zip(labels, clusters, counts):
        p[li[a], ci[b]] += n
    p /= p.sum()
    ps, pc = p.sum(axis=1), p.sum(axis=0)
    r, c = np.nonzero(p)
    mi = float(np.sum(p[r, c] * np.log(p[r, c] / (ps[r] * pc[c]))))
    g: dict[str, int] = {}
    for x, n in zip(names, gcount):
        g[x] = g.get(x, 0) + int(n)
    h = _entropy(np.asarray(list(g.values()), dtype=np.float64))
    return mi / h if h > 0 else None


def cluster_metrics(cells: list[list], trim: bool, gold: list[list] | None = None,
                    empty: float | None = None) -> list[Metric]:
    """syllable_purity, cluster_purity, snmi and the number of matched pairs from the cells and
    the gold label counts (labels trimmed first when `trim`, SD-HuBERT's own rule). Without a
    matched pair the purities are `empty` (evaluate_purity.py's sums over no pair are 0.0) and
    snmi undefined (eval.py's 0/0)."""
    labels = [trim_label(x) for x in cells[0]] if trim else list(cells[0])
    gold = gold or [[], []]
    gold_labels = [trim_label(x) for x in gold[0]] if trim else list(gold[0])
    q = quality(from_named_cells(labels, list(cells[1]), list(cells[2])))
    n = q.segments
    note = f"{n} matched pairs, max-IoU one-to-one" + (", labels trimmed of 0-3" if trim else "")
    snmi = normalised_mutual_information([labels, list(cells[1]), list(cells[2])], [gold_labels, list(gold[1])])
    return [Metric("syllable_matched_pairs", n),
            Metric("syllable_purity", q.purity if n else empty, note),
            Metric("cluster_purity", q.inverse_purity if n else empty),
            Metric("snmi", snmi if n else None, f"over the entropy of {sum(gold[1])} gold syllables")]
