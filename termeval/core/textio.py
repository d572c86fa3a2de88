"""Kaldi-style text archives: key-first lines, UTF-8, C-locale sorted, final newline.

All writes go through `atomic_write`: the content is written to a temporary file in the
target directory and renamed over the target, so a failed run never leaves a half-written
file. kaldiio is not used for text (its text mode mangles int vectors and symbol archives).
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

import numpy as np

from termeval.core import publish, textfast
from termeval.core.publish import file_mode  # noqa: F401  (steps import it from here)
from termeval.core.errors import InputError


# the one publish (termeval/core/publish.py): a temporary sibling renamed into place
atomic_write = publish.atomic_file


def write_text(path: str, text: str) -> None:
    with atomic_write(path) as f:
        f.write(text)


def read_bytes(path: str) -> bytes:
    """File content as UTF-8 bytes (BOM removed); UTF-16, invalid UTF-8 and NUL bytes (a
    binary file, or text that would be cut at the NUL by C tools) are errors naming the line."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError("file is UTF-16; convert it to UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)", path, 1)
    try:
        if not raw.isascii():      # ASCII is UTF-8: no decoded copy of a big file just to check
            raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"not valid UTF-8 (byte {e.start}); convert the file to UTF-8", path,
                         raw[: e.start].count(b"\n") + 1) from None
    nul = raw.find(b"\0")
    if nul >= 0:
        raise InputError("NUL byte in the text (a binary file?)", path, raw[:nul].count(b"\n") + 1)
    return raw


def _check_piece(piece: bytes, path: str, line_base: int) -> None:
    """read_bytes' checks on whole lines of a file (line_base lines before them)."""
    try:
        if not piece.isascii():
            piece.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"not valid UTF-8 (byte {e.start}); convert the file to UTF-8", path,
                         line_base + piece[: e.start].count(b"\n") + 1) from None
    nul = piece.find(b"\0")
    if nul >= 0:
        raise InputError("NUL byte in the text (a binary file?)", path, line_base + piece[:nul].count(b"\n") + 1)


def iter_byte_chunks(path: str, size: int | None = None) -> Iterator[tuple[bytes, int]]:
    """The file as pieces of whole lines (about `size` bytes, default CHUNK_BYTES), each with the
    number of lines before it, checked as read_bytes checks a whole file (BOM removed; UTF-16,
    invalid UTF-8 and NUL bytes are errors naming the line) without holding the file whole.
    Pieces end at a newline, so no UTF-8 sequence is cut."""
    size = size or CHUNK_BYTES
    line_base, rest, first = 0, b"", True
    with open(path, "rb") as f:
        while True:
            block = f.read(size)
            data = rest + block if rest else block
            if first and (len(data) >= 3 or not block):
                first = False
                if data.startswith(b"\xef\xbb\xbf"):
                    data = data[3:]
                if data.startswith((b"\xff\xfe", b"\xfe\xff")):
                    raise InputError("file is UTF-16; convert it to UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)", path, 1)
            if block:
                cut = data.rfind(b"\n") + 1
                if cut == 0:            # no end of line yet: read on
                    rest = data
                    continue
                piece, rest = data[:cut], data[cut:]
            else:
                piece, rest = data, b""
            if piece:
                _check_piece(piece, path, line_base)
                yield piece, line_base
                line_base += piece.count(b"\n")
            if not block:
                return


def read_text(path: str) -> str:
    """Whole file as text; UTF-8 (a BOM is removed); clear error for other encodings."""
    return read_bytes(path).decode("utf-8")


def iter_lines(path: str) -> Iterator[tuple[int, str]]:
    """(line number, line without its end-of-line characters), CRLF tolerated."""
    for i, line in enumerate(read_text(path).split("\n"), 1):
        if line.endswith("\r"):
            line = line[:-1]
        yield i, line


