"""What report.html and --textgrids show of a segmentation run: per utterance, the gold tier
scored (words, phones or syllables, cut to the utterance), the system's segments (coloured by
their label when they have one), and its boundaries within the tolerance: hits, and the errors,
missed (a reference boundary no predicted one is matched to) and spurious (a predicted boundary
matched to none), by the default mode's rule (segmentation/boundary.py: integer microseconds,
maximum one-to-one matching, boundaries within the tolerance of the utterance's edges left out).
"""
from __future__ import annotations

import os
from typing import Iterator

import numpy as np

from termeval.core.datadir import Gold, Tier as GoldTier, load_tier
from termeval.report.timeline import Recording, Tier, span
from termeval.segmentation.boundary import drop_edges, interval_points, micro
from termeval.segmentation.inputs import NO_LABEL, Intervals, Utterances
from termeval.segmentation.matching import UTT_STRIDE, keys, max_matching, point_ranges


def tables(name: str) -> tuple[tuple[str, str], ...]:
    d = f"details/{name}"
    return (("Per utterance", f"{d}/per_utterance"), ("Per speaker", f"{d}/per_speaker"),
            ("Boundary F against the tolerance", f"{d}/tolerance_sweep"),
            ("Many-to-one mapping of clusters", f"{d}/mapping_many_to_one"),
            ("One-to-one mapping of clusters", f"{d}/mapping_one_to_one"))


def plots(name: str) -> tuple[dict, ...]:
    d = f"details/{name}"
    return ({"kind": "lines", "table": f"{d}/tolerance_sweep", "x": "tolerance_s", "y": ["precision", "recall", "fscore"],
             "title": "Boundary precision, recall and F against the tolerance", "xlabel": "tolerance (s)",
             "ylabel": "value"},
            {"kind": "bars", "table": f"{d}/per_speaker", "label": "speaker", "values": ["precision", "recall", "fscore",
                                                                                       "token_fscore"],
             "title": "Boundaries and tokens per speaker", "ylabel": "value"})


def notes(compat: str, tolerance: float) -> tuple[str, ...]:
    rule = "" if compat == "none" else f" (--compat {compat} scores by its own rule; the timeline shows the default's)"
    return (f"Timeline: boundary hits and errors within {tolerance:g} s by the default mode's maximum one-to-one "
            f"matching{rule}; boundaries within the tolerance of an utterance's edges are not scored.",)


def _statuses(ref: Intervals, pred: Intervals, utts: Utterances, n: int, tol: int):
    """(utterance, time in s, status) of the scored boundaries of utterances 0..n-1: 0 hit
    (predicted, matched), 1 missed (reference, unmatched), 2 spurious (predicted, unmatched)."""
    r = np.flatnonzero(ref.utt < n)
    p = np.flatnonzero(pred.utt < n)
    u = np.arange(n)
    es, ee = keys(u, micro(utts.start[:n])), keys(u, micro(utts.end[:n]))
    rk = drop_edges(interval_points(ref.utt[r], micro(ref.onset[r]), micro(ref.offset[r])), es, ee, tol)
    pk = drop_edges(interval_points(pred.utt[p], micro(pred.onset[p]), micro(pred.offset[p])), es, ee, tol)
    lo, hi = point_ranges(rk, pk, tol)
    hit = max_matching(lo, hi)
    used = np.zeros(len(rk), dtype=bool)
    nxt = np.arange(len(rk) + 1)           # next free reference at or after i (path halving)

    def free(i: int) -> int:
        while nxt[i] != i:
            nxt[i] = nxt[nxt[i]]
            i = int(nxt[i])
        return i
    for i in sorted(np.flatnonzero(hit).tolist(), key=lambda i: (int(hi[i]), int(lo[i]))):
        j = free(int(lo[i]))               # the first free reference in its range (a matching exists)
        if j <= hi[i]:
            used[j] = True
            nxt[j] = j + 1
    key = np.concatenate((pk, rk[~used]))
    status = np.concatenate((np.where(hit, 0, 2), np.ones(int((~used).sum()), dtype=np.int64)))
    order = np.argsort(key, kind="stable")
    key, status = key[order], status[order]
    utt = key // UTT_STRIDE
    return utt, (key % UTT_STRIDE) / 1e6, status


