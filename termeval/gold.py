"""Gold alignments -> a Kaldi-style data dir (`phones`, `words`, `utt2spk`, `spk2utt`, `reco2dur`).

Readers (each returns phone and word `Intervals` keyed by file id, with the source file and
line of every interval so that any later check can name them):
  read_zr        ZeroSpeech `.phn`/`.wrd`: `<file> <onset> <offset> <label>` (seconds). Times are
                 kept as the parsed doubles (no rounding), so the reference tools see the same
                 floats. Tokenised with str.split on 4 MB chunks + numpy (read_table): the
                 1.43 M-line ZR2017 English alignment takes ~4 s CPU and ~320 MB end to end.
  read_ctm       Kaldi CTM `<reco-or-utt> <chan> <start> <dur> <label> [<conf>]`, e.g. from
                 `ali-to-phones --ctm-output` (integer ids, mapped through phones.txt) or
                 `steps/get_train_ctm.sh` (words). With a `segments` file, the keys are
                 utterances and times are moved to recording time (`start + segment start`);
                 a key that is a recording of the segments file is already recording-relative
                 (a NIST CTM after convert_ctm.pl). Integer word labels are ids only when a
                 words.txt is given (otherwise '1990' is a word).
                 Times are rounded to `time_decimals` (default 6) after `start + dur` (+ offset).
  read_textgrid_dir  Praat/MFA TextGrids (`**/*.TextGrid`, file id = basename), parsed with the
                 Praat reader functions of the `textgrid` package; our own loop around them keeps
                 the line number of every interval and reports (instead of silently dropping)
                 zero-length or reversed intervals. Tiers `words`/`phones`, or MFA multi-speaker
                 `<speaker> - words` / `<speaker> - phones` (then the speaker is known).

Label rules (all formats):
  * phones: position suffixes `_[BEIS]$` are stripped (CTM only); stress digits `[0-9]$` are
    stripped when `strip_stress`; labels in `silence_labels` (default `SIL sil sp NSN`) and
    empty TextGrid marks are silence and are written as `sil_label` (default `SIL`). Other
    non-speech labels (`SPN`, MFA `spn`) are kept as they are: they are phones of unknown
    words, which the scorers treat specially (coverage ignores SIL and SPN).
  * words: silence labels and empty marks are not words and are dropped.
  * TextGrid marks are stripped and inner whitespace becomes `_` (labels are one token).
  * derived words (CTM given without a word CTM): a word runs from a `_B`/`_S` phone to the
    next `_E`/`_S` phone; its label is the phone string joined by `+` (e.g. `k+ae+t`).

Checks (strict: the first problem is an InputError naming file and line; nothing is written):
  negative, NaN, zero-length or reversed intervals; intervals out of time order within a file
  (unless `sort`); overlapping intervals; words in a file without phones; word edges farther
  than `boundary_tolerance` from every phone edge. A word edge within the tolerance but not
  equal to a phone edge is kept as given (TDEv2 compares boundaries with exact float equality,
  so `snap_words` moves it onto the phone edge when asked).

Silence filling (`fill_gaps`, default true): every gap between consecutive phones of a file,
and the stretch from 0 to the first phone when it starts after 0, becomes a `sil_label`
interval; nothing is added after the last phone (its end is the file's reco2dur). TDEv2 (the
ZR2017 reference) needs silences to be labelled; `fill_gaps=False` keeps gaps as gaps, which is
what the 2015/2017 tools saw on SIL-less files. `drop_silence` first removes every silence phone
of the input (so, with `fill_gaps`, each pause becomes exactly one SIL interval).

Output (write_data_dir): all files are written into a temp dir beside the data dir, which is
then renamed into place (or, if the data dir exists, each file replaces its old version; other
files there are left alone). An output path that is one of the inputs is refused.

Speakers: `utt2spk` file > TextGrid tier speaker > rule. Rules: `auto` (default: the part of
the file id before its first `-`, else the whole id: the Kaldi convention that the speaker is a
`-`-separated prefix; `_` is not used because corpus ids such as `nchlt_tso_001m_0007` would all
collapse to one speaker), `whole`, `prefix:N`, `field:SEP:K` (K-th field, 1-based).
"""
from __future__ import annotations

import math
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np

from termeval.errors import InputError
from termeval.textio import atomic_write, file_mode, fmt_time

DEFAULT_SILENCE_LABELS = ("SIL", "sil", "sp", "NSN")
DATA_FILES = ("phones", "words", "utt2spk", "spk2utt", "reco2dur")
ZR_FIELDS = "'<file> <onset> <offset> <label>'"
CTM_FIELDS = "'<reco> <channel> <start> <duration> <label> [<confidence>]'"
_POS_RE = re.compile(r"_([BEIS])$")
_STRESS_RE = re.compile(r"[0-9]$")
_WS_LUT = np.zeros(256, dtype=bool)
_WS_LUT[[9, 10, 11, 12, 13, 32]] = True  # the ASCII whitespace of bytes.split()


@dataclass
class Options:
    sil_label: str = "SIL"
    silence_labels: tuple[str, ...] = DEFAULT_SILENCE_LABELS
    fill_gaps: bool = True
    drop_silence: bool = False
    sort: bool = False
    boundary_tolerance: float = 0.001
    snap_words: bool = False
    time_decimals: int = 6
    strip_stress: bool = False
    strip_position: bool = True


# --------------------------------------------------------------------------------------------
# Interval tables


@dataclass
class Intervals:
    """Intervals of one tier. Interval i: file `files[file[i]]`, label `labels[label[i]]`,
    read from `paths[src[i]]` line `line[i]` (0 when unknown)."""
    files: list[str]
    file: np.ndarray
    onset: np.ndarray
    offset: np.ndarray
    labels: list[str]
    label: np.ndarray
    line: np.ndarray
    src: np.ndarray
    paths: list[str]
    pos: np.ndarray | None = None  # CTM phones: position suffix 0 none, 1 B, 2 I, 3 E, 4 S

    def __len__(self) -> int:
        return len(self.onset)

    def error(self, i: int, message: str) -> InputError:
        line = int(self.line[i]) if len(self.line) else 0
        path = self.paths[int(self.src[i])] if len(self.src) and self.src[i] >= 0 else None
        return InputError(message, path, line or None)

    def where(self, i: int) -> str:
        """'path:line' of interval i, for messages that mention a second interval."""
        e = self.error(i, "")
        return (f"{e.path}:{e.line}" if e.line else f"{e.path}") if e.path else "(filled)"

    def take(self, idx: np.ndarray) -> "Intervals":
        return Intervals(self.files, self.file[idx], self.onset[idx], self.offset[idx], self.labels,
                         self.label[idx], self.line[idx], self.src[idx], self.paths,
                         None if self.pos is None else self.pos[idx])

    def with_files(self, files: list[str], file: np.ndarray) -> "Intervals":
        return Intervals(files, file, self.onset, self.offset, self.labels, self.label, self.line,
                         self.src, self.paths, self.pos)

    def file_name(self, i: int) -> str:
        return self.files[int(self.file[i])]

    def label_name(self, i: int) -> str:
        return self.labels[int(self.label[i])]


