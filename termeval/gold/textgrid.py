"""Praat/MFA TextGrids (long and short text formats), parsed by termeval's own reader in a
loop that keeps the line number of every interval.

The reader reads what textgrid 1.6.1 (PyPI `textgrid`, MIT) reads, line for line, and fails
where it fails with the same exception and message (kept in the error line): `_header`,
`_value` and `_mark` behave as its parse_header, parse_line and _getMark. termeval used to call
those (private) functions; owning these few lines makes any textgrid release safe.
tests/gold/test_textgrid_reader.py checks the equivalence against the package."""
from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass

import numpy as np

from termeval.core.errors import InputError
from termeval.gold.intervals import Intervals, Options, make_intervals, round_times
from termeval.core.kaldi_files import Segment


class TextGridError(Exception):
    """A file without a Praat text header (the textgrid package's name for it, kept in the line)."""


_HEADER = re.compile(r'File type = "([\w ]+)"')
_LONG_TEXT = re.compile(r'.+? = "(.*)"')
_LONG_NUMBER = re.compile(r'.+? = (.*)')
_MARK_START = re.compile(r'^\s*(text|mark) = "')
_MARK_SHORT = re.compile(r'^"(.*?)"\s*$', re.DOTALL)
_MARK_LONG = re.compile(r'^\s*(text|mark) = "(.*?)"\s*$', re.DOTALL)


def _value(line: str, short: bool, digits):
    """The value of one line: a quoted text (long format: `name = "text"`) as it stands, or a
    number rounded to `digits` decimals. A line that is neither raises ValueError (not a
    number), AttributeError (long format without `=`) or TypeError (a number in the header)."""
    line = line.strip()
    if short:
        if '"' in line:
            return line[1:-1]
        return round(float(line), digits)
    if '"' in line:
        return _LONG_TEXT.match(line).groups()[0]
    return round(float(_LONG_NUMBER.match(line).groups()[0]), digits)


def _header(src) -> tuple[str, bool]:
    """(object class, short format?) from the three header lines of a Praat text file."""
    m = _HEADER.match(src.readline())
    if m is None or not m.groups()[0].startswith("ooTextFile"):
        raise TextGridError("The file could not be parsed as a Praat text file as it is lacking a proper header.")
    short = "short" in m.groups()[0]
    object_class = _value(src.readline(), short, "")
    src.readline()
    return object_class, short