def fmt_time(t: float) -> str:
    """Shortest text that reads back as exactly the same double (repr), never '1e-05'."""
    s = repr(float(t))
    if "e" in s or "E" in s:
        s = format(float(t), ".17f").rstrip("0").rstrip(".")
        if float(s) != float(t):  # pragma: no cover - doubles with > 17 fraction digits
            s = repr(float(t))
    if s.endswith(".0"):
        s = s[:-2]
    return s


def fast_fmt_times(values: np.ndarray) -> list[str]:
    """fmt_time over an array; repr is already the shortest round-trip text."""
    out = []
    for x in values.tolist():
        r = repr(x)
        if "e" in r or "n" in r:
            r = fmt_time(x)
        elif r.endswith(".0"):
            r = r[:-2]
        out.append(r)
    return out


def parse_float(text: str, path: str, line: int, what: str = "time") -> float:
    """Float from text; NaN/inf and garbage are input errors naming file and line."""
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{what} '{text}' is not a number", path, line) from None
    if not math.isfinite(value):
        raise InputError(f"{what} '{text}' is not a finite number", path, line)
    return value


def write_archive(path: str, rows: Iterable[Sequence[str]], sort: bool = True) -> None:
    """Write `key field ...` lines; sorted by key (C order, stable) unless sort=False."""
    rows = list(rows)
    if sort:
        rows.sort(key=lambda r: r[0])
    with atomic_write(path) as f:
        for r in rows:
            f.write(" ".join(r) + "\n")


def read_archive(path: str, min_fields: int = 2) -> list[tuple[int, list[str]]]:
    """(line number, fields) for each non-empty line; fewer than min_fields is an error."""
    out = []
    for i, line in iter_lines(path):
        fields = line.split()
        if not fields:
            continue
        if len(fields) < min_fields:
            raise InputError(f"expected at least {min_fields} fields, got {len(fields)}", path, i)
        out.append((i, fields))
    return out


def read_map(path: str) -> dict[str, str]:
    """A `key value` archive as a dict (value = rest of the line); duplicate keys are errors."""
    out: dict[str, str] = {}
    for i, line in iter_lines(path):
        parts = line.split(None, 1)
        if not parts:
            continue
        if len(parts) < 2:
            raise InputError("expected '<key> <value>'", path, i)
        if parts[0] in out:
            raise InputError(f"duplicate key '{parts[0]}'", path, i)
        out[parts[0]] = parts[1].strip()
    return out


# --------------------------------------------------------------------------------------------
# Fast whitespace tokeniser for column files (zr, CTM, segments, symbol tables)

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
        line = read_bytes(self.path).split(b"\n")[int(self.line[r]) - 1]
        return line.split()[k].decode("utf-8")   # ASCII whitespace, as the tokeniser split it