def factorize(names: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """(sorted unique names, index of each name). Fast when equal names come in runs."""
    n = len(names)
    if n == 0:
        return [], np.zeros(0, dtype=np.int64)
    arr = np.array(names, dtype=str) if not isinstance(names, np.ndarray) else names
    heads = np.concatenate(([0], np.flatnonzero(arr[1:] != arr[:-1]) + 1))
    uniq, inv = np.unique(arr[heads], return_inverse=True)
    codes = np.repeat(inv.astype(np.int64), np.diff(np.append(heads, n)))
    return [str(u) for u in uniq], codes


def _dict_codes(names: Iterable[str]) -> tuple[list[str], np.ndarray]:
    """(table in first-seen order, codes): cheap for small vocabularies such as labels."""
    table: dict[str, int] = {}
    codes = np.fromiter((table.setdefault(x, len(table)) for x in names), dtype=np.int64)
    return list(table), codes


def relabel(table: list[str], codes: np.ndarray, fn: Callable[[str], str]) -> tuple[list[str], np.ndarray]:
    """Apply fn to every entry of a code table and merge entries that became equal."""
    new = [fn(x) for x in table]
    merged, remap = _dict_codes(new)
    return merged, remap[codes] if len(codes) else codes


def make_intervals(files: Sequence[str], onset, offset, labels: Sequence[str], line, src,
                   paths: list[str]) -> Intervals:
    ftab, fcode = factorize(files)
    ltab, lcode = _dict_codes(labels)
    return Intervals(ftab, fcode, np.asarray(onset, dtype=np.float64),
                     np.asarray(offset, dtype=np.float64), ltab, lcode,
                     np.asarray(line, dtype=np.int64), np.asarray(src, dtype=np.int32), paths)


# --------------------------------------------------------------------------------------------
# Fast whitespace tokeniser for column files (zr, CTM, segments)


def read_bytes(path: str) -> bytes:
    """File content as UTF-8 bytes (BOM removed); UTF-16 and invalid UTF-8 are errors."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError("file is UTF-16; convert it to UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)", path, 1)
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"not valid UTF-8 (byte {e.start}); convert the file to UTF-8", path,
                         raw[: e.start].count(b"\n") + 1) from None
    return raw


CHUNK_BYTES = 1 << 22  # column files are tokenised 4 MB at a time: memory stays ~100 MB/GB


@dataclass
class Table:
    """Parsed columns of a whitespace-separated file. Record r (a non-blank line) comes from
    line `line[r]` (1-based) and has `nfields[r]` fields; `floats[k]` holds column k as doubles
    (NaN where a record has no field k) and `codes[k]` = (table, index) its text, factorised."""
    path: str
    line: np.ndarray
    nfields: np.ndarray
    floats_: dict[int, np.ndarray]
    codes_: dict[int, tuple[list[str], np.ndarray]]

    def __len__(self) -> int:
        return len(self.line)

    def floats(self, k: int) -> np.ndarray:
        return self.floats_[k]

    def codes(self, k: int) -> tuple[list[str], np.ndarray]:
        return self.codes_[k]

    def strings(self, k: int) -> list[str]:
        table, codes = self.codes_[k]
        return [table[c] for c in codes.tolist()]

    def token(self, r: int, k: int) -> str:
        """The original text of field k of record r (re-read: only used for messages)."""
        text = read_bytes(self.path).decode("utf-8").split("\n")[int(self.line[r]) - 1]
        return text.split()[k]


def _parse_floats(col: list[str], path: str, lines: np.ndarray, what: str) -> np.ndarray:
    try:  # numpy's string -> double conversion is correctly rounded, like float()
        return _finite(np.array(col, dtype=np.float64), col, path, lines, what)
    except ValueError:
        pass
    for r, tok in enumerate(col):
        try:
            float(tok)
        except ValueError:
            raise InputError(f"{what} '{tok}' is not a number", path, int(lines[r])) from None
    return _finite(np.array(list(map(float, col)), dtype=np.float64), col, path, lines, what)


def _finite(values: np.ndarray, col: list[str], path: str, lines: np.ndarray, what: str) -> np.ndarray:
    bad = ~np.isfinite(values)
    if bad.any():
        r = int(np.argmax(bad))
        raise InputError(f"{what} '{col[r]}' is not a finite number", path, int(lines[r]))
    return values


def read_table(path: str, allowed: Sequence[int], expected: str, floats: dict[int, str] | None = None,
               strings: Sequence[int] = (), allow_empty: bool = False) -> Table:
    """Read a column file: every non-blank line must have a number of fields in `allowed`
    (InputError naming the line otherwise). Columns in `floats` ({k: what}) are parsed as
    finite doubles, columns in `strings` are factorised. Works on 4 MB chunks of whole lines
    with str.split and numpy (no per-line regex); fields are separated by ASCII whitespace."""
    floats = floats or {}
    raw = read_bytes(path)
    allowed_arr = np.asarray(allowed)
    lines, nfs = [], []
    fparts: dict[int, list[np.ndarray]] = {k: [] for k in floats}
    tables: dict[int, dict[str, int]] = {k: {} for k in strings}
    cparts: dict[int, list[np.ndarray]] = {k: [] for k in strings}
    pos, line_base, n = 0, 0, len(raw)
    while pos < n:
        end = raw.find(b"\n", min(pos + CHUNK_BYTES, n))
        end = n if end < 0 else end + 1
        piece = raw[pos:end]
        b = np.frombuffer(piece, dtype=np.uint8)
        ws = _WS_LUT[b]
        starts = np.flatnonzero(~ws & np.concatenate(([True], ws[:-1])))
        tok_line = np.searchsorted(np.flatnonzero(b == 10), starts)  # 0-based, within the chunk
        del b, ws
        tokens = piece.decode("utf-8").split()
        if len(tokens) != len(starts):  # str.split also cut at non-ASCII whitespace: split bytes
            tokens = [t.decode("utf-8") for t in piece.split()]
        if len(tokens):
            first = np.concatenate(([0], np.flatnonzero(tok_line[1:] != tok_line[:-1]) + 1))
            nf = np.diff(np.append(first, len(tokens)))
            ln = tok_line[first] + 1 + line_base
            ok = np.isin(nf, allowed_arr)
            if not ok.all():
                r = int(np.argmin(ok))
                raise InputError(f"expected {expected}, got {int(nf[r])} fields", path, int(ln[r]))
            uniform = bool(np.all(nf == nf[0]))
            for k in list(floats) + list(strings):
                if uniform:
                    col = tokens[k::int(nf[0])] if k < nf[0] else []
                    rows = np.arange(len(first)) if k < nf[0] else np.zeros(0, np.int64)
                else:
                    rows = np.flatnonzero(nf > k)
                    col = [tokens[i] for i in (first[rows] + k).tolist()]
                if k in floats:
                    vals = np.full(len(first), np.nan)
                    vals[rows] = _parse_floats(col, path, ln[rows], floats[k])
                    fparts[k].append(vals)
                else:
                    tab = tables[k]
                    cparts[k].append(np.fromiter((tab.setdefault(x, len(tab)) for x in col),
                                                 dtype=np.int64, count=len(col)))
            lines.append(ln)
            nfs.append(nf)
        del tokens, starts, tok_line
        line_base += piece.count(b"\n")
        pos = end
    if not lines:
        if not allow_empty:
            raise InputError("empty file (no lines)", path)
        z = np.zeros(0, dtype=np.int64)
        return Table(path, z, z, {k: np.zeros(0) for k in floats}, {k: ([], z) for k in strings})
    return Table(path, np.concatenate(lines), np.concatenate(nfs),
                 {k: np.concatenate(v) for k, v in fparts.items()},
                 {k: (list(tables[k]), np.concatenate(cparts[k])) for k in strings})


def sorted_codes(table: list[str], codes: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Re-index a factorised column so that its table is sorted (C order)."""
    order = sorted(range(len(table)), key=table.__getitem__)
    rank = np.empty(len(order), dtype=np.int64)
    rank[np.array(order, dtype=np.int64)] = np.arange(len(order))
    return [table[i] for i in order], rank[codes] if len(codes) else codes


# --------------------------------------------------------------------------------------------
# Readers


def read_zr(path: str) -> Intervals:
    """A ZeroSpeech .phn or .wrd file; times are the parsed doubles, unrounded."""
    t = read_table(path, (4,), ZR_FIELDS, {1: "onset", 2: "offset"}, (0, 3))
    files, fcode = sorted_codes(*t.codes(0))
    labels, lcode = t.codes(3)
    return Intervals(files, fcode, t.floats(1), t.floats(2), labels, lcode, t.line,
                     np.zeros(len(t), dtype=np.int32), [path])


def read_symbol_table(path: str) -> dict[str, str]:
    """OpenFst symbol table (`<symbol> <int>`) as {id-text: symbol}."""
    cols = read_table(path, (2,), "'<symbol> <integer-id>'", strings=(0, 1))
    syms = cols.strings(0)
    ids = cols.strings(1)
    table: dict[str, str] = {}
    for r, (s, i) in enumerate(zip(syms, ids)):
        if not i.isdigit():
            raise InputError(f"symbol id '{i}' is not a non-negative integer", path, int(cols.line[r]))
        key = str(int(i))
        if key in table:
            raise InputError(f"duplicate symbol id {i}", path, int(cols.line[r]))
        table[key] = s
    return table


@dataclass
class Segment:
    reco: str
    start: float
    end: float
    line: int


def read_segments(path: str) -> dict[str, Segment]:
    """Kaldi `segments`: `<utt> <reco> <start> <end>` (end -1 = to the end of the recording)."""
    cols = read_table(path, (4,), "'<utt> <reco> <start> <end>'", {2: "segment start", 3: "segment end"},
                      (0, 1))
    utts, recos = cols.strings(0), cols.strings(1)
    start, end = cols.floats(2), cols.floats(3)
    out: dict[str, Segment] = {}
    for r, u in enumerate(utts):
        ln = int(cols.line[r])
        if start[r] < 0:
            raise InputError(f"negative segment start {cols.token(r, 2)}", path, ln)
        if end[r] != -1 and end[r] <= start[r]:
            raise InputError("segment end is not after its start", path, ln)
        if u in out:
            raise InputError(f"duplicate utterance id '{u}' (first on line {out[u].line})", path, ln)
        out[u] = Segment(recos[r], float(start[r]), float(end[r]), ln)
    return out


def round_times(t: np.ndarray, decimals: int) -> np.ndarray:
    """Round to `decimals` places: rint(t*10^d)/10^d is the double nearest to the decimal
    value (the division of two exact integers is correctly rounded), i.e. float('%.{d}f')."""
    scale = 10.0 ** decimals
    x = t * scale
    out = np.rint(x) / scale
    # x may itself be inexact: near a half-way point decide with Python's exact decimal rounding
    # (t * scale is off by at most half an ulp of x)
    near_tie = np.flatnonzero(np.abs(x - np.floor(x) - 0.5) <= 4 * np.spacing(np.abs(x)))
    for i in near_tie.tolist():
        out[i] = float(f"{t[i]:.{decimals}f}")
    return out


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
        if lab.isdigit() and (symbols is not None or kind == "phone"):
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
        ktab, remap = _dict_codes(reco_of)  # utterances of one recording merge
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
    mtab, remap = _dict_codes(mapped)
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
    wtab, wcode = _dict_codes(words)
    return Intervals(iv.files, iv.file[starts], iv.onset[starts], iv.offset[ends], wtab, wcode,
                     iv.line[starts], iv.src[starts], iv.paths)


# --- TextGrid ---------------------------------------------------------------------------------


class _Lines:
    """readline() over a decoded text that counts lines (the textgrid package reads with
    codecs' readline, which splits like str.splitlines)."""

    def __init__(self, text: str) -> None:
        self._lines = text.splitlines(keepends=True)
        self.nlines = len(self._lines)
        self.lineno = 0

    def readline(self) -> str:
        if self.lineno >= len(self._lines):
            self.lineno += 1
            return ""
        self.lineno += 1
        return self._lines[self.lineno - 1]


def _decode_textgrid(path: str) -> str:
    with open(path, "rb") as f:
        raw = f.read()
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16")
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\x00" in raw[:200]:
        raise InputError("looks like UTF-16 without a byte-order mark, whose byte order cannot be "
                         "detected; re-save it as UTF-8 (Praat: Text writing settings) or UTF-16 "
                         "with BOM", path, 1)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"not valid UTF-8 or UTF-16 with BOM (byte {e.start})", path,
                         raw[: e.start].count(b"\n") + 1) from None


