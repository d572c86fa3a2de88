"""Kaldi CTM phone/word alignments, and words derived from phone position suffixes."""
from __future__ import annotations

import re

import numpy as np

from termeval.core.errors import InputError
from termeval.gold.intervals import Intervals, Options, dict_codes, round_times, sorted_codes
from termeval.core.kaldi_files import Segment
from termeval.core.textio import read_table

CTM_FIELDS = "'<reco> <channel> <start> <duration> <label> [<confidence>]'"
_POS_RE = re.compile(r"_([BEIS])$")


def read_ctm(path: str, symbols: dict[str, str] | None = None, symbols_path: str | None = None,
             segments: dict[str, Segment] | None = None, segments_path: str | None = None,
             opts: Options = Options(), kind: str = "phone") -> Intervals:
    """A phone or word CTM; integer labels go through `symbols` (phones.txt / words.txt).
    Position suffixes of phones are recorded in `.pos` and (when opts.strip_position) stripped."""
    # the optional 6th column (confidence) is parsed only to check that it is a number
    cols = read_table(path, (5, 6), CTM_FIELDS, {2: "start time", 3: "duration", 5: "confidence"},
                      (0, 1, 4))
    start = cols.floats(2)
    dur = cols.floats(3)
    neg = start < 0
    if neg.any():
        r = int(np.argmax(neg))
        raise InputError(f"negative start time {cols.token(r, 2)}", path, int(cols.line[r]))
    nonpos = dur <= 0
    if nonpos.any():
        r = int(np.argmax(nonpos))
        what = "zero" if dur[r] == 0 else "negative"
        raise InputError(f"{what} duration {cols.token(r, 3)}", path, int(cols.line[r]))
    # labels: map integer ids, then record and strip position suffixes (per distinct label)
    ltab, lcode = cols.codes(4)
    mapped: list[str] = []
    known = set(symbols.values()) if symbols is not None else set()
    for j, lab in enumerate(ltab):
        # integer labels are ids; without words.txt a word CTM may contain words like '1990'
        if lab.isascii() and lab.isdigit() and (symbols is not None or kind == "phone"):
            if symbols is None:
                r = int(np.argmax(lcode == j))
                table = "phones.txt (--phones-txt)" if kind == "phone" else "words.txt (--words-txt)"
                raise InputError(f"integer {kind} id '{lab}' but no symbol table given: pass {table}",
                                 path, int(cols.line[r]))
            sym = symbols.get(str(int(lab)))
            if sym is None:
                r = int(np.argmax(lcode == j))
                raise InputError(f"{kind} id {lab} is not in {symbols_path}", path, int(cols.line[r]))
            mapped.append(sym)
        else:
            if symbols is not None and kind == "phone" and lab not in known:
                r = int(np.argmax(lcode == j))
                raise InputError(f"unknown {kind} '{lab}' (not in {symbols_path})", path, int(cols.line[r]))
            mapped.append(lab)
    pos_of = np.zeros(len(mapped), dtype=np.int8)
    if kind == "phone" and opts.strip_position:
        for j, sym in enumerate(mapped):
            m = _POS_RE.search(sym)
            if m and len(sym) > 2:
                pos_of[j] = "BIES".index(m.group(1)) + 1
                mapped[j] = sym[:-2]
    position = pos_of[lcode] if len(lcode) else np.zeros(0, dtype=np.int8)
    onset = start
    ktab, kcode = cols.codes(0)
    if segments is not None:
        utab, ucode = ktab, kcode
        seg_start = np.zeros(len(utab))
        reco_of: list[str] = []
        recos = {s.reco for s in segments.values()}
        for j, u in enumerate(utab):
            s = segments.get(u)
            if s is None and u in recos:  # already recording-relative (e.g. after convert_ctm.pl)
                reco_of.append(u)
                continue
            if s is None:
                r = int(np.argmax(ucode == j))
                raise InputError(f"'{u}' is neither an utterance nor a recording of the segments file "
                                 f"{segments_path}", path, int(cols.line[r]))
            seg_start[j] = s.start
            reco_of.append(s.reco)
        onset = start + seg_start[ucode]
        ktab, remap = dict_codes(reco_of)  # utterances of one recording merge
        kcode = remap[kcode]
    offset = round_times(onset + dur, opts.time_decimals)
    onset = round_times(onset, opts.time_decimals)
    ftab, fcode = sorted_codes(ktab, kcode)
    ctab, ccode = cols.codes(1)
    if len(ctab) > 1:  # one channel per file id: two channels are two different signals
        pf = np.unique(fcode * len(ctab) + ccode) // len(ctab)
        dup = np.flatnonzero(pf[1:] == pf[:-1])
        if len(dup):
            f = int(pf[dup[0]])
            rows = np.flatnonzero(fcode == f)
            c0 = int(ccode[rows[0]])
            i = int(rows[np.argmax(ccode[rows] != c0)])
            raise InputError(f"file '{ftab[f]}' appears with channels '{ctab[c0]}' and "
                             f"'{ctab[int(ccode[i])]}'; give each channel its own recording id",
                             path, int(cols.line[i]))
    mtab, remap = dict_codes(mapped)
    mcode = remap[lcode] if len(lcode) else lcode
    return Intervals(ftab, fcode, onset, offset, mtab, mcode, cols.line,
                     np.zeros(len(cols), dtype=np.int32), [path], position)


