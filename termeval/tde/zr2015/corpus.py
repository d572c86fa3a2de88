"""TDE15/TDE17 corpus model: segments, the overlap predicate, transcription lookup, truncation.

Spec references (docs/tde.md §6, the original tools' rules):
* §2.1: a *segment* is a maximal run of lines of one file where each onset is "close" to the
  previous offset: TDE15 `numpy.isclose` (|off - on| <= 1e-8 + 1e-5 |on|), TDE17 |off - on| < 1e-5.
  We build segments from the data dir, which is sorted by (file, onset); for the shipped SIL-less
  files this gives the same segments as the original file order (checked in the tests).
* §3.1: OV(A, B) (file-blind, strict comparisons) and the lookup of a fragment: the last segment
  of the file that does not compare greater than the fragment, then the run of tokens of that
  segment that OV the fragment. Implemented with vectorised binary searches; equal to the
  original bisects whenever the comparisons are monotone along the segment (positive-length
  tokens, as in every shipped file).
* §3.3: the .split check and truncation of discovered fragments.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from termeval.core.datadir import Tier, file_starts
from termeval.core.distinct import n_distinct
from termeval.core.intervals import last_le
from termeval.tde.benchmarks import zr15

MIN_OVERLAP = 0.03        # Interval.minimum_overlap (seconds)
MIN_FRACTION = 0.5        # Interval.minimum_overlap_fraction
def check_mode(mode: str) -> str:
    """A benchmark scored by this kernel (its quirks declared in termeval/tde/benchmarks.py)."""
    zr15(mode)
    return mode


def raw_overlap(a_on, a_off, b_on, b_off):
    """Interval.overlap: 0 when disjoint, else min(ends) - max(starts) (0 when touching)."""
    a_on, a_off, b_on, b_off = (np.asarray(x, dtype=np.float64) for x in (a_on, a_off, b_on, b_off))
    o = np.minimum(a_off, b_off) - np.maximum(a_on, b_on)
    return np.where((a_off < b_on) | (a_on > b_off), 0.0, o)


def is_zero(o, mode: str):
    """The 'no overlap' test: TDE15 numpy.isclose(o, 0) (|o| <= 1e-8), TDE17 o < 1e-8."""
    return np.abs(o) <= 1e-8 if zr15(mode).isclose_no_overlap else o < 1e-8


def ov(a_on, a_off, b_on, b_off, mode: str):
    """OV(A, B) of spec §3.1: > 30 ms, or > 50 % of B, or > 50 % of A; never compares files."""
    a_on, a_off, b_on, b_off = (np.asarray(x, dtype=np.float64) for x in (a_on, a_off, b_on, b_off))
    o = raw_overlap(a_on, a_off, b_on, b_off)
    return (~is_zero(o, mode)) & ((o > MIN_OVERLAP) | (o > MIN_FRACTION * (b_off - b_on))
                                  | (o > MIN_FRACTION * (a_off - a_on)))


def adjacent(prev_off, on, mode: str):
    """Segment continuation test of the TDE readers (§2.1)."""
    prev_off = np.asarray(prev_off, dtype=np.float64)
    on = np.asarray(on, dtype=np.float64)
    if zr15(mode).relative_adjacency:
        return np.abs(prev_off - on) <= 1e-8 + 1e-5 * np.abs(on)
    return np.abs(prev_off - on) < 1e-5


@dataclass
class Segmented:
    """A tier (phones or words) cut into TDE15 segments.

    Tokens are sorted by (file, onset); segment s holds tokens tok_start[s]:tok_stop[s] and spans
    [seg_on[s], seg_off[s]] (first onset, last offset). `seg_id` keeps the original segment of
    each token (restricted views keep the ids of the segments they come from)."""
    file: np.ndarray
    onset: np.ndarray
    offset: np.ndarray
    label: np.ndarray
    labels: list[str]
    seg: np.ndarray            # segment index (into this view) of each token
    seg_id: np.ndarray         # original segment id of each token
    tok_start: np.ndarray
    tok_stop: np.ndarray
    seg_file: np.ndarray
    seg_on: np.ndarray
    seg_off: np.ndarray
    inexact_joins: int = 0     # adjacent within tolerance but offset != next onset (TDE raises)

    def __len__(self) -> int:
        return len(self.onset)

    @property
    def nseg(self) -> int:
        return len(self.seg_on)

    def file_starts(self, nfiles: int) -> np.ndarray:
        """starts[f]:starts[f+1] = the tokens of file f (from the segments: segments never
        cross files; reads no per-token array)."""
        tok = np.append(self.tok_start, len(self)).astype(np.int64)
        return tok[file_starts(self.seg_file, nfiles)]

    def subset(self, keep: np.ndarray) -> "Segmented":
        """The view with only the kept tokens (a mask, or sorted token indices); segments =
        kept runs of each original segment (SegmentAnnotation.restrict)."""
        idx = np.flatnonzero(keep) if keep.dtype == bool else keep
        return _make(self.file[idx], self.onset[idx], self.offset[idx], self.label[idx],
                     self.labels, self.seg_id[idx], self.inexact_joins)


def _make(file, onset, offset, label, labels, seg_id, inexact=0) -> Segmented:
    n = len(onset)
    new = np.ones(n, dtype=bool)
    if n > 1:
        new[1:] = (seg_id[1:] != seg_id[:-1]) | (file[1:] != file[:-1])
    starts = np.flatnonzero(new)
    stops = np.append(starts[1:], n).astype(np.int64)
    seg = np.cumsum(new) - 1
    return Segmented(file=file, onset=onset, offset=offset, label=label, labels=labels,
                     seg=seg.astype(np.int64), seg_id=seg_id, tok_start=starts.astype(np.int64),
                     tok_stop=stops, seg_file=file[starts] if n else file[:0],
                     seg_on=onset[starts] if n else onset[:0],
                     seg_off=offset[stops - 1] if n else offset[:0], inexact_joins=inexact)


def segment_tier(tier: Tier, mode: str) -> Segmented:
    """Cut a prepared tier (sorted by file, onset) into TDE15/TDE17 segments (§2.1)."""
    check_mode(mode)
    n = len(tier)
    file = tier.file.astype(np.int64)
    new = np.ones(n, dtype=bool)
    inexact = 0
    if n > 1:
        same_file = file[1:] == file[:-1]
        adj = adjacent(tier.offset[:-1], tier.onset[1:], mode)
        new[1:] = ~(same_file & adj)
        inexact = int(np.count_nonzero(same_file & adj & (tier.offset[:-1] != tier.onset[1:])))
    seg_id = (np.cumsum(new) - 1).astype(np.int64)
    return _make(file, tier.onset, tier.offset, tier.label.astype(np.int64), tier.labels, seg_id, inexact)


def segment_arrays(file, onset, offset, mode: str) -> np.ndarray:
    """Segment ids of lines given in *file order* (as the original reader sees them), used to
    check that our sorted data dir gives the same segments."""
    file = np.asarray(file)
    n = len(file)
    new = np.ones(n, dtype=bool)
    if n > 1:
        new[1:] = ~((file[1:] == file[:-1]) & adjacent(np.asarray(offset)[:-1], np.asarray(onset)[1:], mode))
    return np.cumsum(new) - 1


def lookup(sg: Segmented, qf: np.ndarray, qs: np.ndarray, qe: np.ndarray, mode: str):
    """Transcription lookup of fragments (file qf, [qs, qe]) in `sg` (spec §3.1).

    Returns (found, a, b): found[i] is False where the original raises (unknown file, no
    segment, no positive overlap with the chosen segment); otherwise the transcription is the
    token run a[i]:b[i] (possibly empty) of `sg`."""
    qf = np.asarray(qf, dtype=np.int64)
    qs = np.asarray(qs, dtype=np.float64)
    qe = np.asarray(qe, dtype=np.float64)
    m = len(qf)
    a = np.zeros(m, dtype=np.int64)
    b = np.zeros(m, dtype=np.int64)
    if m == 0 or sg.nseg == 0:
        return np.zeros(m, dtype=bool), a, b
    # last segment with start < qe: every later segment compares greater than x
    k = last_le(sg.seg_file, sg.seg_on, qf, qe, strict=True)
    found = k >= 0
    kk = np.where(found, k, 0)
    son, soff = sg.seg_on[kk], sg.seg_off[kk]
    o = raw_overlap(son, soff, qs, qe)
    less = found & ~ov(son, soff, qs, qe, mode) & (o > 0) & (qs < son)   # x < S: step back one
    k = np.where(less, k - 1, k)
    found &= k >= 0
    kk = np.where(found, k, 0)
    found &= sg.seg_file[kk] == qf
    found &= raw_overlap(sg.seg_on[kk], sg.seg_off[kk], qs, qe) > 0
    t0, t1 = sg.tok_start[kk], sg.tok_stop[kk]
    # candidates: tokens of the segment with off > qs and on < qe
    r = last_le(sg.file, sg.offset, qf, qs)                  # last token with off <= qs
    a = np.maximum(np.where(r >= 0, r + 1, 0), t0)
    r2 = last_le(sg.file, sg.onset, qf, qe, strict=True)     # last token with on < qe
    b = np.minimum(np.where(r2 >= 0, r2 + 1, 0), t1)
    b = np.maximum(a, b)
    # the first and last candidates may fail OV; the middle ones lie inside x
    for _ in range(2):
        ne = a < b
        ia = np.where(ne, a, 0)
        bad = ne & ~ov(sg.onset[ia], sg.offset[ia], qs, qe, mode)
        a = a + bad
        ne = a < b
        ib = np.where(ne, b - 1, 0)
        bad = ne & ~ov(sg.onset[ib], sg.offset[ib], qs, qe, mode)
        b = b - bad
    a = np.where(found, a, 0)
    b = np.where(found, b, 0)
    return found, a, b


def split_truncate(split_file: np.ndarray, split_on: np.ndarray, split_off: np.ndarray,
                   qf: np.ndarray, qs: np.ndarray, qe: np.ndarray):
    """The .split check and truncation of spec §3.3, vectorised.

    Split intervals must be sorted by (file, onset, offset). Returns (keep, new_s, new_e,
    truncated): fragments contained in a split interval are unchanged; the others are cut to
    the split interval with the largest raw overlap among the candidates the original's
    `IntervalDB.find` returns (first wins a tie), or dropped (keep False) when none overlaps."""
    qf = np.asarray(qf, dtype=np.int64)
    qs = np.asarray(qs, dtype=np.float64)
    qe = np.asarray(qe, dtype=np.float64)
    m = len(qf)
    # find(): candidates from bisect_left(starts, qs) - 1 to bisect_right(starts, qe), raw overlap > 0
    lo = last_le(split_file, split_on, qf, qs, strict=True)   # = bisect_left(starts, qs) - 1
    file_first = np.searchsorted(split_file, qf, side="left")
    lo = np.where(lo >= 0, lo, file_first)                    # max(..., 0) within the file
    hi = last_le(split_file, split_on, qf, qe) + 1             # bisect_right(starts, qe)
    hi = np.where(hi > 0, hi, file_first)
    hi = np.maximum(hi, lo)
    best = np.full(m, -1, dtype=np.int64)
    best_o = np.full(m, -np.inf)
    covered = np.zeros(m, dtype=bool)
    width = int((hi - lo).max()) if m else 0
    for d in range(width):
        j = lo + d
        ok = j < hi
        jj = np.where(ok, j, 0)
        o = raw_overlap(split_on[jj], split_off[jj], qs, qe)
        ok &= o > 0
        covered |= ok & (split_on[jj] <= qs) & (qe <= split_off[jj])
        better = ok & (o > best_o)
        best = np.where(better, jj, best)
        best_o = np.where(better, o, best_o)
    keep = covered | (best >= 0)
    bb = np.where(best >= 0, best, 0)
    new_s = np.where(covered | ~keep, qs, np.maximum(qs, split_on[bb]))
    new_e = np.where(covered | ~keep, qe, np.minimum(qe, split_off[bb]))
    truncated = keep & ~covered
    return keep, new_s, new_e, truncated


@dataclass
class Fragments:
    """Annotated classes: distinct fragments and their class occurrences.

    Distinct fragment j is (file[j], [onset[j], offset[j]]) with transcription = token run
    run_start[j]:run_start[j]+run_len[j] of the phone Segmented, mark id mark[j] (equal ids <=>
    equal label tuples); fragments are sorted by (file, onset, offset), so j also orders pairs
    the way the original does (by file, then onset). Occurrence i (class-file order, duplicates
    kept) is fragment occ_frag[i] in class occ_cls[i]."""
    file: np.ndarray
    onset: np.ndarray
    offset: np.ndarray
    run_start: np.ndarray
    run_len: np.ndarray
    mark: np.ndarray
    marks: list[tuple]
    occ_cls: np.ndarray
    occ_frag: np.ndarray
    nclasses: int
    counts: dict
    generated: bool = False    # the generated n-gram classes (ngrams.ngram_classes): mark = type code

    def __len__(self) -> int:
        return len(self.onset)


def annotate(phones: Segmented, cls: np.ndarray, qf: np.ndarray, qs: np.ndarray, qe: np.ndarray,
             mode: str, split=None, marks: dict | None = None, ngrams=None) -> Fragments:
    """annotate_classes of the original: optional .split truncation (§3.3), then the lookup
    (§3.1); fragments whose lookup fails are dropped (and counted), classes left empty vanish.

    `split` is (file, onset, offset) sorted, or None. `marks` is a shared dict tuple -> id so
    that the mark ids of several Fragments (discovered, gold) are comparable; ids are given in
    order of first appearance. `ngrams` (a termeval.tde.zr2015.ngrams.NgramIndex of `phones`)
    identifies the transcriptions of up to 20 phones by their n-gram codes, so that only one
    fragment per distinct transcription goes through a Python tuple."""
    cls = np.asarray(cls, dtype=np.int64)
    qf = np.asarray(qf, dtype=np.int64)
    qs = np.asarray(qs, dtype=np.float64).copy()
    qe = np.asarray(qe, dtype=np.float64).copy()
    counts: dict[str, int] = {"fragments_in": int(len(qf))}
    keep = qf >= 0
    counts["dropped_unknown_file"] = int(np.count_nonzero(~keep))
    if split is not None:
        sf, son, soff = split
        k2, ns, ne, trunc = split_truncate(sf, son, soff, qf, qs, qe)
        k2 &= keep
        counts["dropped_outside_split"] = int(np.count_nonzero(keep & ~k2))
        counts["truncated_to_split"] = int(np.count_nonzero(k2 & trunc))
        keep = k2
        qs, qe = ns, ne
    found, a, b = lookup(phones, np.where(keep, qf, 0), qs, qe, mode)
    counts["dropped_no_segment"] = int(np.count_nonzero(keep & ~found))
    keep &= found
    counts["empty_transcription"] = int(np.count_nonzero(keep & (a == b)))
    idx = np.flatnonzero(keep)
    counts["fragments_kept"] = int(len(idx))
    f, s, e, ra, rn = qf[idx], qs[idx], qe[idx], a[idx], (b - a)[idx]
    order = np.lexsort((e, s, f))
    f, s, e, ra, rn = f[order], s[order], e[order], ra[order], rn[order]
    new = np.ones(len(f), dtype=bool)
    if len(f) > 1:
        new[1:] = (f[1:] != f[:-1]) | (s[1:] != s[:-1]) | (e[1:] != e[:-1])
    frag_of_sorted = np.cumsum(new) - 1
    occ_frag = np.empty(len(idx), dtype=np.int64)
    occ_frag[order] = frag_of_sorted
    u = np.flatnonzero(new)
    marks = {} if marks is None else marks
    mark = _mark_ids(phones.label, ra[u], rn[u], marks, ngrams)
    occ_cls = cls[idx]
    nclasses = int(cls.max()) + 1 if len(cls) else 0
    counts["classes_in"] = n_distinct(cls)
    counts["classes_kept"] = n_distinct(occ_cls)
    counts["distinct_fragments"] = int(len(u))
    inv = sorted(marks, key=marks.get)
    return Fragments(file=f[u], onset=s[u], offset=e[u], run_start=ra[u], run_len=rn[u],
                     mark=mark, marks=inv, occ_cls=occ_cls, occ_frag=occ_frag,
                     nclasses=nclasses, counts=counts)


def _mark_ids(label: np.ndarray, start: np.ndarray, length: np.ndarray, marks: dict, ngrams=None) -> np.ndarray:
    """marks.setdefault(tuple(label[start:start+length]), len(marks)) of each run, in order."""
    lab = label.tolist()
    if ngrams is None:
        return np.fromiter((marks.setdefault(tuple(lab[x:x + n]), len(marks))
                            for x, n in zip(start.tolist(), length.tolist())), np.int64, len(start))
    # a key per run: its n-gram code, the empty tuple, or (longer runs) a tuple's own id
    ok = (length >= 1) & (length <= ngrams.maxn)
    key = np.full(len(start), -1, dtype=np.int64)
    key[ok] = ngrams.code(start[ok], length[ok])
    key[length == 0] = ngrams.ntypes
    other = np.flatnonzero(key < 0)
    if len(other):
        own: dict = {}
        key[other] = [ngrams.ntypes + 1 + own.setdefault(tuple(lab[x:x + n]), len(own))
                      for x, n in zip(start[other].tolist(), length[other].tolist())]
    u, first, inv = np.unique(key, return_index=True, return_inverse=True)
    ids = np.empty(len(u), dtype=np.int64)
    for j in np.argsort(first, kind="stable").tolist():      # distinct runs by first appearance
        x, n = int(start[first[j]]), int(length[first[j]])
        ids[j] = marks.setdefault(tuple(lab[x:x + n]), len(marks))
    return ids[inv.ravel()]
