"""Reading what is scored: the utterances, the gold tier cut to them, and the segmentation.

Utterances are the files of the gold data dir (0 .. reco2dur), or the sub-spans of a Kaldi
`segments` file (`<utt> <reco> <start> <end>`, end -1 = to the end of the file). The gold
intervals of the chosen tier (words or phones) that overlap an utterance are cut to it.

A segmentation is one of
  * a ZeroSpeech class file (`Class <id>` blocks of `<file> <onset> <offset>`, seconds,
    file-relative), parsed by termeval.classes.parse.parse_class_file; the class id is the label;
  * an interval file, `<utt-or-file> <onset> <offset> [<label>]` in seconds: relative to the
    utterance when the key is an utterance of the segments file, else to the file;
  * a directory of per-utterance files `<key>.txt` of `<start> <end> <label>` lines in frames
    relative to the utterance (vqwordseg's `intervals/`); an empty file is an utterance
    without segments.
File-keyed segments are given to the utterance of that file containing their midpoint.

What is kept (default mode; every drop is counted in scores.json and said on stderr):
  * a segment that overlaps no utterance (midpoint in none, or wholly after the end of its
    utterance or file) is dropped (`segments_outside_utterances`); one that sticks out is cut
    to the utterance (`segments_cut_to_utterance`);
  * a zero-length segment (onset = offset) is dropped (`segments_zero_length`): it has no
    extent, no token and no boundary of its own;
  * overlapping segments of one utterance are an error naming the line: a segmentation
    gives each instant at most one segment. A class file is a term discovery output, where
    fragments overlap by nature: it is scored as it is, its overlaps counted
    (`segments_overlapping`) and said.
--compat vqwordseg takes segments as kamperh/vqwordseg's eval_segmentation.py does: zero-length
and overlapping segments are kept, and ends are never cut to the utterance (the script knows
only the frames it is given: a prediction longer than the reference counts the reference's
final boundary); onsets before the utterance start are cut to it (frames are >= 0). The
`ends` reading (every --compat NAME of termeval.segmentation.scorers) keeps ends past the
utterance the same way (the scripts compare the predictions as given: a segmentation a few
frames longer than the gold has its last boundaries there) and otherwise reads as the default.
A `segments` utterance must lie inside its recording (reco2dur, plus one 10 ms frame of
rounding slack, within which its end is cut to the recording's end).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from termeval.core.datadir import Gold, Tier, load_gold, load_tier
from termeval.core.errors import InputError
from termeval.core.kaldi_files import read_segments
from termeval.core.textio import iter_lines, read_table, read_text
from termeval.gold.options import DEFAULT_SILENCE_LABELS

NO_LABEL = -1
SEGMENT_END_SLACK = 0.01   # a `segments` end at most one frame past reco2dur is rounding: cut
COMPAT_MAX_OVERHANG = 1.0  # --compat vqwordseg: ends kept up to this many seconds past the utterance
MAX_FRAME = 1 << 31        # frame numbers of an interval directory (the packed keys hold < 2^40)
# readings that keep predicted ends past the utterance end (-> the --compat mode named in errors):
# vqwordseg's (zero-length and overlapping segments kept too) and `ends` (the named scorers of
# termeval.segmentation.scorers: their scripts never cut a prediction; zero-length segments
# dropped, overlaps refused)
KEEP_ENDS = {"vqwordseg": "vqwordseg", "ends": "NAME"}


@dataclass
class Utterances:
    ids: list[str]
    reco: np.ndarray          # index into Gold.files
    start: np.ndarray         # seconds, file-relative
    end: np.ndarray
    speaker: list[str]
    source: str               # "files" or the segments path

    def __len__(self) -> int:
        return len(self.ids)


@dataclass
class Intervals:
    """Intervals grouped by utterance (sorted by utterance, then start, then end).

    Times are absolute seconds (`onset`, `offset`); `frames` optionally holds the exact
    utterance-relative frame numbers read from a vqwordseg directory. `label` indexes `labels`
    (NO_LABEL when the input has no labels)."""
    utt: np.ndarray
    onset: np.ndarray
    offset: np.ndarray
    label: np.ndarray
    labels: list[str]
    frames: tuple[np.ndarray, np.ndarray] | None = None
    counts: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.utt)

    def take(self, idx: np.ndarray) -> "Intervals":
        fr = None if self.frames is None else (self.frames[0][idx], self.frames[1][idx])
        return Intervals(self.utt[idx], self.onset[idx], self.offset[idx], self.label[idx],
                         self.labels, fr, self.counts)


def load_gold_tier(data_dir: str, level: str) -> tuple[Gold, Tier]:
    """The gold data dir with only the tier that is scored read (`words`, `phones` or `syllables`)."""
    if level == "syllable":
        path = os.path.join(data_dir, "syllables")
        if not os.path.isfile(path):
            raise InputError("missing syllables: --level syllable needs a data dir prepared with "
                             "steps/prepare_gold.sh --syllables <file>", path)
        gold = load_gold(data_dir, tiers=())
        return gold, load_tier(path, gold.file_index)
    name = "words" if level == "word" else "phones"
    gold = load_gold(data_dir, tiers=(name,))
    return gold, getattr(gold, name)


def load_utterances(gold: Gold, segments: str | None) -> Utterances:
    files = gold.files
    if not segments:
        return Utterances(list(files), np.arange(len(files)), np.zeros(len(files)),
                          gold.duration.copy(), list(gold.speaker), "files")
    segs = read_segments(segments)
    ids = sorted(segs)
    reco, start, end = [], [], []
    for u in ids:
        s = segs[u]
        f = gold.file_index.get(s.reco)
        if f is None:
            raise InputError(f"recording '{s.reco}' is not in the data dir's reco2dur", segments, s.line)
        dur = float(gold.duration[f])
        if s.start >= dur or (s.end != -1 and s.end > dur + SEGMENT_END_SLACK):
            at = f"starts at {s.start:g} s" if s.start >= dur else f"ends at {s.end:g} s"
            raise InputError(f"utterance '{u}' {at}, after the end of recording '{s.reco}' "
                             f"({dur:g} s in reco2dur)", segments, s.line)
        reco.append(f)
        start.append(s.start)
        end.append(dur if s.end == -1 else min(s.end, dur))
    reco_a = np.array(reco, dtype=np.int64)
    return Utterances(ids, reco_a, np.array(start, dtype=np.float64), np.array(end, dtype=np.float64),
                      [gold.speaker[f] for f in reco], segments)


def cut_tier(tier: Tier, utts: Utterances) -> Intervals:
    """The tier's intervals overlapping each utterance, cut to it."""
    parts = []
    for u in range(len(utts)):
        f = int(utts.reco[u])
        a, b = int(tier.starts[f]), int(tier.starts[f + 1])
        us, ue = utts.start[u], utts.end[u]
        i0 = a + int(np.searchsorted(tier.offset[a:b], us, side="right"))
        i1 = a + int(np.searchsorted(tier.onset[a:b], ue, side="left"))
        if i1 > i0:
            parts.append((u, np.arange(i0, i1)))
    if not parts:
        z = np.zeros(0, dtype=np.int64)
        return Intervals(z, np.zeros(0), np.zeros(0), z, list(tier.labels))
    utt = np.concatenate([np.full(len(ix), u, dtype=np.int64) for u, ix in parts])
    idx = np.concatenate([ix for _, ix in parts])
    on = np.maximum(tier.onset[idx], utts.start[utt])
    off = np.minimum(tier.offset[idx], utts.end[utt])
    return Intervals(utt, on, off, tier.label[idx].astype(np.int64), list(tier.labels))