@dataclass
class TgTier:
    name: str
    intervals: list[tuple[float, float, str, int]]  # (xmin, xmax, mark, line)


def parse_textgrid(path: str) -> list[TgTier]:
    """Interval tiers of a Praat TextGrid (long or short text format), with line numbers.

    Mirrors textgrid.TextGrid.read (textgrid 1.6.1) using the package's own parse_header,
    parse_line and _getMark, but keeps zero-length/reversed intervals (reported by the caller)
    and does not round times (read_textgrid_dir rounds like the other readers)."""
    from textgrid import textgrid as tgm
    from textgrid.exceptions import TextGridError

    src = _Lines(_decode_textgrid(path))
    rd = 17
    tiers: list[TgTier] = []
    try:
        file_type, short = tgm.parse_header(src)
        if file_type != "TextGrid":
            raise InputError(f"not a TextGrid (object class '{file_type}')", path, 2)
        first = src.readline()
        try:
            tgm.parse_line(first, short, rd)
        except Exception:
            short = True
        tgm.parse_line(first, short, rd)
        tgm.parse_line(src.readline(), short, rd)
        src.readline()
        m = int(src.readline().strip()) if short else int(src.readline().strip().split()[2])
        if not short:
            src.readline()
        for _ in range(m):
            if not short:
                src.readline()
            kind = tgm.parse_line(src.readline(), short, rd)
            name = tgm.parse_line(src.readline(), short, rd)
            tgm.parse_line(src.readline(), short, rd)
            tgm.parse_line(src.readline(), short, rd)
            n = int(tgm.parse_line(src.readline(), short, rd))
            ivs: list[tuple[float, float, str, int]] = []
            if kind == "IntervalTier":
                for _j in range(n):
                    if not short:
                        src.readline()
                    # line of 'intervals [j]:' (long format) or of xmin (short format)
                    line = src.lineno if not short else src.lineno + 1
                    jmin = tgm.parse_line(src.readline(), short, rd)
                    jmax = tgm.parse_line(src.readline(), short, rd)
                    mark = tgm._getMark(src, short)
                    ivs.append((float(jmin), float(jmax), mark, line))
                tiers.append(TgTier(str(name), ivs))
            else:  # point tier: read and ignore
                for _j in range(n):
                    if not short:
                        src.readline()
                    tgm.parse_line(src.readline(), short, rd)
                    tgm._getMark(src, short)
    except InputError:
        raise
    except (TextGridError, ValueError, AttributeError, IndexError, EOFError, TypeError) as e:
        if src.lineno > src.nlines:
            raise InputError("cannot parse TextGrid: unexpected end of file (truncated?)", path,
                             src.nlines) from None
        msg = str(e).strip().replace("\n", " ")[:80]
        raise InputError(f"cannot parse TextGrid ({type(e).__name__}{': ' + msg if msg else ''})",
                         path, src.lineno) from None
    return tiers