def _mark(src, short: bool) -> str:
    """An interval's text or a point's mark: a quoted string over one or more lines (until its
    double quotes are even), Praat's doubled quotes read as one."""
    line = src.readline()
    if not short and not _MARK_START.match(line):
        raise ValueError("Bad entry: " + line)
    while line.count('"') % 2:
        more = src.readline()
        if not more:
            raise EOFError("Bad entry: " + line[:20] + "...")
        line += more
    return (_MARK_SHORT if short else _MARK_LONG).match(line).groups()[-1].replace('""', '"')


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
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError as e:
            raise InputError(f"not valid UTF-16 (byte {e.start})", path) from None
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

    Reads as textgrid.TextGrid.read (textgrid 1.6.1) does, but keeps zero-length/reversed
    intervals (reported by the caller) and does not round times (read_textgrid_dir rounds like
    the other readers)."""
    src = _Lines(_decode_textgrid(path))
    rd = 17
    tiers: list[TgTier] = []
    try:
        file_type, short = _header(src)
        if file_type != "TextGrid":
            raise InputError(f"not a TextGrid (object class '{file_type}')", path, 2)
        first = src.readline()
        try:
            _value(first, short, rd)
        except Exception:
            short = True
        _value(first, short, rd)
        _value(src.readline(), short, rd)
        src.readline()
        m = int(src.readline().strip()) if short else int(src.readline().strip().split()[2])
        if not short:
            src.readline()
        for _ in range(m):
            if not short:
                src.readline()
            kind = _value(src.readline(), short, rd)
            name = _value(src.readline(), short, rd)
            _value(src.readline(), short, rd)
            _value(src.readline(), short, rd)
            n = int(_value(src.readline(), short, rd))
            ivs: list[tuple[float, float, str, int]] = []
            if kind == "IntervalTier":
                for _j in range(n):
                    if not short:
                        src.readline()
                    # line of 'intervals [j]:' (long format) or of xmin (short format)
                    line = src.lineno if not short else src.lineno + 1
                    jmin = _value(src.readline(), short, rd)
                    jmax = _value(src.readline(), short, rd)
                    mark = _mark(src, short)
                    ivs.append((float(jmin), float(jmax), mark, line))
                tiers.append(TgTier(str(name), ivs))
            else:  # point tier: read and ignore
                for _j in range(n):
                    if not short:
                        src.readline()
                    _value(src.readline(), short, rd)
                    _mark(src, short)
    except InputError:
        raise
    # OverflowError: int() of an infinite count ('size = 1e400')
    except (TextGridError, ValueError, AttributeError, IndexError, EOFError, TypeError, OverflowError) as e:
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


UTTERANCE_SLACK = 0.01   # one 10 ms frame: MFA writes xmax = the audio length it read


def _utterance_place(fid: str, segments: dict[str, Segment], recos: set[str], segments_path: str | None,
                     path: str) -> tuple[str, float, float]:
    """(recording id, start, utterance length) of a TextGrid named after an utterance."""
    seg = segments.get(fid)
    if seg is None:
        if fid in recos:
            return fid, 0.0, math.inf
        raise InputError(f"TextGrid name '{fid}' is neither an utterance nor a recording of the "
                         f"segments file {segments_path}", path)
    return seg.reco, seg.start, (math.inf if seg.end == -1 else seg.end - seg.start)


def read_textgrid_dir(directory: str, opts: Options = Options(), words_tier: str = "words",
                      phones_tier: str = "phones", segments: dict[str, Segment] | None = None,
                      segments_path: str | None = None) -> tuple[Intervals, Intervals, dict[str, str]]:
    """(phones, words, speaker-by-file) from every TextGrid under `directory` (recursive).

    With `segments` (Kaldi `<utt> <reco> <start> <end>`), a TextGrid is one utterance (MFA on
    an ESPnet/Kaldi data dir): its name is the utterance id, its times are moved to recording
    time (+ start) and its intervals belong to the recording; a name that is a recording of
    the segments file is taken as recording-relative (as for CTM)."""
    paths = find_textgrids(directory)
    seen: dict[str, str] = {}
    rows: dict[str, list] = {"phones": [[], [], [], [], [], []], "words": [[], [], [], [], [], []]}
    speakers: dict[str, str] = {}
    recos = {s.reco for s in segments.values()} if segments is not None else set()
    for k, path in enumerate(paths):
        fid = os.path.basename(path).rsplit(".", 1)[0]
        if re.search(r"\s", fid):
            raise InputError("file name contains whitespace, so it cannot be a file id", path)
        if fid in seen:
            raise InputError(f"file id '{fid}' also comes from {seen[fid]}", path)
        seen[fid] = path
        tiers = parse_textgrid(path)
        shift, span = 0.0, math.inf
        if segments is not None:
            fid, shift, span = _utterance_place(fid, segments, recos, segments_path, path)
        for kind, want in (("phones", phones_tier), ("words", words_tier)):
            tier, spk = _select_tier(tiers, want, path)
            if spk is not None:
                spk = re.sub(r"\s+", "_", spk.strip())
                if speakers.get(fid, spk) != spk:
                    raise InputError(f"speaker '{spk}' of tier '{tier.name}' differs from speaker "
                                     f"'{speakers[fid]}' found before for file '{fid}'", path)
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
                if xmax > span + UTTERANCE_SLACK:
                    raise InputError(f"interval ends at {xmax} s, after the end of its utterance "
                                     f"({span:g} s long in {segments_path})", path, line)
                cols[0].append(fid)
                cols[1].append(xmin + shift)
                cols[2].append(xmax + shift)
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
