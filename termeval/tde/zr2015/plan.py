"""The units of a zr2015/zr2017 run: which measures each computes, what it needs loaded, what
it costs, and how the units' results make a fold's (one scheme for one process and for jobs).

A unit is (fold set, fold index, group): `group` None scores the whole fold (every measure);
otherwise it names one measure group of GROUPS:
  coverage          coverage             (the discovered fragments, the corpus's repeated n-grams)
  pairs             ned, grouping        (the discovered fragments, their marks, the phone times)
  words             token_type, boundary (the words and the discovered fragments' times)
  matching<lo>-<hi> matching, one unit per band of n-gram lengths (matching.BANDS): the unit
                    builds only its lengths' levels of the n-gram index (its gold side, its
                    completed sub-pairs) and gives additive statistics
One process scores whole folds (cross folds, then within folds). A run split into `--nj`
jobs (`share_units`) splits each cross fold (the whole corpus with --folds none: the one heavy
fold) into the groups, so that no job holds all of it; the within folds stay whole, each with
an n-gram index of its own files (never the corpus's: ngramindex.py). A job loads what its
units need (`needs`, termeval.tde.zr2015.store.job_prepared), a batch at a time (`batches`).

A fold's result is the union of its units' (each metric key comes from one group, matching
from the sum of its bands: matching.finish; `fragments_in_fold` is the same in each), in
KEY_ORDER (`ordered`; evaluate.score_fold orders a whole fold's result the same way), F-scores
added after the union (zr2015/stage.py merge): the scores are those of one process, byte for
byte, for any --nj.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from termeval.tde.benchmarks import ZR15_MEASURES
from termeval.tde.zr2015.matching import BANDS, finish
from termeval.tde.zr2015.units import COLUMNS

ALL_MEASURES = ZR15_MEASURES
GROUPS = {"coverage": ("coverage",), "pairs": ("ned", "grouping"), "words": ("token_type", "boundary"),
          **{f"matching{lo}-{hi}": ("matching",) for lo, hi in BANDS}}
# what each measure reads besides the discovered fragments (store.job_prepared loads it):
# phones (phone times and labels, and the mark tuples), words, gold (the listed gold classes or
# the corpus's repeated n-grams), ned (the NED cache of the mark tuples)
NEEDS = {"matching": ("phones", "gold"), "ned": ("phones", "ned"), "coverage": ("phones", "gold"),
         "grouping": ("phones",), "token_type": ("words",), "boundary": ("words",)}
# cost per discovered fragment of the fold (x1 timings: a matching band with its index and
# pairs ~5 us, coverage ~1, ned + grouping ~2, token/type + boundary ~5, a whole within fold ~11)
WEIGHT = {"coverage": 1.0, "pairs": 2.0, "words": 5.0, None: 11.0,
          **{g: 5.0 for g in GROUPS if g.startswith("matching")}}
# the key order of a fold's result: metric families in the order score_fold computes them
KEY_ORDER = (("ned",), ("coverage",), ("grouping_",), ("token_", "type_"), ("boundary_",), ("matching_",),
             ("fragments_in_fold",))


class Unit(NamedTuple):
    fold_set: str               # cross | within
    fold: int                   # index in the fold set
    group: str | None = None    # a key of GROUPS, None: the whole fold


def group_measures(group: str | None, measures: tuple) -> tuple:
    """The measures (of those asked) a unit of this group computes."""
    return measures if group is None else tuple(m for m in measures if m in GROUPS[group])


def band_of(group: str | None) -> tuple[int, int] | None:
    """The n-gram lengths of a matching group (None for the others)."""
    if group is None or not group.startswith("matching"):
        return None
    lo, hi = group[len("matching"):].split("-")
    return int(lo), int(hi)


def share_units(nfolds: dict, measures: tuple) -> list[Unit]:
    """Every unit of a run split into jobs: the cross folds' groups (group by group), then the
    within folds whole."""
    units = [Unit("cross", i, g) for g in GROUPS if group_measures(g, measures)
             for i in range(nfolds["cross"])]
    return units + [Unit("within", i) for i in range(nfolds["within"])]


def unit_costs(units: list, fragments: dict) -> np.ndarray:
    """The cost of each unit of a job run; fragments[(set, index)] = discovered fragments of the fold."""
    return np.array([WEIGHT[g] * fragments[(s, i)] + 1.0 for s, i, g in units], np.float64)


def needs(units: list, measures: tuple) -> set[str]:
    """What the units need loaded (NEEDS of the measures they compute)."""
    return {x for _, _, g in units for m in group_measures(g, measures) for x in NEEDS[m]}


def batches(units: list) -> list[list]:
    """A job's units as loads: each cross unit alone, each run of within folds together."""
    out: list[list] = []
    for u in units:
        if u[2] is None and out and out[-1][-1][2] is None and out[-1][-1][0] == u[0] == "within":
            out[-1].append(u)
        else:
            out.append([u])
    return out


def _rank(key: str) -> int:
    for r, prefixes in enumerate(KEY_ORDER):
        if key.startswith(prefixes):
            return r
    return KEY_ORDER.index(("matching_",))     # a key unknown here: with matching's extras


def ordered(parts: list[dict]) -> dict:
    """The union of a fold's unit results in KEY_ORDER; matching from the statistics of its
    bands ("matching_stats")."""
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