def _select_tier(tiers: list[TgTier], want: str, path: str) -> tuple[TgTier, str | None]:
    """The tier named `want`, or the single `<speaker> - want` tier (speaker returned)."""
    exact = [t for t in tiers if t.name == want]
    if exact:
        return exact[0], None
    suffix = " - " + want
    multi = [t for t in tiers if t.name.endswith(suffix)]
    names = ", ".join(repr(t.name) for t in tiers) or "none"
    if not multi:
        raise InputError(f"no tier '{want}' (or '<speaker> - {want}'); the interval tiers are: {names}", path)
    if len(multi) > 1:
        raise InputError(f"{len(multi)} speakers' '{want}' tiers ({names}) in one file; a data dir has one "
                         "speaker per file id: split the file per speaker", path)
    return multi[0], multi[0].name[: -len(suffix)]


def find_textgrids(directory: str) -> list[str]:
    if not os.path.isdir(directory):
        raise InputError("not a directory", directory)
    found = []
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames.sort()
        for fn in filenames:
            if fn.lower().endswith(".textgrid"):
                found.append(os.path.join(dirpath, fn))
    if not found:
        raise InputError("no *.TextGrid files under this directory", directory)
    return sorted(found)


def read_textgrid_dir(directory: str, opts: Options = Options(), words_tier: str = "words",
                      phones_tier: str = "phones") -> tuple[Intervals, Intervals, dict[str, str]]:
    """(phones, words, speaker-by-file) from every TextGrid under `directory` (recursive)."""
    paths = find_textgrids(directory)
    seen: dict[str, str] = {}
    rows: dict[str, list] = {"phones": [[], [], [], [], [], []], "words": [[], [], [], [], [], []]}
    speakers: dict[str, str] = {}
    for k, path in enumerate(paths):
        fid = os.path.basename(path).rsplit(".", 1)[0]
        if re.search(r"\s", fid):
            raise InputError("file name contains whitespace, so it cannot be a file id", path)
        if fid in seen:
            raise InputError(f"file id '{fid}' also comes from {seen[fid]}", path)
        seen[fid] = path
        tiers = parse_textgrid(path)
        for kind, want in (("phones", phones_tier), ("words", words_tier)):
            tier, spk = _select_tier(tiers, want, path)
            if spk is not None:
                spk = re.sub(r"\s+", "_", spk.strip())
                if speakers.get(fid, spk) != spk:
                    raise InputError(f"phone tier speaker '{speakers[fid]}' differs from word tier "
                                     f"speaker '{spk}'", path)
                speakers[fid] = spk
            cols = rows[kind]
            for xmin, xmax, mark, line in tier.intervals:
                if not (math.isfinite(xmin) and math.isfinite(xmax)):
                    raise InputError("time is not a finite number", path, line)
                if xmax == xmin:
                    raise InputError(f"zero-length interval at {xmin} in tier '{tier.name}' (Praat "
                                     "intervals must have xmax > xmin)", path, line)
                if xmax < xmin:
                    raise InputError(f"reversed interval {xmin}..{xmax} in tier '{tier.name}'", path, line)
                cols[0].append(fid)
                cols[1].append(xmin)
                cols[2].append(xmax)
                cols[3].append(re.sub(r"\s+", "_", mark.strip()))
                cols[4].append(line)
                cols[5].append(k)
    out = []
    for kind in ("phones", "words"):
        c = rows[kind]
        out.append(make_intervals(c[0], round_times(np.array(c[1], dtype=np.float64), opts.time_decimals),
                                  round_times(np.array(c[2], dtype=np.float64), opts.time_decimals),
                                  c[3], c[4], c[5], paths))
    return out[0], out[1], speakers