def phones_of(data_dir: str, gold: Gold, recos: set[int] | None) -> GoldTier | None:
    """The gold phones of the recordings `recos` (None: all, read by the data dir's reader) when
    the step did not read them (a word or syllable segmentation): the lines of those recordings
    alone, the file being sorted by recording (prepare_gold.sh), so the reading stops after the
    last one. None without a phones file."""
    path = os.path.join(data_dir, "phones")
    if not os.path.isfile(path):
        return None
    if recos is None:
        return load_tier(path, gold.file_index)
    want = {gold.files[r] for r in recos}
    last = max(want) if want else ""
    rows: list[tuple[int, float, float, str]] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            x = line.split()
            if len(x) != 4:
                continue
            if x[0] in want:
                rows.append((gold.file_index[x[0]], float(x[1]), float(x[2]), x[3]))
            elif x[0] > last:          # C order: every wanted recording is behind
                break
    labels = sorted({r[3] for r in rows})
    code = {lab: i for i, lab in enumerate(labels)}
    file = np.array([r[0] for r in rows], dtype=np.int32)
    order = np.lexsort((np.array([r[1] for r in rows]), file)) if rows else np.zeros(0, np.int64)
    file = file[order]
    return GoldTier(file, np.array([r[1] for r in rows])[order], np.array([r[2] for r in rows])[order],
                    np.array([code[r[3]] for r in rows], dtype=np.int32)[order], labels,
                    np.searchsorted(file, np.arange(len(gold.files) + 1)))


def recordings(ref: Intervals, pred: Intervals, utts: Utterances, level: str, tolerance: float,
               limit: int | None, data_dir: str | None = None, gold: Gold | None = None) -> Iterator[Recording]:
    """The first `limit` utterances (None: all); with `data_dir` and a word or syllable level,
    the gold phones of their recordings first."""
    n = len(utts) if limit is None else min(limit, len(utts))
    phones = None
    if data_dir is not None and gold is not None and level != "phone":
        phones = phones_of(data_dir, gold, None if limit is None else set(np.asarray(utts.reco[:n]).tolist()))
    rst = np.searchsorted(ref.utt, np.arange(n + 1))
    pst = np.searchsorted(pred.utt, np.arange(n + 1))
    su, st, ss = _statuses(ref, pred, utts, n, int(micro(tolerance)))
    bst = np.searchsorted(su, np.arange(n + 1))
    labelled = bool(pred.labels) and len(pred) > 0 and bool((pred.label != NO_LABEL).all())
    for u in range(n):
        r, p, b = span(rst, u), span(pst, u), span(bst, u)
        seg = (Tier("segments", pred.onset[p], pred.offset[p], pred.label[p], pred.labels, colour="class") if labelled
               else Tier("segments", pred.onset[p], pred.offset[p], [""] * (p.stop - p.start), colour="segment"))
        err = ss[b] > 0
        tiers = [] if phones is None else [_phones(phones, int(utts.reco[u]), utts.start[u], utts.end[u])]
        tiers += [Tier(f"{level}s (gold)", ref.onset[r], ref.offset[r], ref.label[r], ref.labels), seg,
                 Tier("boundary hits", st[b][~err], None, ["hit"] * int((~err).sum()), colour="hit"),
                 Tier("boundary errors", st[b][err], None, np.where(ss[b][err] == 1, "missed", "spurious"),
                      colour="status")]
        yield Recording(utts.ids[u], float(utts.start[u]), float(utts.end[u]), tiers)


def _phones(t: GoldTier, reco: int, start: float, end: float) -> Tier:
    """The phones of a recording that overlap the utterance [start, end]."""
    s = span(t.starts, reco)
    on, off = t.onset[s], t.offset[s]
    keep = (off > start) & (on < end)
    return Tier("phones (gold)", on[keep], off[keep], t.label[s][keep], t.labels)