def parse_floats(col: list[str], path: str, lines: np.ndarray, what: str) -> np.ndarray:
    """Finite doubles of a column of tokens (line numbers for the message of the first bad one)."""
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
    finite doubles, columns in `strings` are factorised (codes in first-seen order). Works on
    4 MB chunks of whole lines with numpy (no per-line regex); fields are separated by ASCII
    whitespace. A chunk is parsed on its bytes (textfast) when it can be, else with str.split
    (that path gives the error messages); both give the same values."""
    floats = floats or {}
    allowed_arr = np.asarray(allowed)
    tables: dict[int, dict[str, int]] = {k: {} for k in strings}
    factorisers = {k: textfast.Factoriser(tables[k]) for k in strings}
    cols: dict[object, textfast.Column] = {}
    for piece, line_base in iter_byte_chunks(path):   # the file is never held whole
        b = np.frombuffer(piece, dtype=np.uint8)
        starts, ends = textfast.token_bounds(b)
        if not len(starts):
            continue
        first, ln = textfast.line_heads(b, starts)
        ln += line_base
        nf = np.diff(np.append(first, len(starts)))
        ok = np.isin(nf, allowed_arr)
        if not ok.all():
            r = int(np.argmin(ok))
            raise InputError(f"expected {expected}, got {int(nf[r])} fields", path, int(ln[r]))
        parts = None
        if FAST_COLUMNS and textfast.plain_chunk(piece):
            parts = _chunk_columns_fast(piece, b, starts, ends, first, nf, floats, factorisers)
        del b, ends
        if parts is None:
            parts = _chunk_columns(piece, starts, first, nf, ln, floats, tables, path)
        parts.update(line=ln, nf=nf)
        if not cols:   # rows guessed from this chunk's bytes per line, with a margin
            guess = int(os.path.getsize(path) / len(piece) * len(first) * 1.1) + 16
            cols = {k: textfast.Column(np.float64 if k in floats else np.int64, guess) for k in parts}
        for k, v in parts.items():
            cols[k].add(v)
        del starts, parts
    if not cols:
        if not allow_empty:
            raise InputError("empty file (no lines)", path)
        z = np.zeros(0, dtype=np.int64)
        return Table(path, z, z, {k: np.zeros(0) for k in floats}, {k: ([], z) for k in strings})
    return Table(path, cols["line"].done(), cols["nf"].done(), {k: cols[k].done() for k in floats},
                 {k: (list(tables[k]), cols[k].done()) for k in strings})


FAST_COLUMNS = True   # textfast on chunks that allow it (False: the str.split path, for checks)


def _column_rows(first: np.ndarray, nf: np.ndarray, k: int) -> np.ndarray:
    """Records that have a field k."""
    return np.arange(len(first)) if bool(np.all(nf > k)) else np.flatnonzero(nf > k)


def _chunk_columns_fast(piece: bytes, b: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                        first: np.ndarray, nf: np.ndarray, floats: dict[int, str],
                        factorisers: dict[int, textfast.Factoriser]) -> dict[int, np.ndarray] | None:
    """The chunk's columns parsed on its bytes; None when the str.split path must do it."""
    out: dict[int, np.ndarray] = {}
    for k in floats:               # first: a float the fast path cannot parse sends the chunk
        rows = _column_rows(first, nf, k)          # to the slow path before any table grows
        tok = first[rows] + k
        values = textfast.parse_floats(b, starts[tok], ends[tok])
        if values is None:
            return None
        out[k] = np.full(len(first), np.nan)
        out[k][rows] = values
    for k, factorise in factorisers.items():
        tok = first[_column_rows(first, nf, k)] + k
        codes = factorise(piece, b, starts[tok], ends[tok])
        if codes is None:          # the slow path adds the same texts in the same order
            return None
        out[k] = codes
    return out


def _chunk_columns(piece: bytes, starts: np.ndarray, first: np.ndarray, nf: np.ndarray, ln: np.ndarray,
                   floats: dict[int, str], tables: dict[int, dict[str, int]], path: str) -> dict[int, np.ndarray]:
    """The chunk's columns from str.split tokens (bytes.split where str.split cuts elsewhere)."""
    tokens = piece.decode("utf-8").split()
    if len(tokens) != len(starts):  # str.split also cut at non-ASCII whitespace: split bytes
        tokens = [t.decode("utf-8") for t in piece.split()]
    out: dict[int, np.ndarray] = {}
    uniform = bool(np.all(nf == nf[0]))
    for k in list(floats) + list(tables):
        if uniform:
            col = tokens[k::int(nf[0])] if k < nf[0] else []
            rows = np.arange(len(first)) if k < nf[0] else np.zeros(0, np.int64)
        else:
            rows = np.flatnonzero(nf > k)
            col = [tokens[i] for i in (first[rows] + k).tolist()]
        if k in floats:
            vals = np.full(len(first), np.nan)
            vals[rows] = parse_floats(col, path, ln[rows], floats[k])
            out[k] = vals
        else:
            tab = tables[k]
            out[k] = np.fromiter((tab.setdefault(x, len(tab)) for x in col), dtype=np.int64, count=len(col))
    return out
