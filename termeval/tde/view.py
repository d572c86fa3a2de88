"""What report.html and --textgrids show of a term discovery run (every benchmark): per
recording, the gold phones and words, the discovered fragments coloured by class, and the
boundaries of the benchmark's own boundary measure: hits, and the errors, missed (a gold edge
not found) and spurious (a fragment edge not found in the gold).

  zrc2020      tde/zrc2020/view.py on tde/zrc2020/boundary.py: fragment edges snapped to the
               phones they keep, against the edges of the non-SIL words; a hit is a point of
               both sets
  zr2015/2017  tde/zr2015/view.py on tde/zr2015/boundary.py: the distinct fragment edges
               against the distinct word edges; a word edge is found (a hit, marked at the word edge) when a fragment
               edge is closer than 30 ms, a fragment edge is spurious when no word edge is
  seed documents (zr2015-doc, lrec2014): gold and fragments, no boundary tiers

Fed by what the stage holds: its gold (termeval.core.datadir.Gold), the phones as zrc2020 reads
them and the fragments (file, onset, offset, class).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from termeval.core.datadir import Tier as GoldTier
from termeval.report.timeline import Recording, Tier, span

# (file index, fragments' file, onset, offset) -> (time, status) of a file's boundary points:
# 0 hit, 1 missed, 2 spurious (the benchmark's boundary measure: tde/zrc2020/view.py, tde/zr2015/view.py)
BoundaryPoints = Callable[[int, np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]

TABLES = (("Per class: the most frequent transcription, its share, the mean NED", "details/clusters.txt"),
          ("Per file", "details/per_file.tsv"), ("Per speaker", "details/per_speaker.tsv"))
PLOTS = ({"kind": "bars", "table": "details/per_speaker.tsv", "label": "speaker", "title": "Per speaker",
          "values": ["coverage", "token_fscore", "type_fscore", "boundary_fscore"], "ylabel": "value"},
         {"kind": "bars", "table": "details/per_file.tsv", "label": "file", "title": "Per file",
          "values": ["token_fscore", "boundary_fscore"], "ylabel": "F-score"})
NOTES = ("Timeline: fragments are coloured by class (one colour per class); boundary hits and errors "
         "follow the zrc2020 boundary measure: fragment edges snapped to the phones they keep, against "
         "the edges of the gold words (SIL excluded).",)


@dataclass
class Fragments:
    """Discovered fragments: file index (into Gold.files), times, class (into `names`)."""
    file: np.ndarray
    onset: np.ndarray
    offset: np.ndarray
    cls: np.ndarray
    names: list[str]


def head_tier(tier: GoldTier, n: int | None) -> GoldTier:
    """The intervals of the first n files of a gold tier (a copy; all of it for None)."""
    if n is None:
        return tier
    n = min(n, len(tier.starts) - 1)
    end = int(tier.starts[n])
    return GoldTier(tier.file[:end].copy(), tier.onset[:end].copy(), tier.offset[:end].copy(),
                    tier.label[:end].copy(), tier.labels, tier.starts[:n + 1].copy())


def _gold_tier(name: str, t: GoldTier, f: int) -> Tier:
    s = span(t.starts, f) if f + 1 < len(t.starts) else slice(0, 0)
    return Tier(name, t.onset[s], t.offset[s], t.label[s], t.labels)


def recordings(files: list[str], duration, phones_tier: GoldTier, words: GoldTier, frags: Fragments,
               points: BoundaryPoints | None, limit: int | None) -> Iterator[Recording]:
    """The first `limit` recordings (None: all) in the gold's order, one at a time: files[f]
    from 0 to duration[f] (None: to the last item); the boundary tiers when the benchmark's
    `points` (tde/zrc2020/view.py, tde/zr2015/view.py) are given."""
    n = len(files) if limit is None else min(limit, len(files))
    sel = np.flatnonzero(np.asarray(frags.file) < n)
    file = np.asarray(frags.file)[sel].astype(np.int64)
    on, off = np.asarray(frags.onset, dtype=np.float64)[sel], np.asarray(frags.offset, dtype=np.float64)[sel]
    order = np.lexsort((off, on, file))
    sel, file, on, off = sel[order], file[order], on[order], off[order]
    cls = np.asarray(frags.cls)[sel]
    fst = np.searchsorted(file, np.arange(n + 1))
    for f in range(n):
        s = span(fst, f)
        tiers = [_gold_tier("phones", phones_tier, f), _gold_tier("words", words, f),
                 Tier("fragments", on[s], off[s], cls[s], frags.names, colour="class")]
        if points is not None:
            ps, pstat = points(f, file[s], on[s], off[s])
            err = pstat > 0
            tiers += [Tier("boundary hits", ps[~err], None, ["hit"] * int((~err).sum()), colour="hit"),
                      Tier("boundary errors", ps[err], None, np.where(pstat[err] == 1, "missed", "spurious"),
                           colour="status")]
        end = float(duration[f]) if duration is not None else max([0.0] + [float(np.max(t.end)) for t in tiers
                                                                           if t.end is not None and len(t)])
        yield Recording(files[f], 0.0, end, tiers)


def segmented_tier(seg, nfiles: int) -> GoldTier:
    """A zr2015 corpus.Segmented (sorted by file, then onset) as a gold tier."""
    return GoldTier(seg.file, seg.onset, seg.offset, seg.label, seg.labels, seg.file_starts(nfiles))


def occurrences(disc) -> Fragments:
    """A zr2015 corpus.Fragments' class occurrences (class-file order) as fragments of their
    class (named by its number from 1, as the class file's classes)."""
    j = np.asarray(disc.occ_frag, dtype=np.int64)
    names = [str(c + 1) for c in range(int(disc.nclasses))]
    return Fragments(np.asarray(disc.file)[j], np.asarray(disc.onset)[j], np.asarray(disc.offset)[j],
                     np.asarray(disc.occ_cls), names)
