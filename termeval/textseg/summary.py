"""Over-, under- and mis-segmentation of each gold word type (wordseg-eval -s, its
SegmentationSummary).

An utterance is cut into chunks at the boundaries the gold and the segmentation share; a chunk
of g gold words and s segmented words is `correct` (g = s = 1), `over` (g = 1 < s), `under`
(s = 1 < g) or `mis` (otherwise), and each gold word of the chunk is counted in that category.
"""
from __future__ import annotations

import json
from collections import Counter

import numpy as np

from termeval.textseg import positions

CATEGORIES = ("over", "under", "mis", "correct")
OVER, UNDER, MIS, CORRECT = range(4)       # indices in CATEGORIES


def classify(n_gold: int, n_seg: int) -> str:
    if n_gold == n_seg:
        return "correct" if n_gold == 1 else "mis"
    if n_gold < n_seg:
        return "over" if n_gold == 1 else "mis"
    return "under" if n_seg == 1 else "mis"


def summarize_utterance(seg_words: list[str], gold_words: list[str], into: dict[str, Counter]) -> None:
    """The gold words of one utterance counted by category (`classify` of each chunk's numbers
    of gold and segmented words). Chunks end at the word ends the two share (both spell the
    same string): a gold word's chunk is the first shared end at or after its own end."""
    _, ge = positions.bounds(gold_words)
    _, se = positions.bounds(seg_words)
    shared = np.intersect1d(ge, se, assume_unique=True)
    gc, sc = np.searchsorted(shared, ge), np.searchsorted(shared, se)
    ng, ns = np.bincount(gc, minlength=len(shared)), np.bincount(sc, minlength=len(shared))
    cat = np.where(ng == ns, np.where(ng == 1, CORRECT, MIS),
                   np.where(ng < ns, np.where(ng == 1, OVER, MIS), np.where(ns == 1, UNDER, MIS)))[gc]
    words = np.array(gold_words, dtype=object)
    for k, c in enumerate(CATEGORIES):
        into[c].update(words[cat == k].tolist())


def summarize(seg: list[list[str]], gold: list[list[str]]) -> dict[str, Counter]:
    out = {c: Counter() for c in CATEGORIES}
    for s, g in zip(seg, gold):
        summarize_utterance(s, g, out)
    return out


def merge(parts: list[dict[str, dict[str, int]]]) -> dict[str, Counter]:
    out = {c: Counter() for c in CATEGORIES}
    for p in parts:
        for c in CATEGORIES:
            out[c].update(p.get(c, {}))
    return out


def to_dict(summary: dict[str, Counter]) -> dict[str, dict[str, int]]:
    """wordseg's layout: categories over, under, mis, correct; words by decreasing count, then
    alphabetically."""
    return {c: dict(sorted(summary[c].items(), key=lambda x: (-x[1], x[0]))) for c in CATEGORIES}


def to_json(summary: dict[str, Counter]) -> str:
    """The file wordseg-eval -s writes (json.dumps, indent 4, non-ASCII escaped, no final newline)."""
    return json.dumps(to_dict(summary), indent=4)


def table_rows(summary: dict[str, Counter]) -> list[tuple]:
    """(word, total, correct, over, under, mis) per gold word type, most frequent first."""
    words = set().union(*(summary[c] for c in CATEGORIES))
    rows = [(w, sum(summary[c][w] for c in CATEGORIES), summary["correct"][w], summary["over"][w],
             summary["under"][w], summary["mis"][w]) for w in words]
    return sorted(rows, key=lambda r: (-r[1], r[0]))