# --------------------------------------------------------------------------------------------
# Normalisation, checks, gap filling


def normalize_phone_labels(iv: Intervals, opts: Options) -> Intervals:
    sil = set(opts.silence_labels) | {""}

    def fn(lab: str) -> str:
        if lab in sil:
            return opts.sil_label
        if opts.strip_stress and len(lab) > 1:
            stripped = _STRESS_RE.sub("", lab)
            if stripped in sil:
                return opts.sil_label
            return stripped
        return lab

    iv.labels, iv.label = relabel(iv.labels, iv.label, fn)
    return iv


def drop_silent_words(iv: Intervals, opts: Options) -> Intervals:
    sil = set(opts.silence_labels) | {"", opts.sil_label}
    drop = np.array([lab in sil for lab in iv.labels], dtype=bool)
    if len(iv) and drop.any():
        return iv.take(np.flatnonzero(~drop[iv.label]))
    return iv


def check_values(iv: Intervals, what: str) -> None:
    """Negative, zero-length and reversed intervals (NaN was rejected when parsing)."""
    if not len(iv):
        return
    bad = (iv.onset < 0) | (iv.offset <= iv.onset) | ~np.isfinite(iv.onset) | ~np.isfinite(iv.offset)
    if bad.any():
        i = int(np.argmax(bad))
        a, b = iv.onset[i], iv.offset[i]
        if not (math.isfinite(a) and math.isfinite(b)):
            msg = "time is not a finite number"
        elif a < 0:
            msg = f"negative onset {fmt_time(a)}"
        elif a == b:
            msg = f"zero-length {what} interval at {fmt_time(a)}"
        else:
            msg = f"reversed {what} interval: offset {fmt_time(b)} before onset {fmt_time(a)}"
        raise iv.error(i, msg)


def order_intervals(iv: Intervals, sort: bool, what: str) -> Intervals:
    """Group by file (C order of ids) and check (or, with sort, impose) time order and no
    overlap within each file."""
    if not len(iv):
        return iv
    # file table is sorted (factorize), so codes order like the ids
    if sort:
        idx = np.lexsort((iv.offset, iv.onset, iv.file))
    else:
        idx = np.argsort(iv.file, kind="stable")
        f, on = iv.file[idx], iv.onset[idx]
        bad = (f[1:] == f[:-1]) & (on[1:] < on[:-1])
        if bad.any():
            k = int(np.argmax(bad))
            i, j = int(idx[k + 1]), int(idx[k])
            raise iv.error(i, f"{what} interval {fmt_time(iv.onset[i])}..{fmt_time(iv.offset[i])} of "
                              f"'{iv.file_name(i)}' starts before the previous one ({iv.where(j)}, onset "
                              f"{fmt_time(iv.onset[j])}): intervals must be in time order within a file "
                              "(or use --sort true)")
    out = iv.take(idx)
    same = out.file[1:] == out.file[:-1]
    ov = same & (out.onset[1:] < out.offset[:-1])
    if ov.any():
        k = int(np.argmax(ov))
        raise out.error(k + 1, f"{what} interval {fmt_time(out.onset[k + 1])}..{fmt_time(out.offset[k + 1])} "
                               f"of '{out.file_name(k + 1)}' overlaps {fmt_time(out.onset[k])}.."
                               f"{fmt_time(out.offset[k])} ({out.where(k)})")
    return out


def unify_files(phones: Intervals, words: Intervals) -> tuple[Intervals, Intervals]:
    """Re-code both tiers over one sorted file table (the phones' files); words in a file with
    no phones are an error."""
    table = phones.files
    index = {f: i for i, f in enumerate(table)}
    remap = np.array([index.get(f, -1) for f in words.files], dtype=np.int64)
    wf = remap[words.file] if len(words) else words.file
    if len(words) and np.any(wf < 0):
        i = int(np.argmax(wf < 0))
        raise words.error(i, f"word in file '{words.file_name(i)}', which has no phones")
    return phones, words.with_files(table, wf)


def sort_files_table(iv: Intervals) -> Intervals:
    """Make the file table sorted (C order) so that codes order like the ids."""
    order = sorted(range(len(iv.files)), key=iv.files.__getitem__)
    if order == list(range(len(iv.files))):
        return iv
    new_index = np.empty(len(order), dtype=np.int64)
    new_index[np.array(order, dtype=np.int64)] = np.arange(len(order))
    tab = [iv.files[i] for i in order]
    merged, remap = _dict_codes(tab)  # merge duplicates (e.g. utterances mapped to one reco)
    if len(merged) != len(tab):
        return iv.with_files(*factorize([iv.files[c] for c in iv.file.tolist()]))
    return iv.with_files(tab, new_index[iv.file])


def file_starts(file: np.ndarray, nfiles: int) -> np.ndarray:
    """starts[f]:starts[f+1] is the slice of file f in an array grouped by sorted file code."""
    return np.searchsorted(file, np.arange(nfiles + 1)).astype(np.int64)


def phone_edges(phones: Intervals) -> tuple[np.ndarray, np.ndarray]:
    """(file, time) of every phone onset and offset of sorted, non-overlapping phones: the
    interleaved sequence on0 off0 on1 off1 ... is already sorted within each file."""
    f = np.repeat(phones.file, 2)
    t = np.column_stack((phones.onset, phones.offset)).ravel()
    keep = np.concatenate(([True], (f[1:] != f[:-1]) | (t[1:] != t[:-1])))
    return f[keep], t[keep]


def nearest_edges(ef: np.ndarray, et: np.ndarray, qf: np.ndarray, qt: np.ndarray,
                  nfiles: int) -> np.ndarray:
    """For each query (qf, qt), the time of the nearest edge (ef, et) of the same file, NaN if
    the file has none. Edges are grouped by file and sorted; exact (one searchsorted per file)."""
    best = np.full(len(qt), np.nan)
    if not len(qt):
        return best
    es = file_starts(ef, nfiles)
    order = np.argsort(qf, kind="stable")
    qs = file_starts(qf[order], nfiles)
    for f in np.flatnonzero(np.diff(qs)).tolist():
        e = et[es[f]:es[f + 1]]
        if not len(e):
            continue
        qi = order[qs[f]:qs[f + 1]]
        q = qt[qi]
        k = np.searchsorted(e, q)
        lo = e[np.maximum(k - 1, 0)]
        hi = e[np.minimum(k, len(e) - 1)]
        best[qi] = np.where(np.abs(q - lo) <= np.abs(hi - q), lo, hi)
    return best


