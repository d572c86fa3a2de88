"""Over-, under- and mis-segmentation of each gold word type (wordseg-eval -s, its
SegmentationSummary).

An utterance is cut into chunks at the boundaries the gold and the segmentation share; a chunk
of g gold words and s segmented words is `correct` (g = s = 1), `over` (g = 1 < s), `under`
(s = 1 < g) or `mis` (otherwise), and each gold word of the chunk is counted in that category.
"""
from __future__ import annotations

import json
from collections import Counter

CATEGORIES = ("over", "under", "mis", "correct")


def classify(n_gold: int, n_seg: int) -> str:
    if n_gold == n_seg:
        return "correct" if n_gold == 1 else "mis"
    if n_gold < n_seg:
        return "over" if n_gold == 1 else "mis"
    return "under" if n_seg == 1 else "mis"


def summarize_utterance(seg_words: list[str], gold_words: list[str], into: dict[str, Counter]) -> None:
    i = j = 0
    gpos = spos = 0
    while i < len(gold_words):
        gi, sj = i, j
        gpos += len(gold_words[i])
        spos += len(seg_words[j])
        i, j = i + 1, j + 1
        while gpos != spos:
            if gpos < spos:
                gpos += len(gold_words[i])
                i += 1
            else:
                spos += len(seg_words[j])
                j += 1
        cat = classify(i - gi, j - sj)
        into[cat].update(gold_words[gi:i])


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
