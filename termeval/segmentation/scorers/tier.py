"""What the paper scorers see of an utterance: the ends of a tier's intervals, and greedy scans.

Scripts that read a Praat TextGrid (s-malan/evaluation) or a TIMIT-style `.phn` file
(felixkreuk/UnsupSeg) see a tier that tiles the utterance: silences are intervals too. A gold
data dir prepared with `--fill-gaps false` holds the words (or phones) only, so `tier_ends`
restores the tiling: the ends of a tier are every interval's offset, the onset of every
interval after a gap (the end of the silence before it, including a leading one) and the
utterance end when the last interval stops before it (the end of the trailing silence); an
utterance without intervals is one silence, ending at the utterance end.

`first_free` and `alternate` are the two one-pass greedy scans of those scripts, over items
whose candidate ranges [lo, hi) of sorted targets are non-decreasing in both ends: an item
takes the first target of its range that no earlier item took (`first_free`), or the 1st,
3rd, 5th, ... of the targets of its range that no earlier item took (`alternate`: what
popping from a list while enumerating it does, each pop skipping the next element). Items
whose range meets no other item's range are done in one numpy pass; only chains of
overlapping ranges go through a Python loop.
"""
from __future__ import annotations

import numpy as np

from termeval.core.errors import InputError
from termeval.segmentation.matching import keys

MAX_SCAN = 50_000_000   # candidate targets visited by the loop over chains (degenerate input only)


def tier_ends(utt: np.ndarray, onset: np.ndarray, offset: np.ndarray, start: np.ndarray,
              end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(utterance, seconds from the utterance start) of the ends of every interval of the
    gap-filled tier, sorted by utterance then time (ties kept: a list, not a set).

    utt/onset/offset: the intervals (absolute seconds), sorted by utterance then onset;
    start/end: every utterance's edges, indexed by utterance."""
    utt = np.asarray(utt, dtype=np.int64)
    n_utt = len(start)
    first = np.ones(len(utt), dtype=bool)
    first[1:] = utt[1:] != utt[:-1]
    prev = np.empty(len(utt), dtype=np.float64)
    prev[1:] = offset[:-1]
    prev[first] = start[utt[first]]
    gap = onset > prev
    last = np.full(n_utt, -np.inf)
    np.maximum.at(last, utt, offset)
    tail = np.flatnonzero(last < end)         # a trailing silence, or no interval at all
    u = np.concatenate((utt, utt[gap], tail))
    t = np.concatenate((offset, onset[gap], end[tail]))
    order = np.lexsort((t, u))
    u, t = u[order], t[order]
    return u, t - start[u]


def drop_last(utt: np.ndarray, *values: np.ndarray) -> tuple[np.ndarray, ...]:
    """The arrays without the last element of each utterance (utt sorted)."""
    keep = np.ones(len(utt), dtype=bool)
    keep[:-1] = utt[1:] != utt[:-1]
    keep = ~keep
    return (utt[keep],) + tuple(v[keep] for v in values)


def window_ranges(targets: np.ndarray, items: np.ndarray, tol: int) -> tuple[np.ndarray, np.ndarray]:
    """[lo, hi) of the sorted target keys within `tol` of each item key."""
    return (np.searchsorted(targets, items - tol, side="left"),
            np.searchsorted(targets, items + tol, side="right"))


def point_keys(utt: np.ndarray, frames: np.ndarray) -> np.ndarray:
    """Keys of (utterance, frame); frames may be negative (they stay inside their utterance)."""
    return keys(utt, frames + (np.int64(1) << np.int64(39)))


def _chains(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end (exclusive) item indices of the runs of items whose ranges overlap."""
    full = hi > lo
    link = full[:-1] & full[1:] & (hi[:-1] > lo[1:])
    if not link.any():
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    edge = np.diff(np.concatenate(([0], link.astype(np.int8), [0])))
    return np.flatnonzero(edge == 1), np.flatnonzero(edge == -1) + 1


def _scan(lo: np.ndarray, hi: np.ndarray, n_targets: int, every_other: bool) -> np.ndarray:
    """Index of the item that took each target (-1: none)."""
    lo, hi = np.asarray(lo, dtype=np.int64), np.asarray(hi, dtype=np.int64)
    owner = np.full(n_targets, -1, dtype=np.int64)
    s, e = _chains(lo, hi)
    in_chain = np.zeros(len(lo) + 1, dtype=np.int64)
    np.add.at(in_chain, s, 1)
    np.add.at(in_chain, e, -1)
    alone = np.flatnonzero((np.cumsum(in_chain)[:-1] == 0) & (hi > lo))
    n = (hi[alone] - lo[alone] + 1) // 2 if every_other else np.ones(len(alone), dtype=np.int64)
    item = np.repeat(alone, n)
    step = np.arange(len(item)) - np.repeat(np.cumsum(n) - n, n)
    owner[lo[item] + (2 if every_other else 1) * step] = item
    cover = np.cumsum(in_chain)[:-1] > 0
    if int((hi - lo)[cover].clip(0).sum()) > MAX_SCAN:
        raise InputError(f"more than {MAX_SCAN} boundary candidates within the tolerance of each "
                         "other (segments much shorter than a frame?)")
    for a, b in zip(s.tolist(), e.tolist()):
        _scan_chain(lo, hi, a, b, owner, every_other)
    return owner


def _scan_chain(lo: np.ndarray, hi: np.ndarray, a: int, b: int, owner: np.ndarray,
                every_other: bool) -> None:
    for i in range(a, b):
        take = True
        for j in range(int(lo[i]), int(hi[i])):
            if owner[j] != -1:
                continue
            if take:
                owner[j] = i
                if not every_other:
                    break
            take = not take


def first_free(lo: np.ndarray, hi: np.ndarray, n_targets: int) -> np.ndarray:
    """Owner of each target when every item takes the first free target of its range."""
    return _scan(lo, hi, n_targets, every_other=False)


def alternate(lo: np.ndarray, hi: np.ndarray, n_targets: int) -> np.ndarray:
    """Owner of each target when every item takes every other free target of its range."""
    return _scan(lo, hi, n_targets, every_other=True)