def check_word_edges(phones: Intervals, words: Intervals, opts: Options) -> Intervals:
    """Every word edge must be within the tolerance of a phone edge of its file."""
    if not len(words):
        return words
    ef, et = phone_edges(phones)
    nearest = {}
    first_bad = []
    for name in ("onset", "offset"):
        qt = getattr(words, name)
        near = nearest_edges(ef, et, words.file, qt, len(phones.files))
        bad = ~(np.abs(near - qt) <= opts.boundary_tolerance)  # NaN (no edge) is bad too
        nearest[name] = near
        if bad.any():
            first_bad.append((int(np.argmax(bad)), name == "offset", name))
    if first_bad:  # report the first word (in time order) with a bad edge
        i, _, name = min(first_bad)
        qt, near = getattr(words, name), nearest[name]
        where = "no phone edge in its file" if np.isnan(near[i]) else \
            f"the nearest phone edge is {fmt_time(near[i])}"
        raise words.error(i, f"word '{words.label_name(i)}' {name} {fmt_time(qt[i])} in "
                             f"'{words.file_name(i)}' is not a phone edge ({where}; tolerance "
                             f"{opts.boundary_tolerance:g} s)")
    if opts.snap_words:
        words.onset, words.offset = nearest["onset"].copy(), nearest["offset"].copy()
        check_values(words, "word")
    return words


def fill_gaps(phones: Intervals, sil_label: str) -> Intervals:
    """Insert a silence interval into every gap between consecutive phones of a file and
    before a first phone that starts after 0 (phones are sorted and non-overlapping)."""
    n = len(phones)
    if n == 0:
        return phones
    f, on, off = phones.file, phones.onset, phones.offset
    first = np.concatenate(([True], f[1:] != f[:-1]))
    lead = first & (on > 0)
    inner = np.concatenate(([False], (~first[1:]) & (on[1:] > off[:-1])))
    gap = lead | inner
    if not gap.any():
        return phones
    pos = np.flatnonzero(gap)
    g_on = np.where(lead[pos], 0.0, off[np.maximum(pos - 1, 0)])
    labels = list(phones.labels)
    if sil_label in labels:
        sil = labels.index(sil_label)
    else:
        labels.append(sil_label)
        sil = len(labels) - 1
    return Intervals(phones.files, np.insert(f, pos, f[pos]), np.insert(on, pos, g_on),
                     np.insert(off, pos, on[pos]), labels, np.insert(phones.label, pos, sil),
                     np.insert(phones.line, pos, 0), np.insert(phones.src, pos, -1), phones.paths)


# --------------------------------------------------------------------------------------------
# Speakers


def speaker_rule(rule: str) -> Callable[[str], str]:
    """auto | whole | prefix:N | field:SEP:K (see the module docstring)."""
    if rule == "auto":
        return lambda f: f.split("-", 1)[0] or f
    if rule == "whole":
        return lambda f: f
    if rule.startswith("prefix:"):
        try:
            n = int(rule[7:])
            assert n > 0
        except (ValueError, AssertionError):
            raise InputError(f"bad --spk-rule '{rule}': expected prefix:N with N > 0") from None
        return lambda f: f[:n]
    if rule.startswith("field:"):
        parts = rule.split(":")
        try:
            assert len(parts) == 3 and parts[1]
            sep, k = parts[1], int(parts[2])
            assert k > 0
        except (ValueError, AssertionError):
            raise InputError(f"bad --spk-rule '{rule}': expected field:SEP:K (K >= 1), e.g. field:_:3") from None

        def get(f: str) -> str:
            fields = f.split(sep)
            return fields[k - 1] if len(fields) >= k and fields[k - 1] else f
        return get
    raise InputError(f"unknown --spk-rule '{rule}' (auto, whole, prefix:N, field:SEP:K)")


def read_utt2spk(path: str) -> dict[str, tuple[str, int]]:
    cols = read_table(path, (2,), "'<file> <speaker>'", strings=(0, 1))
    out: dict[str, tuple[str, int]] = {}
    for r, (u, s) in enumerate(zip(cols.strings(0), cols.strings(1))):
        if u in out:
            raise InputError(f"duplicate file id '{u}' (first on line {out[u][1]})", path, int(cols.line[r]))
        out[u] = (s, int(cols.line[r]))
    return out


def assign_speakers(files: list[str], utt2spk: str | None, known: dict[str, str] | None,
                    rule: str) -> list[str]:
    if utt2spk:
        table = read_utt2spk(utt2spk)
        missing = [f for f in files if f not in table]
        if missing:
            raise InputError(f"{len(missing)} file id(s) have no speaker, e.g. '{missing[0]}'", utt2spk)
        return [table[f][0] for f in files]
    fn = speaker_rule(rule)
    known = known or {}
    spk = [known.get(f) or fn(f) for f in files]
    for f, s in zip(files, spk):
        if not s or re.search(r"\s", s):
            raise InputError(f"speaker '{s}' of file '{f}' is empty or contains whitespace; check --spk-rule")
    return spk


# --------------------------------------------------------------------------------------------
# Whole preparation and output


@dataclass
class PreparedGold:
    files: list[str]
    phones: Intervals
    words: Intervals
    speakers: list[str]
    duration: np.ndarray
    notes: list[str] = field(default_factory=list)


def prepare(phones: Intervals, words: Intervals | None, opts: Options,
            speakers_known: dict[str, str] | None = None, utt2spk: str | None = None,
            spk_rule: str = "auto") -> PreparedGold:
    """Validate, normalise and fill; returns the sorted tables of the data dir. With
    words=None, words are derived from the position suffixes of the phones (CTM)."""
    if not len(phones):
        raise InputError("no phone intervals", phones.paths[0] if phones.paths else None)
    phones = normalize_phone_labels(phones, opts)
    check_values(phones, "phone")
    phones = sort_files_table(phones)
    if words is None:  # before silence is dropped: SIL phones end words in progress
        words = derive_words(order_intervals(phones, opts.sort, "phone"))
    words = drop_silent_words(words, opts)
    check_values(words, "word")
    if opts.drop_silence:
        sil = phones.labels.index(opts.sil_label) if opts.sil_label in phones.labels else -1
        phones = phones.take(np.flatnonzero(phones.label != sil))
        if not len(phones):
            raise InputError("no phone intervals besides silence", phones.paths[0] if phones.paths else None)
        phones = phones.with_files(*factorize([phones.files[c] for c in phones.file.tolist()]))
    phones = order_intervals(phones, opts.sort, "phone")
    phones, words = unify_files(phones, words)
    words = order_intervals(words, opts.sort, "word")
    if not len(words):
        raise InputError("no word intervals (besides silence)", words.paths[0] if words.paths else None)
    words = check_word_edges(phones, words, opts)
    if opts.snap_words:
        words = order_intervals(words, False, "word")
    if opts.fill_gaps:
        phones = fill_gaps(phones, opts.sil_label)
    last = np.flatnonzero(np.concatenate((phones.file[1:] != phones.file[:-1], [True])))
    duration = phones.offset[last]
    speakers = assign_speakers(phones.files, utt2spk, speakers_known, spk_rule)
    return PreparedGold(phones.files, phones, words, speakers, duration)


