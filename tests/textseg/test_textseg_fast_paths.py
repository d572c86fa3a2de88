"""The numpy paths of text segmentation give what the plain definitions give (written out here
on Python sets and loops): the 9 position counts, the over/under/mis summary, the unit counts
of the Rand index and the unit-edge check."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from termeval.core.errors import InputError
from termeval.textseg import positions, rand, summary
from termeval.textseg.text import Text, check_unit_edges


def _spans(words):
    out, pos = set(), 0
    for w in words:
        out.add((pos, pos + len(w)))
        pos += len(w)
    return out


def _counts(seg, gold):
    ts, gs = _spans(seg), _spans(gold)
    tb, gb = {p for s in ts for p in s}, {p for s in gs for p in s}
    tn, gn = {a for a, _ in ts if a > 0}, {a for a, _ in gs if a > 0}
    return [len(ts & gs), len(ts), len(gs), len(tb & gb), len(tb), len(gb), len(tn & gn), len(tn), len(gn)]


def _summary(seg, gold):
    into = {c: Counter() for c in summary.CATEGORIES}
    i = j = gpos = spos = 0
    while i < len(gold):
        gi, sj = i, j
        gpos += len(gold[i])
        spos += len(seg[j])
        i, j = i + 1, j + 1
        while gpos != spos:
            if gpos < spos:
                gpos += len(gold[i])
                i += 1
            else:
                spos += len(seg[j])
                j += 1
        into[summary.classify(i - gi, j - sj)].update(gold[gi:i])
    return into


def _cut(rng, units):
    """Words of whole units (one cut between units with probability 0.4)."""
    words, cur = [], ""
    for k, u in enumerate(units):
        cur += u
        if k == len(units) - 1 or rng.random() < 0.4:
            words.append(cur)
            cur = ""
    return words


def test_counts_summary_and_unit_counts_match_their_definitions():
    rng = random.Random(4)
    for _ in range(300):
        units = [rng.choice(["a", "b", "iː", "tʃ", "ou"]) for _ in range(rng.randint(1, 25))]
        gold, seg = _cut(rng, units), _cut(rng, units)
        assert positions.utterance_counts(seg, gold) == _counts(seg, gold)
        into = {c: Counter() for c in summary.CATEGORIES}
        summary.summarize_utterance(seg, gold, into)
        assert into == _summary(seg, gold)
        for words in (gold, seg):
            assert rand.unit_counts(words, units).tolist() == rand.word_lengths(words, units)


def test_unit_edge_check_names_the_first_word_inside_a_unit():
    t = Text("seg.txt", [3], [["ab", "cde", "fg"]], None)
    check_unit_edges(t, 0, ["a", "b", "cde", "fg"], "the gold")
    with pytest.raises(InputError, match=r"word 'cde' ends inside a unit of the gold \(units: ab c def g\)"):
        check_unit_edges(t, 0, ["ab", "c", "def", "g"], "the gold")
    with pytest.raises(InputError, match="word 'fg' ends inside"):
        check_unit_edges(t, 0, ["ab", "cde"], "the gold")
    with pytest.raises(InputError, match="word 'ab' ends inside"):
        check_unit_edges(t, 0, [], "the gold")
