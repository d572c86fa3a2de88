"""Kaldi-style text archives: key-first lines, UTF-8, C-locale sorted, final newline.

All writes go through `atomic_write`: the content is written to a temporary file in the
target directory and renamed over the target, so a failed run never leaves a half-written
file. kaldiio is not used for text (its text mode mangles int vectors and symbol archives).
"""
from __future__ import annotations

import contextlib
import math
import os
import tempfile
from typing import IO, Iterable, Iterator, Sequence

from termeval.errors import InputError



def file_mode(directory: bool = False) -> int:
    """Permissions a normally created file (or directory) gets under the current umask."""
    mask = os.umask(0)
    os.umask(mask)
    return (0o777 if directory else 0o666) & ~mask


@contextlib.contextmanager
def atomic_write(path: str, mode: str = "w") -> Iterator[IO]:
    """Open a temp file next to `path`; rename it to `path` only if the block succeeds."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=directory)
    try:
        kwargs = {} if "b" in mode else {"encoding": "utf-8", "newline": "\n"}
        with os.fdopen(fd, mode, **kwargs) as f:
            yield f
        os.chmod(tmp, file_mode())  # mkstemp creates 0600; give the usual permissions
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text(path: str, text: str) -> None:
    with atomic_write(path) as f:
        f.write(text)


def read_text(path: str) -> str:
    """Whole file as text; UTF-8 (a BOM is removed); clear error for other encodings."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise InputError(f"not valid UTF-8 (byte {e.start}); convert the file to UTF-8", path, line) from None


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