def format_times(values: np.ndarray) -> np.ndarray:
    """fmt_time of many doubles, as an object array. repr() is already the shortest round-trip
    text except for integers ('25.0' -> '25') and exponent forms, which go through fmt_time."""
    out = np.array(list(map(repr, values.tolist())), dtype=object)
    a = np.abs(values)
    odd = np.flatnonzero((values == np.floor(values)) | ((a < 1e-4) & (a > 0)) | (a >= 1e16))
    for j in odd.tolist():
        out[j] = fmt_time(values[j])
    return out


def format_tier(iv: Intervals, chunk: int = 200_000) -> Iterator[str]:
    """The 4-column lines of a sorted tier, `chunk` lines at a time (bounded memory). Offsets
    equal to the next onset of the same file (most of them) reuse its text."""
    n = len(iv)
    files_tab = np.array(iv.files, dtype=object)
    labels_tab = np.array(iv.labels, dtype=object)
    for a in range(0, n, chunk):
        b = min(a + chunk, n)
        on = format_times(iv.onset[a:b])
        off = np.empty(b - a, dtype=object)
        nxt = iv.onset[a + 1:b + 1] if b < n else np.append(iv.onset[a + 1:b], np.nan)
        nfile = iv.file[a + 1:b + 1] if b < n else np.append(iv.file[a + 1:b], -1)
        shared = (nfile == iv.file[a:b]) & (iv.offset[a:b] == nxt)
        shared[-1] = False  # its text is in the next chunk
        off[shared] = on[1:][shared[:-1]]
        rest = np.flatnonzero(~shared)
        off[rest] = format_times(iv.offset[a:b][rest])
        yield "\n".join(map(" ".join, zip(files_tab[iv.file[a:b]], on, off, labels_tab[iv.label[a:b]]))) + "\n"


def data_dir_texts(prep: PreparedGold) -> dict[str, Iterable[str]]:
    """The content of each file of the data dir, as text chunks."""
    spk2utt: dict[str, list[str]] = {}
    for f, s in zip(prep.files, prep.speakers):
        spk2utt.setdefault(s, []).append(f)
    return {
        "phones": format_tier(prep.phones),
        "words": format_tier(prep.words),
        "utt2spk": [f"{f} {s}\n" for f, s in zip(prep.files, prep.speakers)],
        "spk2utt": [f"{s} {' '.join(sorted(us))}\n" for s, us in sorted(spk2utt.items())],
        "reco2dur": [f"{f} {t}\n" for f, t in zip(prep.files, format_times(prep.duration).tolist())],
    }


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def write_data_dir(texts: dict[str, Iterable[str]], data_dir: str, inputs: Sequence[str] = ()) -> None:
    """Write all files into a temp dir beside `data_dir`, then move them into place: a new dir is
    renamed in one step; in an existing dir each file is replaced atomically. Refuses to
    overwrite an input file."""
    if os.path.exists(data_dir) and not os.path.isdir(data_dir):
        raise InputError("output data dir exists and is not a directory", data_dir)
    for name in texts:
        target = os.path.join(data_dir, name)
        for inp in inputs:
            if inp and _same_file(target, inp):
                raise InputError(f"output file would overwrite the input {inp}", target)
            if inp and os.path.isdir(inp) and _same_file(data_dir, inp):
                raise InputError(f"output data dir is the input directory {inp}; choose another", data_dir)
    parent = os.path.dirname(os.path.abspath(data_dir))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="." + os.path.basename(os.path.abspath(data_dir)) + ".", suffix=".tmp",
                           dir=parent)
    try:
        mode = file_mode()  # mkstemp files are 0600; data dirs are shared like any other
        for name, chunks in texts.items():
            target = os.path.join(tmp, name)
            with atomic_write(target) as f:
                for text in chunks:
                    f.write(text)
            os.chmod(target, mode)
        if not os.path.isdir(data_dir):
            os.chmod(tmp, file_mode(directory=True))
            os.rename(tmp, data_dir)
            return
        for name in texts:
            os.replace(os.path.join(tmp, name), os.path.join(data_dir, name))
        os.rmdir(tmp)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def prepare_zr(phn: str, wrd: str, data_dir: str, opts: Options = Options(), spk_rule: str = "auto",
               utt2spk: str | None = None) -> PreparedGold:
    """`steps/prepare_gold.sh --format zr` as one call: read, check, prepare and write the data dir."""
    prep = prepare(read_zr(phn), read_zr(wrd), opts, None, utt2spk, spk_rule)
    write_data_dir(data_dir_texts(prep), data_dir, [phn, wrd] + ([utt2spk] if utt2spk else []))
    return prep


def summary(prep: PreparedGold, opts: Options) -> str:
    sil = prep.phones.labels.index(opts.sil_label) if opts.sil_label in prep.phones.labels else -1
    nsil = int(np.count_nonzero(prep.phones.label == sil))
    return (f"{len(prep.files)} files, {len(set(prep.speakers))} speakers, {len(prep.phones)} phones "
            f"({nsil} {opts.sil_label}), {len(prep.words)} words, "
            f"{float(prep.duration.sum()) / 3600:.2f} h")


# --------------------------------------------------------------------------------------------
# Validation of a prepared data dir (utils/validate_alignment_dir.sh)


def _check_prepared_bytes(path: str) -> bytes:
    """Whole-file checks of a prepared text file: non-empty, final newline, no CR, no tab, no
    blank line, single spaces only, UTF-8 (line numbers computed only on error)."""
    with open(path, "rb") as f:
        raw = f.read()
    if not raw:
        raise InputError("empty file", path)
    for bad, what in ((b"\r", "carriage return (CRLF line ends)"), (b"\t", "tab"),
                      (b"\n\n", "blank line"), (b"  ", "repeated space"), (b"\n ", "leading space"),
                      (b" \n", "trailing space")):
        k = raw.find(bad)
        if k >= 0:
            line = raw[:k].count(b"\n") + 1 + (1 if bad in (b"\n\n", b"\n ") else 0)
            raise InputError(what, path, line)
    if raw.startswith((b" ", b"\n")):
        raise InputError("leading space or blank line", path, 1)
    if not raw.endswith(b"\n"):
        raise InputError("no newline at the end of the file", path, raw.count(b"\n") + 1)
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError("not valid UTF-8", path, raw[: e.start].count(b"\n") + 1) from None
    return raw