def derive_words(iv: Intervals) -> Intervals:
    """Words from position suffixes of time-ordered phones (`.pos`): `_B _I* _E` or `_S`.
    Labels are the phone labels joined by '+'."""
    pos = iv.pos if iv.pos is not None else np.zeros(len(iv), dtype=np.int8)
    if not np.any(pos > 0):
        raise InputError("no phone has a position suffix (_B/_I/_E/_S): word boundaries cannot be "
                         "derived; give a word CTM instead of '-'", iv.paths[0])
    n = len(iv)
    delta = (pos == 1).astype(np.int64) - (pos == 3)
    new_file = np.concatenate(([True], iv.file[1:] != iv.file[:-1])) if n else np.zeros(0, bool)
    csum = np.cumsum(delta)
    base = np.maximum.accumulate(np.where(new_file, csum - delta, -np.inf)).astype(np.int64) \
        if n else np.zeros(0, np.int64)
    before = csum - delta - base  # open words before this phone, within its file
    want_open = (pos == 2) | (pos == 3)  # _I/_E need an open word; B/S/none need none
    bad = np.where(want_open, before != 1, before != 0)
    last = np.concatenate((new_file[1:], [True])) if n else np.zeros(0, bool)
    after = before + delta
    unclosed = last & (after != 0)
    if bad.any() or unclosed.any():
        i = int(np.argmax(bad)) if bad.any() else n
        j = int(np.argmax(unclosed)) if unclosed.any() else n
        if i <= j:
            p = int(pos[i])
            msg = {0: "phone without a position suffix inside a word",
                   1: "_B phone inside a word (previous word not ended with _E)",
                   2: "_I phone outside a word (no _B before it)",
                   3: "_E phone outside a word (no _B before it)",
                   4: "_S phone inside a word (previous word not ended with _E)"}[p]
            raise iv.error(i, f"cannot derive words: {msg}")
        raise iv.error(j, "cannot derive words: the file ends inside a word (no _E phone)")
    starts = np.flatnonzero((pos == 1) | (pos == 4))
    ends = np.flatnonzero((pos == 3) | (pos == 4))
    labs = iv.labels
    lab = iv.label.tolist()
    words = ["+".join(labs[c] for c in lab[s:e + 1]) for s, e in zip(starts.tolist(), ends.tolist())]
    wtab, wcode = dict_codes(words)
    return Intervals(iv.files, iv.file[starts], iv.onset[starts], iv.offset[ends], wtab, wcode,
                     iv.line[starts], iv.src[starts], iv.paths)