def _factorize(names: list[str]) -> tuple[list[str], np.ndarray]:
    table: dict[str, int] = {}
    codes = np.fromiter((table.setdefault(x, len(table)) for x in names), dtype=np.int64, count=len(names))
    return list(table), codes


def _locate(keys: tuple[list[str], np.ndarray], on: np.ndarray, off: np.ndarray, gold: Gold, utts: Utterances,
            path: str, lines: np.ndarray, relative_ok: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(utterance or -1, absolute onset, absolute offset) of segments keyed by utterance
    (times relative to it, when relative_ok) or by file (times file-relative); not cut. keys:
    (the distinct key names, each segment's index in them), each name looked up once."""
    uidx = {u: i for i, u in enumerate(utts.ids)}
    whole = utts.source == "files"
    names, code = keys
    k_utt = np.full(len(names), -1, dtype=np.int64)
    k_reco = np.full(len(names), -1, dtype=np.int64)
    for j, k in enumerate(names):
        u = uidx.get(k) if (relative_ok or whole) else None
        if u is not None:
            k_utt[j] = u
        else:
            k_reco[j] = gold.file_index.get(k, -1)
    bad = (k_utt < 0) & (k_reco < 0)
    if bad.any():
        i = int(np.flatnonzero(bad[code])[0])      # the first line with an unknown key
        raise InputError(f"'{names[int(code[i])]}' is neither an utterance nor a file of the data dir", path, int(lines[i]))
    utt, reco = k_utt[code], k_reco[code]
    by_file = utt < 0
    shift = np.zeros(len(utt))
    shift[~by_file] = utts.start[utt[~by_file]]
    on = on + shift
    off = off + shift
    if by_file.any():
        # midpoint -> utterance of that file (utterances of a file are sorted by start)
        order = np.lexsort((utts.start, utts.reco))
        rk = utts.reco[order].astype(np.float64) * 1e7 + utts.start[order]
        fi = np.flatnonzero(by_file)
        mid = reco[fi] * 1e7 + (on[fi] + off[fi]) / 2
        pos = np.searchsorted(rk, mid, side="right") - 1
        cand = order[np.clip(pos, 0, len(order) - 1)]
        ok = (pos >= 0) & (utts.reco[cand] == reco[fi]) & (utts.end[cand] >= (on[fi] + off[fi]) / 2)
        utt[fi] = np.where(ok, cand, -1)
    return utt, on, off


def _place(utt: np.ndarray, on: np.ndarray, off: np.ndarray, utts: Utterances, compat: str,
           counts: dict[str, int], where) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cut segments to their utterance (utt = -1: in none) and choose the kept ones (see the
    module doc); adds the counts; where(i) = (path, line) of segment i for errors. Returns
    (kept mask, onset, offset)."""
    placed = utt >= 0
    u = np.where(placed, utt, 0)
    us, ue = utts.start[u], utts.end[u]
    if compat in KEEP_ENDS:
        far = np.flatnonzero(placed & (off > ue + COMPAT_MAX_OVERHANG))
        if len(far):
            i = int(far[0])
            raise InputError(f"segment ends {off[i] - ue[i]:.6g} s after the end of its utterance "
                             f"'{utts.ids[int(u[i])]}'; --compat {KEEP_ENDS[compat]} keeps predicted ends up to "
                             f"{COMPAT_MAX_OVERHANG:g} s past it (a few frames is the usual "
                             "feature-extraction difference)", *where(i))
        if compat == "vqwordseg":
            zero = outside = np.zeros(len(utt), dtype=bool)
        else:
            zero = placed & (off == on)
            outside = placed & ~zero & (off <= us)
        kept = placed & ~zero & ~outside
        on = np.where(kept, np.maximum(on, us), on)
        off = np.maximum(off, on)
        cut = kept & (off > ue)
    else:
        zero = placed & (off == on)
        outside = placed & ~zero & ((on >= ue) | (off <= us))
        kept = placed & ~zero & ~outside
        cut = kept & ((on < us) | (off > ue))
        on = np.where(kept, np.maximum(on, us), on)
        off = np.where(kept, np.minimum(off, ue), off)
    counts["segments_outside_utterances"] = counts.get("segments_outside_utterances", 0) + \
        int((~placed).sum() + outside.sum())
    counts["segments_zero_length"] = counts.get("segments_zero_length", 0) + int(zero.sum())
    key = "segments_past_utterance_end" if compat in KEEP_ENDS else "segments_cut_to_utterance"
    counts[key] = counts.get(key, 0) + int(cut.sum())
    return kept, on, off


def _order(utt: np.ndarray, on: np.ndarray, off: np.ndarray) -> np.ndarray:
    """np.lexsort((off, on, utt)); a file already in that order (the usual case) is not sorted."""
    if len(utt) > 1:
        u, a, b = utt[1:], on[1:], off[1:]
        pu, pa, pb = utt[:-1], on[:-1], off[:-1]
        if ((u > pu) | ((u == pu) & ((a > pa) | ((a == pa) & (b >= pb))))).all():
            return np.arange(len(utt))
    return np.lexsort((off, on, utt))


def refuse_overlaps(utt: np.ndarray, on: np.ndarray, off: np.ndarray, where,
                    order: np.ndarray | None = None) -> None:
    """InputError at the first segment that overlaps another of its utterance; where(i) gives
    (path, line) of segment i (order: _order of the three, when the caller has it)."""
    order = _order(utt, on, off) if order is None else order
    u, a, b = utt[order], on[order], off[order]
    bad = np.flatnonzero((u[1:] == u[:-1]) & (a[1:] < b[:-1]))
    if len(bad):
        i, j = int(order[bad[0]]), int(order[bad[0] + 1])
        pi, li = where(i)
        pj, lj = where(j)
        if (pj, lj) < (pi, li):
            (pi, li), (pj, lj) = (pj, lj), (pi, li)
        other = f"line {li}" if pi == pj else f"{pi}:{li}"
        raise InputError(f"segment overlaps the segment at {other} (a segmentation gives each "
                         "instant at most one segment; --compat vqwordseg scores overlaps as the "
                         "script does)", pj, lj)


def _sorted(utt, on, off, label, labels, frames=None, counts=None, order=None) -> Intervals:
    order = _order(utt, on, off) if order is None else order
    fr = None if frames is None else (frames[0][order], frames[1][order])
    return Intervals(utt[order], on[order], off[order], label[order], labels, fr, counts or {})


def count_overlapping(utt: np.ndarray, on: np.ndarray, off: np.ndarray) -> int:
    """Segments starting before the end of an earlier one of their utterance."""
    if len(utt) < 2:
        return 0
    order = _order(utt, on, off)
    u, a = utt[order], np.round(on[order] * 1e6).astype(np.int64)
    b = np.round(off[order] * 1e6).astype(np.int64)
    span = int(b.max()) + 1                      # per-utterance running max of the offsets
    run = np.maximum.accumulate(u * span + b) - u * span
    return int(((u[1:] == u[:-1]) & (a[1:] < run[:-1])).sum())


def _finish(path: str, utt, on, off, label, labels, lines, utts: Utterances, compat: str,
            counts: dict[str, int], overlaps: str = "refuse") -> Intervals:
    kept, on, off = _place(utt, on, off, utts, compat, counts, lambda i: (path, int(lines[i])))
    utt, on, off, label = utt[kept], on[kept], off[kept], label[kept]
    order = _order(utt, on, off)
    if overlaps == "count":
        counts["segments_overlapping"] = count_overlapping(utt, on, off)
    elif compat != "vqwordseg":
        refuse_overlaps(utt, on, off, lambda i: (path, int(lines[kept][i])), order)
    return _sorted(utt, on, off, label, labels, counts=counts, order=order)


def read_class_file(path: str, gold: Gold, utts: Utterances, compat: str = "none") -> Intervals:
    from termeval.classes.parse import parse_class_file   # the class-file parser: only a class file needs it
    durations = {f: float(d) for f, d in zip(gold.files, gold.duration)}
    prep = parse_class_file(path, durations)
    sizes = np.diff(prep.starts)
    label = np.repeat(np.arange(len(prep.names), dtype=np.int64), sizes)
    utt, on, off = _locate(_factorize(list(prep.file)), prep.onset, prep.offset, gold, utts, path, prep.line, False)
    # a term discovery output (fragments may overlap, one may be in two classes) is scored as
    # it is: its overlaps are counted and said, not refused
    return _finish(path, utt, on, off, label, list(prep.names), prep.line, utts, compat,
                   {"segments_read": len(label)}, overlaps="count")


def read_interval_file(path: str, gold: Gold, utts: Utterances, compat: str = "none") -> Intervals:
    t = read_table(path, (3, 4), "'<utt-or-file> <onset> <offset> [<label>]'",
                   {1: "onset", 2: "offset"}, (0, 3))
    n = len(t)
    on, off = t.floats(1), t.floats(2)
    bad = (on < 0) | (off < on)
    if bad.any():
        r = int(np.argmax(bad))
        raise InputError("onset must be >= 0 and not after the offset", path, int(t.line[r]))
    nf = t.nfields
    if (nf == 4).any() and (nf == 3).any():
        r = int(np.argmax(nf != nf[0]))
        raise InputError("either every line has a label or none has", path, int(t.line[r]))
    keys = t.codes(0)
    if nf[0] == 4:
        labels, label = t.codes(3)
        labels = list(labels)
    else:
        labels, label = [], np.full(n, NO_LABEL, dtype=np.int64)
    utt, on, off = _locate(keys, on, off, gold, utts, path, t.line, True)
    return _finish(path, utt, on, off, label, labels, t.line, utts, compat, {"segments_read": n})


def read_interval_dir(path: str, utts: Utterances, frame_shift: float, compat: str = "none") -> Intervals:
    uidx = {u: i for i, u in enumerate(utts.ids)}
    names = sorted(x for x in os.listdir(path) if x.endswith(".txt"))
    if not names:
        raise InputError("no <utterance>.txt files in the interval directory", path)
    us, ss, es, labs, src = [], [], [], [], []
    unknown = 0
    for name in names:
        fn = os.path.join(path, name)
        u = uidx.get(name[:-4])
        if u is None:
            unknown += 1
            continue
        for n, line in iter_lines(fn):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != 3:
                raise InputError("expected '<start> <end> <label>' (frames)", fn, n)
            try:
                s, e = int(parts[0]), int(parts[1])
            except ValueError:
                raise InputError("start and end must be integer frame numbers", fn, n) from None
            if s < 0 or e < s or e >= MAX_FRAME:
                raise InputError(f"expected 0 <= start <= end < {MAX_FRAME} (frames)", fn, n)
            us.append(u)
            ss.append(s)
            es.append(e)
            labs.append(parts[2])
            src.append((fn, n))
    if unknown == len(names):
        raise InputError("none of the <key>.txt files names an utterance of the data dir "
                         "(utterances are files, or come from --segments)", path)
    utt = np.array(us, dtype=np.int64)
    fs, fe = np.array(ss, dtype=np.int64), np.array(es, dtype=np.int64)
    labels, label = _factorize(labs)
    start = utts.start[utt] if len(utt) else np.zeros(0)
    counts = {"segments_read": len(utt), "files_not_utterances": unknown}
    kept, on, off = _place(utt, start + fs * frame_shift, start + fe * frame_shift, utts, compat, counts,
                           lambda i: src[i])
    if compat != "vqwordseg":
        idx = np.flatnonzero(kept)
        refuse_overlaps(utt[kept], on[kept], off[kept], lambda i: src[int(idx[i])])
    return _sorted(utt[kept], on[kept], off[kept], label[kept], labels, (fs[kept], fe[kept]), counts)


def read_segmentation(path: str, gold: Gold, utts: Utterances, frame_shift: float,
                      compat: str = "none") -> Intervals:
    """Read any of the three segmentation formats (see the module doc)."""
    if os.path.isdir(path):
        return read_interval_dir(path, utts, frame_shift, compat)
    if not os.path.isfile(path):
        raise InputError("no such file or directory", path)
    head = read_text(path).lstrip()        # the first token of the first non-blank line
    if head and head.split(None, 1)[0].lower() == "class":
        return read_class_file(path, gold, utts, compat)
    return read_interval_file(path, gold, utts, compat)


SILENCE = frozenset(DEFAULT_SILENCE_LABELS) | {""}


def speech_only(ref: Intervals) -> Intervals:
    """The gold intervals without the silence ones (labels SIL, sil, sp, NSN: what
    steps/prepare_gold.sh writes as SIL). The scorers' own gold leaves silence out (jasonppy's
    alignment strings, SD-HuBERT's syllables) or makes it a gap-filling interval of its own
    (a TextGrid's empty marks, a .phn file's pauses, discophon's SIL phones), which the scorers
    that need it restore from the gaps (termeval/segmentation/scorers/tier.py): silence is a gap
    for every named scorer, at every level, as it is for words."""
    if not len(ref) or not ref.labels:
        return ref
    sil = np.fromiter((x in SILENCE for x in ref.labels), dtype=bool, count=len(ref.labels))
    if not sil.any():
        return ref
    return ref.take(np.flatnonzero(~sil[ref.label]))