def _read_prepared_lines(path: str) -> list[str]:
    return _check_prepared_bytes(path).decode("utf-8")[:-1].split("\n")


def _read_key_lines(path: str, min_fields: int, max_fields: int | None) -> list[list[str]]:
    rows = []
    prev = None
    for n, line in enumerate(_read_prepared_lines(path), 1):
        fields = line.split(" ")
        if len(fields) < min_fields or (max_fields and len(fields) > max_fields):
            want = f"{min_fields}" if min_fields == max_fields else f"at least {min_fields}"
            raise InputError(f"expected {want} fields, got {len(fields)}", path, n)
        if prev is not None and not fields[0] > prev:
            raise InputError(f"key '{fields[0]}' is not after '{prev}': not sorted (C locale) or not unique",
                             path, n)
        prev = fields[0]
        rows.append(fields)
    return rows


def validate_data_dir(data_dir: str, boundary_tolerance: float = 0.001, sil_label: str = "SIL") -> str:
    """Check a prepared gold data dir like Kaldi's utils/validate_alignment_dir.sh; returns a summary."""
    if not os.path.isdir(data_dir):
        raise InputError("no such directory", data_dir)
    for name in DATA_FILES:
        if not os.path.isfile(os.path.join(data_dir, name)):
            raise InputError(f"missing file {name}", data_dir)
    p = {name: os.path.join(data_dir, name) for name in DATA_FILES}
    utt2spk = _read_key_lines(p["utt2spk"], 2, 2)
    spk2utt = _read_key_lines(p["spk2utt"], 2, None)
    reco2dur = _read_key_lines(p["reco2dur"], 2, 2)
    inverse: dict[str, list[str]] = {}
    for u, s in utt2spk:
        inverse.setdefault(s, []).append(u)
    for n, fields in enumerate(spk2utt, 1):
        if fields[1:] != sorted(set(fields[1:])):
            raise InputError("file ids of the speaker are not sorted and unique", p["spk2utt"], n)
        if inverse.get(fields[0]) != fields[1:]:
            raise InputError(f"speaker '{fields[0]}' does not list the same files as utt2spk", p["spk2utt"], n)
    if len(spk2utt) != len(inverse):
        raise InputError(f"{len(inverse)} speakers in utt2spk but {len(spk2utt)} in spk2utt", p["spk2utt"])
    files = [r[0] for r in reco2dur]
    if files != [r[0] for r in utt2spk]:
        raise InputError("reco2dur and utt2spk do not list the same file ids", p["reco2dur"])
    index = {f: i for i, f in enumerate(files)}
    dur = np.empty(len(files))
    for n, (f, d) in enumerate(reco2dur, 1):
        try:
            dur[n - 1] = float(d)
        except ValueError:
            raise InputError(f"duration '{d}' is not a number", p["reco2dur"], n) from None
        if not (math.isfinite(dur[n - 1]) and dur[n - 1] > 0):
            raise InputError(f"duration '{d}' is not a positive number", p["reco2dur"], n)
    tiers = {}
    for name in ("phones", "words"):
        _check_prepared_bytes(p[name])
        iv = read_zr(p[name])
        unknown = [f for f in iv.files if f not in index]
        if unknown:
            i = int(np.argmax(np.array([iv.files[c] in unknown[:1] for c in iv.file.tolist()])))
            raise iv.error(i, f"file '{unknown[0]}' is not in reco2dur")
        remap = np.array([index[f] for f in iv.files], dtype=np.int64)
        fc = remap[iv.file]
        iv = Intervals(files, fc, iv.onset, iv.offset, iv.labels, iv.label, iv.line, iv.src, iv.paths)
        check_values(iv, name[:-1])
        bad = (fc[1:] < fc[:-1]) | ((fc[1:] == fc[:-1]) & (iv.onset[1:] <= iv.onset[:-1]))
        if bad.any():
            raise iv.error(int(np.argmax(bad)) + 1, "not sorted by file (C locale) then onset")
        ov = (fc[1:] == fc[:-1]) & (iv.onset[1:] < iv.offset[:-1])
        if ov.any():
            raise iv.error(int(np.argmax(ov)) + 1, "overlaps the previous interval")
        tiers[name] = iv
    ph, wd = tiers["phones"], tiers["words"]
    has = np.zeros(len(files), dtype=bool)
    has[ph.file] = True
    if not has.all():
        f = files[int(np.argmin(has))]
        raise InputError(f"file '{f}' has no phones", p["reco2dur"], int(np.argmin(has)) + 1)
    last = np.flatnonzero(np.concatenate((ph.file[1:] != ph.file[:-1], [True])))
    mism = ph.offset[last] != dur
    if mism.any():
        k = int(np.argmax(mism))
        raise InputError(f"duration of '{files[k]}' is {fmt_time(dur[k])} but its last phone ends at "
                         f"{fmt_time(ph.offset[last[k]])}", p["reco2dur"], k + 1)
    if sil_label in wd.labels:
        i = int(np.argmax(wd.label == wd.labels.index(sil_label)))
        raise wd.error(i, f"silence label '{sil_label}' in words (silence is not a word)")
    check_word_edges(ph, wd, Options(boundary_tolerance=boundary_tolerance))
    return (f"{len(files)} files, {len(spk2utt)} speakers, {len(ph)} phones, {len(wd)} words")


# --------------------------------------------------------------------------------------------
# Export back to ZeroSpeech files


def export_zr(data_dir: str, out_phn: str, out_wrd: str, drop_sil: bool = False,
              sil_label: str = "SIL") -> tuple[int, int]:
    """Write phones/words of a prepared data dir as .phn/.wrd (optionally without silence)."""
    counts = []
    for name, out in (("phones", out_phn), ("words", out_wrd)):
        src = os.path.join(data_dir, name)
        if not os.path.isfile(src):
            raise InputError(f"missing {name}: not a prepared gold data dir", src)
        if _same_file(src, out):
            raise InputError("output would overwrite the data dir file", out)
        raw = _check_prepared_bytes(src)
        if drop_sil and name == "phones":
            tail = (" " + sil_label).encode("utf-8")
            raw = b"".join(ln + b"\n" for ln in raw[:-1].split(b"\n") if not ln.endswith(tail))
        with atomic_write(out, "wb") as f:
            f.write(raw)
        os.chmod(out, file_mode())
        counts.append(raw.count(b"\n"))
    return counts[0], counts[1]
