"""Type scores: the segmented text's lexicon (its distinct words) against the gold lexicon
(wordseg-eval's TypeEvaluation).

Default: correct = |S & G|, segmented = |S|, gold = |G|.
--compat wordseg reproduces its bookkeeping, where a word written `_` is its placeholder for
"no match": a word `_` is never counted in |S| or |G|, counts as correct when it is in S and not
in G, and also when it is in G only while no segmented word was a false positive; with `_` in
both lexicons it counts as correct while counted in neither size, so wordseg-eval prints type
scores above 1 (`_ aaa_` against itself: type precision 2), which this mode reproduces.
"""
from __future__ import annotations


def type_counts(seg_lexicon: set[str], gold_lexicon: set[str], compat: str = "none") -> tuple[int, int, int]:
    """(correct, segmented, gold) over the two lexicons."""
    if compat != "wordseg" or "_" not in seg_lexicon | gold_lexicon:
        return len(seg_lexicon & gold_lexicon), len(seg_lexicon), len(gold_lexicon)
    # wordseg's parallel lists: one pair per segmented word, then one per unmatched gold word
    seg_list, gold_list = [], []
    for w in sorted(seg_lexicon):
        seg_list.append(w)
        gold_list.append(w if w in gold_lexicon else "_")
    in_gold_list = set(gold_list)
    for w in sorted(gold_lexicon):
        if w not in in_gold_list:
            gold_list.append(w)
            seg_list.append("_")
            in_gold_list.add(w)
    correct = sum(1 for a, b in zip(seg_list, gold_list) if a == b)
    return correct, sum(1 for w in seg_list if w != "_"), sum(1 for w in gold_list if w != "_")
