"""Word alignments for prepare_kws: a termeval data dir (`words`, `utt2spk`, `reco2dur`, made by
steps/prepare_gold.sh from Kaldi CTMs, MFA TextGrids or ZeroSpeech files) or a Kaldi data dir
with a word CTM (`<utt|reco> <chan> <start> <dur> <word> [<conf>]`, in the dir as `ctm` or
given with --ctm) plus `segments` (optional), `utt2dur`/`reco2dur` and `utt2spk`.

Times are made absolute (recording time). With `segments`, a CTM line keyed by an utterance is
relative to its segment; a line keyed by a recording is placed in the segment holding its
mid-point. Words of one utterance must not overlap.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional

from termeval.core import kaldi_files
from termeval.core.errors import InputError
from termeval.std.xmlsafe import clip
from termeval.core.textio import iter_lines, parse_float

END_TOLERANCE = 0.01  # a word may end this much after its utterance (frame rounding)


@dataclass
class Utterance:
    name: str
    reco: str
    start: float
    end: float
    speaker: str


@dataclass
class Word:
    utt: str
    onset: float   # recording time
    offset: float
    word: str
    path: str
    line: int


@dataclass
class Alignment:
    utts: dict[str, Utterance]   # in C order of the names
    words: list[Word]            # sorted by recording, onset
    has_segments: bool
    source: str


def _speakers(d: str) -> dict[str, str]:
    p = os.path.join(d, "utt2spk")
    return {u: s for u, (s, _) in kaldi_files.read_utt2spk(p).items()} if os.path.exists(p) else {}


def _durations(d: str, names: list[str]) -> tuple[dict[str, float], str]:
    for n in names:
        p = os.path.join(d, n)
        if os.path.exists(p):
            return kaldi_files.read_durations(p, positive=False), p
    raise InputError(f"needs {' or '.join(names)} (the searched durations)", d)


def read_alignment(data_dir: str, ctm: Optional[str] = None) -> Alignment:
    """The words and utterances of a data dir (module doc)."""
    if not os.path.isdir(data_dir):
        raise InputError("data dir not found", data_dir)
    words_path = os.path.join(data_dir, "words")
    spk = _speakers(data_dir)
    if ctm is None and os.path.exists(words_path):
        durs, _ = _durations(data_dir, ["reco2dur", "utt2dur"])
        utts = {r: Utterance(r, r, 0.0, d, spk.get(r, "<NA>")) for r, d in sorted(durs.items())}
        rows = []
        for lineno, line in iter_lines(words_path):
            f = line.split()
            if not f:
                continue
            if len(f) != 4:
                raise InputError(f"expected '<file> <onset> <offset> <word>', got {len(f)} fields", words_path, lineno)
            rows.append((f[0], parse_float(f[1], words_path, lineno), parse_float(f[2], words_path, lineno),
                         f[3], lineno))
        return _finish(utts, rows, words_path, False, relative=set())
    ctm = ctm or os.path.join(data_dir, "ctm")
    if not os.path.exists(ctm):
        raise InputError("no word alignment: expected 'words' (steps/prepare_gold.sh) or a word CTM "
                         "'ctm' (or --ctm FILE)", data_dir)
    seg_path = os.path.join(data_dir, "segments")
    if os.path.exists(seg_path):
        segs = kaldi_files.read_segments(seg_path)
        rdur: dict[str, float] = {}
        if any(s.end < 0 for s in segs.values()) or os.path.exists(os.path.join(data_dir, "reco2dur")):
            rdur, _ = _durations(data_dir, ["reco2dur"])   # end -1: to the end of the recording
        for u, s in segs.items():       # an utterance must end in its recording (END_TOLERANCE)
            if s.reco in rdur and s.end > rdur[s.reco] + END_TOLERANCE:
                raise InputError(f"utterance '{clip(u)}' ends at {s.end:g} s, after the end of its "
                                 f"recording '{clip(s.reco)}' ({rdur[s.reco]:g} s in reco2dur; "
                                 f"tolerance {END_TOLERANCE:g} s)", seg_path, s.line)
        utts = {}
        for u, s in sorted(segs.items()):
            if s.end < 0 and s.reco not in rdur:
                raise InputError(f"segment '{clip(u)}' ends at -1 but recording '{clip(s.reco)}' is not in reco2dur",
                                 seg_path, s.line)
            utts[u] = Utterance(u, s.reco, s.start, s.end if s.end >= 0 else rdur[s.reco], spk.get(u, "<NA>"))
    else:
        durs, _ = _durations(data_dir, ["utt2dur", "reco2dur"])
        utts = {u: Utterance(u, u, 0.0, d, spk.get(u, "<NA>")) for u, d in sorted(durs.items())}
    rows = []
    for lineno, line in iter_lines(ctm):
        f = line.split()
        if not f or f[0].startswith(";;"):
            continue
        if len(f) not in (5, 6):
            raise InputError(f"expected '<utt> <chan> <start> <dur> <word> [<conf>]', got {len(f)} fields",
                             ctm, lineno)
        b = parse_float(f[2], ctm, lineno)
        d = parse_float(f[3], ctm, lineno, "duration")
        if d < 0:
            raise InputError(f"negative duration '{clip(f[3])}'", ctm, lineno)
        rows.append((f[0], b, b + d, f[4], lineno))
    return _finish(utts, rows, ctm, os.path.exists(seg_path), relative=set(utts) if os.path.exists(seg_path) else set())


def _finish(utts: dict[str, Utterance], rows, path: str, has_segments: bool, relative: set) -> Alignment:
    by_reco: dict[str, list[Utterance]] = {}
    for u in utts.values():
        by_reco.setdefault(u.reco, []).append(u)
    for lst in by_reco.values():
        lst.sort(key=lambda u: (u.start, u.name))
    words: list[Word] = []
    for key, on, off, word, lineno in rows:
        if on < 0 or off < on:
            raise InputError(f"bad word interval [{on}, {off}]", path, lineno)
        if key in relative:
            u = utts[key]
            on, off = on + u.start, off + u.start
        elif key in utts and not has_segments:
            u = utts[key]
        elif key in by_reco:
            mid = (on + off) / 2
            cand = [u for u in by_reco[key] if u.start <= mid <= u.end]
            if not cand:
                raise InputError(f"word '{clip(word)}' at {on}-{off} lies in no segment of recording "
                                 f"'{clip(key)}'", path, lineno)
            u = cand[0]
        else:
            raise InputError(f"'{clip(key)}' is neither an utterance nor a recording of the data dir", path, lineno)
        if off > u.end + END_TOLERANCE or on < u.start - END_TOLERANCE:
            raise InputError(f"word '{clip(word)}' ({on:g}-{off:g} s) lies outside its utterance "
                             f"'{clip(u.name)}' ({u.start:g}-{u.end:g} s)", path, lineno)
        words.append(Word(u.name, on, off, word, path, lineno))
    words.sort(key=lambda w: (utts[w.utt].reco, w.onset, w.offset))
    last: dict[str, Word] = {}
    for w in sorted(words, key=lambda w: (w.utt, w.onset, w.offset)):
        p = last.get(w.utt)
        if p is not None and w.onset < p.offset - 1e-9:
            first, second = sorted((p, w), key=lambda x: x.line)
            raise InputError(f"overlapping words in '{clip(w.utt)}': '{clip(p.word)}' {p.onset:g}-{p.offset:g} "
                             f"and '{clip(w.word)}' {w.onset:g}-{w.offset:g} (line {first.line} and this line)",
                             path, second.line)
        last[w.utt] = w
    if not words:
        raise InputError("no words in the alignment", path)
    return Alignment(utts, words, has_segments, path)
