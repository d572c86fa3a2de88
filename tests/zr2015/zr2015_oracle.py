"""An independent brute force of the zr2015/zr2017 NED and grouping of one fold, written from
the definitions (docs/tde.md §3.1 OV, §4.0 pair sets, §4.1 NED, §4.4 grouping) in plain Python
loops over a prepared corpus' fragments (file, onset, offset, transcription, class occurrences):
nothing of termeval.tde.zr2015 is used but the prepared fragments themselves. Small inputs only."""
from __future__ import annotations

import itertools
import math

import editdistance

MIN_OVERLAP, MIN_FRACTION = 0.03, 0.5


def raw_overlap(a: tuple[float, float], b: tuple[float, float]) -> float:
    if a[1] < b[0] or a[0] > b[1]:
        return 0.0
    return min(a[1], b[1]) - max(a[0], b[0])


def OV(a: tuple[float, float], b: tuple[float, float], mode: str) -> bool:
    """> 30 ms, or > 50 % of either interval; 'zero' overlaps never count; files never compared."""
    o = raw_overlap(a, b)
    if (abs(o) <= 1e-8) if mode == "zr2015" else (o < 1e-8):
        return False
    return o > MIN_OVERLAP or o > MIN_FRACTION * (b[1] - b[0]) or o > MIN_FRACTION * (a[1] - a[0])


def inside(fold, f: int, s: float, e: float) -> bool:
    if not e > s:
        return False
    if fold.whole_files:
        return f in set(fold.file.tolist())
    return any(ff == f and a <= s and e <= b for ff, a, b in zip(fold.file.tolist(), fold.onset.tolist(),
                                                                 fold.offset.tolist()))


def kept_classes(frags, fold) -> dict[int, list[int]]:
    """R2(D, F): class -> its fragments (occurrence order, duplicates kept) inside the fold, for
    the classes with at least two of them."""
    cls: dict[int, list[int]] = {}
    for c, j in zip(frags.occ_cls.tolist(), frags.occ_frag.tolist()):
        if inside(fold, int(frags.file[j]), float(frags.onset[j]), float(frags.offset[j])):
            cls.setdefault(c, []).append(j)
    return {c: m for c, m in cls.items() if len(m) >= 2}


def span(frags, j: int) -> tuple[float, float]:
    return float(frags.onset[j]), float(frags.offset[j])


def first(frags, a: int, b: int) -> tuple[int, int]:
    """The pair reordered so that the element with the smaller (file, onset) comes first."""
    ka, kb = (int(frags.file[a]), float(frags.onset[a])), (int(frags.file[b]), float(frags.onset[b]))
    return (a, b) if ka <= kb else (b, a)


def pw(frags, classes: dict[int, list[int]], mode: str) -> list[tuple[int, int]]:
    """PW: every 2-combination of each class, reordered, OV pairs dropped, first occurrence kept."""
    out, seen = [], set()
    for members in classes.values():
        for a, b in itertools.combinations(members, 2):
            p = first(frags, a, b)
            if OV(span(frags, a), span(frags, b), mode) or p in seen:
                continue
            seen.add(p)
            out.append(p)
    return out


def ned(frags, pairs: list[tuple[int, int]]) -> tuple[float, int, int]:
    """Mean of Levenshtein(T(a), T(b)) / max(|T(a)|, |T(b)|) over the pairs (1 for two empty
    transcriptions), the number of pairs, the number of empty-empty pairs."""
    if not pairs:
        return math.nan, 0, 0
    total, empty = 0.0, 0
    for a, b in pairs:
        ta, tb = frags.marks[int(frags.mark[a])], frags.marks[int(frags.mark[b])]
        m = max(len(ta), len(tb))
        if m == 0:
            empty += 1
            total += 1.0
        else:
            total += editdistance.eval(list(ta), list(tb)) / m
    return total / len(pairs), len(pairs), empty


def weighted(pairs: list[tuple[int, int]], inter: set, mark) -> float:
    """Sum over the types t of the second elements of w(t, X) nmatch(t, I) / nmatch(t, X),
    w(t, X) = distinct fragments of X with mark t / distinct fragments of X; NaN without pairs."""
    if not pairs:
        return math.nan
    flat = {x for p in pairs for x in p}
    n_x, n_i = {}, {}
    for p in pairs:
        t = mark(p[1])
        n_x[t] = n_x.get(t, 0) + 1
        if p in inter:
            n_i[t] = n_i.get(t, 0) + 1
    return sum(sum(1 for x in flat if mark(x) == t) / len(flat) * n_i.get(t, 0) / n for t, n in n_x.items())


def grouping(frags, classes: dict[int, list[int]], mode: str) -> tuple[float, float]:
    """(precision, recall): Pclus = PW(D2); Pgoldclus = the pairs of distinct fragments of D2 with
    the same transcription, reordered, without OV pairs nor same-file positive overlaps."""
    mark = lambda j: int(frags.mark[j])   # noqa: E731
    pclus = pw(frags, classes, mode)
    distinct = sorted({j for m in classes.values() for j in m})
    gold, seen = [], set()
    for a, b in itertools.combinations(distinct, 2):
        if mark(a) != mark(b):
            continue
        p = first(frags, a, b)
        same_file = frags.file[a] == frags.file[b] and raw_overlap(span(frags, a), span(frags, b)) > 0
        if OV(span(frags, a), span(frags, b), mode) or same_file or p in seen:
            continue
        seen.add(p)
        gold.append(p)
    inter = set(gold) & set(pclus)
    return weighted(pclus, inter, mark), weighted(gold, inter, mark)


def score_fold_oracle(p, fold) -> dict:
    classes = kept_classes(p.disc, fold)
    v, n, empty = ned(p.disc, pw(p.disc, classes, p.mode))
    gp, gr = grouping(p.disc, classes, p.mode)
    return {"ned": v, "ned_pairs": n, "ned_empty_pairs": empty, "grouping_precision": gp, "grouping_recall": gr}
