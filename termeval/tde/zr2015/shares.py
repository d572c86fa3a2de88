"""The units of a zr2015/zr2017 run split into `--nj` jobs, and what each job loads.

One process scores whole folds. With jobs, each cross fold (the whole corpus with --folds
none: the one heavy fold) is split into measure groups, so that no job holds all of it:
  coverage          coverage             (the discovered fragments, the corpus's repeated n-grams)
  pairs             ned, grouping        (the discovered fragments, their marks, the phone times)
  words             token_type, boundary (the words and the discovered fragments' times)
  matching<lo>-<hi> matching, one unit per band of n-gram lengths (matching.BANDS): the unit
                    builds only its lengths' levels of the n-gram index (its gold side, its
                    completed sub-pairs) and gives additive statistics
The within folds stay one unit each, with an n-gram index of their own files (never the
corpus's: ngramindex.py). Units: the cross folds' groups, then the within folds. A fold's
result is the union of its groups' (each metric key comes from one group, matching from the
sum of its bands: matching.finish; `fragments_in_fold` is the same in each), put back in the
key order of one process (`ordered`), F-scores added after the union (zr2015/stage.py merge):
the scores are those of one process, byte for byte.

A job reads the saved preparation (zr2015/prepcache.py) memory-mapped and builds only what its
units need (`job_prepared`).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from termeval.tde.zr2015.matching import BANDS

GROUPS = {"coverage": ("coverage",), "pairs": ("ned", "grouping"), "words": ("token_type", "boundary"),
          **{f"matching{lo}-{hi}": ("matching",) for lo, hi in BANDS}}
# cost per discovered fragment of the fold (x1 timings: a matching band with its index and
# pairs ~5 us, coverage ~1, ned + grouping ~2, token/type + boundary ~5, a whole within fold ~11)
WEIGHT = {"coverage": 1.0, "pairs": 2.0, "words": 5.0, None: 11.0,
          **{g: 5.0 for g in GROUPS if g.startswith("matching")}}
# score_fold's key order: metric families by the order it computes them
KEY_ORDER = (("ned",), ("coverage",), ("grouping_",), ("token_", "type_"), ("boundary_",), ("matching_",),
             ("fragments_in_fold",))


def group_measures(group: str | None, measures: tuple) -> tuple:
    return measures if group is None else tuple(m for m in measures if m in GROUPS[group])


def band_of(group: str | None) -> tuple[int, int] | None:
    """The n-gram lengths of a matching group (None for the others)."""
    if group is None or not group.startswith("matching"):
        return None
    lo, hi = group[len("matching"):].split("-")
    return int(lo), int(hi)


def share_units(nfolds: dict, measures: tuple) -> list[tuple[str, int, str | None]]:
    """(fold set, fold index, group or None for the whole fold) of every unit of a job run."""
    units = [("cross", i, g) for g in GROUPS if group_measures(g, measures)
             for i in range(nfolds["cross"])]
    return units + [("within", i, None) for i in range(nfolds["within"])]


def unit_costs(units: list, fragments: dict) -> np.ndarray:
    """fragments[(set, index)] = discovered fragments of the fold."""
    return np.array([WEIGHT[g] * fragments[(s, i)] + 1.0 for s, i, g in units], np.float64)


def needs(units: list, measures: tuple) -> set[str]:
    """What the units need loaded: phones, words, gold (the listed gold classes or the
    corpus's repeated n-grams), ned (mark tuples)."""
    got: set[str] = set()
    for _, _, g in units:
        ms = set(group_measures(g, measures))
        if ms - {"token_type", "boundary"}:
            got.add("phones")
        if ms & {"token_type", "boundary"}:
            got.add("words")
        if ms & {"matching", "coverage"}:
            got.add("gold")
        if "ned" in ms:
            got.add("ned")
    return got


def batches(units: list) -> list[list]:
    """A job's units as loads: each cross unit alone, each run of within folds together."""
    out: list[list] = []
    for u in units:
        if u[2] is None and out and out[-1][-1][2] is None and out[-1][-1][0] == u[0] == "within":
            out[-1].append(u)
        else:
            out.append([u])
    return out


def release() -> None:
    """Give a finished unit's memory back (its arrays and memory maps are freed with their last
    reference): the free pages of the C heap (glibc's malloc_trim; elsewhere a no-op)."""
    try:
        import ctypes
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


def job_prepared(store: Any, foldsets: dict, need: set[str], log=None):
    """An evaluate.Prepared holding what `need` asks for (None elsewhere), from the store."""
    from termeval.tde.zr2015 import ned
    from termeval.tde.zr2015.evaluate import Prepared
    from termeval.tde.zr2015.ngrams import GoldNgrams
    from termeval.tde.zr2015.foldview import file_index
    meta = store.meta
    gold = store.gold()
    nf = len(gold.files)
    marks = store.marks() if need & {"ned", "phones"} else []     # (grouping sizes by len(marks))
    disc = store.fragments("disc", marks)
    phones = store.segmented("phones") if "phones" in need else None
    words = store.segmented("words") if "words" in need else None
    goldcls = generated = None
    if "gold" in need:
        if store.has("gold.file"):       # a <prefix>.classes file: listed, saved by the preparation
            goldcls = store.fragments("gold", marks)
            goldcls.marks = marks
        else:
            generated = GoldNgrams(phones, nf, store.array("phones.rep_len"), meta["counts"]["gold_classes"])
    return Prepared(mode=meta["mode"], gold=gold, phones=phones, words=words, disc=disc, goldcls=goldcls,
                    ngrams=None, foldsets=foldsets, counts=json_copy(meta["counts"]),
                    ned_cache=ned.NedCache(marks) if "ned" in need else None,
                    disc_ix=file_index(disc.file, nf, disc.occ_frag),
                    gold_ix=LazyFileIndex(goldcls.file, nf, goldcls.occ_frag) if goldcls is not None else None,
                    word_ix=file_index(words.file, nf) if words is not None else None,
                    gold_ngrams=generated,
                    index_for=FoldIndex(phones, nf, listed=goldcls is not None) if phones is not None else None)


class FoldIndex:
    """What a job's fold builds instead of the corpus's n-gram index: the levels of the
    lengths it scores (all of them with listed gold classes, whose codes span every length),
    over the phones of the fold's files (all phones for a fold of every whole file)."""

    def __init__(self, phones, nfiles: int, listed: bool):
        self.phones, self.listed = phones, listed
        self.fstart = phones.file_starts(nfiles)

    def __call__(self, fold, lengths: tuple[int, int]):
        from termeval.tde.zr2015.ngramindex import NgramIndex
        from termeval.tde.zr2015.ngrams import fold_phones
        keep = None if self.listed else range(lengths[0], lengths[1] + 1)
        release()                # the heap's free pages back first: the build is a job's peak
        idx = NgramIndex(self.phones, keep=keep, positions=fold_phones(self.fstart, fold))
        release()
        return idx


class LazyFileIndex:
    """foldview.FileIndex whose occurrence order is sorted only when a fold view asks for it:
    the whole-corpus fold of --folds none never does (2 x 8 bytes per gold n-gram spared)."""

    def __init__(self, file: np.ndarray, nfiles: int, occ_frag: np.ndarray):
        from termeval.tde.zr2015.foldview import file_index
        self.fstart = file_index(file, nfiles).fstart
        self._occ_frag, self._nfrag, self._full = occ_frag, len(file), None

    def _index(self):
        if self._full is None:
            from termeval.tde.zr2015.foldview import FileIndex
            order = np.argsort(self._occ_frag, kind="stable")
            from termeval.core.datadir import file_starts
            self._full = FileIndex(self.fstart, order, file_starts(self._occ_frag[order], self._nfrag))
        return self._full

    @property
    def occ_order(self) -> np.ndarray:
        return self._index().occ_order

    @property
    def occ_ptr(self) -> np.ndarray:
        return self._index().occ_ptr


def json_copy(x):
    import json
    return json.loads(json.dumps(x))


def _rank(key: str) -> int:
    for r, prefixes in enumerate(KEY_ORDER):
        if key.startswith(prefixes):
            return r
    return KEY_ORDER.index(("matching_",))     # a key unknown here: with matching's extras


def ordered(parts: list[dict]) -> dict:
    """The union of a fold's group results, in score_fold's key order; matching from the
    statistics of its bands."""
    from termeval.tde.zr2015.matching import finish
    union: dict = {}
    stats = []
    for p in parts:
        p = dict(p)
        if "matching_stats" in p:
            stats.append(p.pop("matching_stats"))
        union.update(p)
    if stats:
        mp, mr, extra = finish(sorted(stats, key=lambda st: st["band"]))
        union.update(matching_precision=mp, matching_recall=mr, **extra)
    return {k: union[k] for k in sorted(union, key=_rank)}


def union_packed(parts: list[dict]) -> dict:
    """The union of packed unit tables (zr2015/units.pack) of one fold's groups: as packing
    the union (each column comes from one group; absent entries are 0)."""
    from termeval.tde.zr2015.units import COLUMNS
    out: dict = {}
    tables = [t for p in parts for t in p]
    for t in dict.fromkeys(tables):
        have = [p[t] for p in parts if t in p]
        ids = np.unique(np.concatenate([np.asarray(h["ids"], np.int64) for h in have]))
        X = np.zeros((len(ids), len(COLUMNS[t])))
        for h in have:
            if len(h["ids"]):
                X[np.searchsorted(ids, np.asarray(h["ids"], np.int64))] += np.asarray(h["X"], np.float64)
        out[t] = {"ids": ids.tolist(), "X": X.tolist()}
    return out
