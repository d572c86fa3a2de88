"""The timeline of a run: per recording, tiers of intervals or points that a stage already holds
(gold phones and words, the system's fragments or segments, its hits and errors), as numpy
slices. report.html draws the first recordings (`page_data`, bounded in items); the TextGrid
writer (termeval/report/textgrid.py) writes them all.

A stage's `view` (termeval/core/stage.py) gives `timeline(limit)`: an iterable of Recording,
the first `limit` recordings in the stage's order (None: all).

Colours (the page's legend): a tier's `colour` is
  "gold"     neutral grey (reference tiers);
  "class"    one colour per label (the system's class: fragments of one class share it);
  "status"   one colour per label, the label being a status word (STATUS);
  a status word, the tier's one colour ("hit" for a tier of hits).
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

# status words and what they mean on the page (its legend)
STATUS = {"hit": "hit (within the tolerance / correct detection)", "missed": "missed (reference not found)",
          "spurious": "spurious (system, not in the reference)", "fa": "false alarm",
          "miss": "miss (occurrence not detected)", "reject": "rejected (NO decision)"}
# at most this many intervals and points in report.html's timeline, whatever --report-files:
# a 146 k-phone recording of ZR17 English is cut at the time where the budget runs out
PAGE_ITEMS = 25_000
DECIMALS = 4      # times in the page: 0.1 ms (the TextGrids keep every digit)


@dataclass
class Tier:
    """One tier of one recording: intervals [start, end) (end None: points at start), each with
    a label: `labels[label[i]]` when `labels` is given, else `label[i]` itself (a str)."""
    name: str
    start: np.ndarray
    end: np.ndarray | None
    label: Sequence
    labels: Sequence[str] | None = None
    colour: str = "gold"

    def __len__(self) -> int:
        return len(self.start)

    def texts(self, lo: int = 0, hi: int | None = None) -> list[str]:
        """The labels of items lo..hi-1 as text."""
        part = self.label[lo:hi]
        if self.labels is None:
            return [str(x) for x in (part.tolist() if hasattr(part, "tolist") else part)]
        names = self.labels
        return [names[i] for i in np.asarray(part, dtype=np.int64).tolist()]

    @property
    def points(self) -> bool:
        return self.end is None


@dataclass
class Recording:
    """A recording (file, or an utterance of a segments file) from `start` to `end` seconds."""
    name: str
    start: float
    end: float
    tiers: list[Tier] = field(default_factory=list)


def span(starts: np.ndarray, f: int) -> slice:
    """The items of group f in an array grouped by f (Tier.starts-like boundaries)."""
    return slice(int(starts[f]), int(starts[f + 1]))


def sorted_tier(name: str, start, end, label, labels=None, colour: str = "gold") -> Tier:
    """A Tier with its items in time order (start, then end)."""
    start = np.asarray(start, dtype=np.float64)
    end_ = None if end is None else np.asarray(end, dtype=np.float64)
    order = np.lexsort((end_ if end_ is not None else start, start))
    lab = np.asarray(label)[order] if len(order) else np.asarray(label)
    return Tier(name, start[order], None if end_ is None else end_[order], lab, labels, colour)


def _ticks(a: np.ndarray) -> np.ndarray:
    return np.rint(np.asarray(a, dtype=np.float64) * 10 ** DECIMALS).astype(np.int64)


def encoded(t: Tier, hi: int) -> dict:
    """Items 0..hi-1 of a tier as the page stores them, compactly: `t` the starts in ticks of
    10^-DECIMALS s, each from the previous one (the first from 0); `d` the durations in ticks
    (intervals); `names` the distinct labels and `k` each item's (the page's script decodes)."""
    start = _ticks(t.start[:hi])
    item = {"name": t.name, "colour": t.colour, "points": t.points,
            "t": np.diff(start, prepend=0).tolist() if hi else []}
    if not t.points:
        item["d"] = (_ticks(t.end[:hi]) - start).tolist()
    if t.labels is not None:
        codes, k = np.unique(np.asarray(t.label[:hi], dtype=np.int64), return_inverse=True)
        item["names"] = [t.labels[i] for i in codes.tolist()]
    else:
        names, k = np.unique(np.asarray([str(x) for x in t.label[:hi]], dtype=object).astype(str),
                             return_inverse=True)
        item["names"] = names.tolist()
    item["k"] = np.asarray(k).reshape(-1).tolist()
    return item


def page_data(recordings: Iterable[Recording], budget: int = PAGE_ITEMS) -> dict:
    """The timeline as JSON-able data for report.html: recordings in order while the item budget
    lasts; the recording that exhausts it is cut at the time where it does (its `cut`)."""
    out = []
    left = budget
    for rec in recordings:
        if left <= 0:
            break
        n = sum(len(t) for t in rec.tiers)
        end = rec.end
        if n > left:                     # the time by which `left` items have begun
            times = np.sort(np.concatenate([np.asarray(t.start, dtype=np.float64) for t in rec.tiers]))
            end = float(times[left - 1]) if left else rec.start
        tiers = []
        for t in rec.tiers:
            hi = int(np.searchsorted(t.start, end, side="right")) if end < rec.end else len(t)
            tiers.append(encoded(t, hi))
            left -= hi
        entry = {"name": rec.name, "start": round(float(rec.start), DECIMALS), "end": round(float(rec.end), DECIMALS),
                 "tiers": tiers}
        if end < rec.end:
            entry["cut"] = round(float(end), DECIMALS)
        out.append(entry)
    return {"recordings": out, "status": STATUS, "tick": 10.0 ** -DECIMALS}


def decoded(item: dict, tick: float = 10.0 ** -DECIMALS) -> tuple[list[float], list[float] | None, list[str]]:
    """(starts, ends or None, labels) of a tier as `encoded` stored it (what the page's script does)."""
    ticks = np.cumsum(np.asarray(item["t"], dtype=np.int64))
    ends = None if item["points"] else (ticks + np.asarray(item["d"], dtype=np.int64)) * tick
    return (ticks * tick).tolist(), None if ends is None else ends.tolist(), [item["names"][k] for k in item["k"]]


def lanes(start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """The lane of each interval (sorted by start) such that the intervals of a lane do not
    overlap: each goes to the lane freed first if it is free at its start, else to a new lane
    (as few lanes as the deepest overlap needs). A TextGrid interval tier holds one lane."""
    out = np.zeros(len(start), dtype=np.int64)
    if len(start) and (len(start) == 1 or np.all(np.asarray(start)[1:] >= np.maximum.accumulate(np.asarray(end))[:-1])):
        return out                  # no overlap (a segmentation, a gold tier): one lane
    free: list[tuple[float, int]] = []          # (end of its last interval, lane)
    for i, (s, e) in enumerate(zip(np.asarray(start).tolist(), np.asarray(end).tolist())):
        if free and free[0][0] <= s:
            k = heapq.heapreplace(free, (e, free[0][1]))[1]
        else:
            k = len(free)
            heapq.heappush(free, (e, k))
        out[i] = k
    return out
