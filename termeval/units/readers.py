"""Unit files: one sequence of integer unit ids per utterance (or audio file), read strictly.

  jsonl   discophon's `{"file": "<id>", "units": [12, 12, 45, ...]}` lines (other keys ignored)
  text    a Kaldi text archive `<utt> u1 u2 ...` (ESPnet's k-means labels; `<utt> [ u1 ... ]`,
          kaldiio's text form, too)
  ark     a Kaldi binary archive of integer vectors (`ark:file`, `scp:file` or a binary `.ark`),
          read with kaldiio
  npy     a directory of `<utt>.npy`, each a 1-D integer array (numpy, no pickle)
  auto    a directory is npy, `ark:`/`scp:` or a `.ark` holding Kaldi's binary marker is ark,
          `*.jsonl` is jsonl, anything else text

Every problem is one InputError naming the file and line (or the utterance of a binary
archive): a duplicate utterance, an empty sequence, a value that is not an integer, a negative id.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass

import numpy as np

from termeval.core.errors import InputError

from termeval.units.options import FORMATS  # noqa: E402,F401  (declared with the options)
_INT_LINE = re.compile(r"-?\d+(?:\s+-?\d+)*")
# the usual discophon line, read without building a Python int per unit: {"file": "<id>", "units": [...]}
# with JSON integers (no leading zero, no sign: a negative id takes the json path and its error)
_PLAIN_JSONL = re.compile(rb'\{\s*"file"\s*:\s*"([^"\\\x00-\x1f]*)"\s*,\s*"units"\s*:\s*'
                          rb'\[\s*((?:0|[1-9]\d{0,8})(?:\s*,\s*(?:0|[1-9]\d{0,8}))*)\s*\]\s*\}\s*')


@dataclass
class UnitSeqs:
    """The sequences of one unit file: utterance i is values[starts[i]:starts[i+1]]."""
    keys: list[str]
    values: np.ndarray          # int64, all sequences concatenated
    starts: np.ndarray          # int64, len(keys) + 1
    lines: list[int | None]     # line of each utterance (None: a binary archive or an .npy file)
    path: str
    where: list[str] | None = None   # the file of each utterance when they are files (npy)

    def index(self) -> dict[str, int]:
        return {k: i for i, k in enumerate(self.keys)}

    def length(self) -> np.ndarray:
        return np.diff(self.starts)

    def at(self, i: int) -> tuple[str, int | None]:
        """(path, line) naming utterance i in an error."""
        if self.where is not None:
            return self.where[i], None
        return self.path, self.lines[i]


def _finish(keys: list[str], arrays: list[np.ndarray], lines: list[int | None], path: str,
            where: list[str] | None = None) -> UnitSeqs:
    if not keys:
        raise InputError("no utterance (the unit file is empty)", path)
    lengths = np.fromiter((len(a) for a in arrays), np.int64, len(arrays))
    starts = np.zeros(len(arrays) + 1, np.int64)
    np.cumsum(lengths, out=starts[1:])
    values = np.concatenate(arrays).astype(np.int64, copy=False) if arrays else np.zeros(0, np.int64)
    seqs = UnitSeqs(keys, values, starts, lines, path, where)
    neg = np.flatnonzero(values < 0)
    if len(neg):
        i = int(np.searchsorted(starts, neg[0], side="right") - 1)
        p, ln = seqs.at(i)
        raise InputError(f"utterance '{keys[i]}': negative unit id {int(values[neg[0]])}", p, ln)
    return seqs


def _check_new(key: str, seen: dict[str, int], path: str, line: int | None, what: str = "line") -> None:
    if key in seen:
        raise InputError(f"utterance '{key}' again (first at {what} {seen[key]})", path, line)
    seen[key] = line if line is not None else len(seen) + 1


def _empty(key: str, path: str, line: int | None) -> InputError:
    return InputError(f"utterance '{key}': empty unit sequence (every utterance needs at least one unit)",
                      path, line)


def read_jsonl(path: str) -> UnitSeqs:
    """discophon's predictions: `{"file": str, "units": [int, ...]}` per line; blank lines skipped."""
    keys, arrays, lines, seen = [], [], [], {}
    with open(path, "rb") as f:
        for n, raw in enumerate(f, 1):
            m = _PLAIN_JSONL.fullmatch(raw)
            if m is not None:
                key = m.group(1).decode("utf-8")
                _check_new(key, seen, path, n)
                keys.append(key)
                arrays.append(np.array(m.group(2).replace(b",", b" ").split(), dtype=np.int64))
                lines.append(n)
                continue
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
            except (ValueError, UnicodeDecodeError) as e:
                raise InputError(f"not a JSON object ({type(e).__name__}: {str(e)[:80]})", path, n) from None
            if not isinstance(obj, dict) or not isinstance(obj.get("file"), str):
                raise InputError('expected an object with a string "file" and a list "units"', path, n)
            key, units = obj["file"], obj.get("units")
            if not isinstance(units, list):
                raise InputError(f"file '{key}': \"units\" is missing or not a list", path, n)
            _check_new(key, seen, path, n)
            if not units:
                raise _empty(key, path, n)
            a = _int_array(units, key, path, n)
            keys.append(key)
            arrays.append(a)
            lines.append(n)
    return _finish(keys, arrays, lines, path)


def _int_array(units: list, key: str, path: str, line: int) -> np.ndarray:
    try:
        a = np.array(units)
    except (ValueError, OverflowError):
        a = np.array([], dtype=object)
    if a.dtype.kind not in "iu" or a.ndim != 1 or any(isinstance(u, bool) for u in units[:1]):
        bad = next((u for u in units if not (isinstance(u, int) and not isinstance(u, bool))), units[0])
        raise InputError(f"file '{key}': unit {json.dumps(bad)[:40]} is not an integer", path, line)
    if a.dtype.kind == "u" or (len(a) and int(a.max()) >= 2 ** 31):
        raise InputError(f"file '{key}': unit {int(a.max())} is beyond the 32-bit integers discophon reads",
                         path, line)
    return a.astype(np.int64, copy=False)


def read_text(path: str) -> UnitSeqs:
    """A Kaldi text archive `<utt> u1 u2 ...` (or `<utt> [ u1 ... ]`); blank lines skipped."""
    keys, arrays, lines, seen = [], [], [], {}
    with open(path, encoding="utf-8", errors="strict") as f:
        try:
            text = f.read()
        except UnicodeDecodeError as e:
            raise InputError(f"not UTF-8 text (byte {e.start}); a binary archive is read as --units-format ark",
                             path) from None
    for n, line in enumerate(text.splitlines(), 1):
        parts = line.split(None, 1)
        if not parts:
            continue
        key = parts[0]
        rest = parts[1].strip() if len(parts) > 1 else ""
        if rest.startswith("[") and rest.endswith("]"):
            rest = rest[1:-1].strip()
        _check_new(key, seen, path, n)
        if not rest:
            raise _empty(key, path, n)
        if not _INT_LINE.fullmatch(rest):
            bad = next(t for t in rest.split() if not re.fullmatch(r"-?\d+", t))
            raise InputError(f"utterance '{key}': unit '{bad}' is not an integer", path, n)
        a = np.array(rest.split(), dtype=np.int64)
        keys.append(key)
        arrays.append(a)
        lines.append(n)
    return _finish(keys, arrays, lines, path)


def read_ark(spec: str) -> UnitSeqs:
    """A Kaldi binary archive (`ark:file`, `scp:file`, or a file), through kaldiio."""
    import kaldiio   # only for binary archives (pip's kaldiio: docs/units.md)
    kind, path = ("scp", spec[4:]) if spec.startswith("scp:") else ("ark", spec[4:] if spec.startswith("ark:") else spec)
    if not os.path.isfile(path):
        raise InputError("no such file", path)
    keys, arrays, seen = [], [], {}
    try:
        items = kaldiio.load_scp_sequential(path) if kind == "scp" else kaldiio.load_ark(path)
        for key, a in items:
            n = len(keys) + 1
            _check_new(key, seen, path, None, "entry")
            a = np.asarray(a)
            if a.ndim != 1 or a.dtype.kind not in "iu":
                raise InputError(f"utterance '{key}' (entry {n}): a {a.dtype} array of shape {a.shape}, "
                                 "expected an integer vector", path)
            if not len(a):
                raise InputError(f"utterance '{key}' (entry {n}): empty unit sequence", path)
            keys.append(key)
            arrays.append(a.astype(np.int64))
    except InputError:
        raise
    except Exception as e:  # noqa: BLE001 -- kaldiio's parse errors come in many types
        raise InputError(f"not a Kaldi archive of integer vectors, entry {len(keys) + 1} "
                         f"({type(e).__name__}: {str(e)[:100]})", path) from None
    return _finish(keys, arrays, [None] * len(keys), path)


def read_npy_dir(path: str) -> UnitSeqs:
    """`<utt>.npy` files of a directory (not recursive), each a 1-D integer array."""
    names = sorted(n for n in os.listdir(path) if n.endswith(".npy") and not n.startswith("."))
    keys, arrays, where = [], [], []
    for name in names:
        p = os.path.join(path, name)
        try:
            a = np.load(p, allow_pickle=False)
        except (ValueError, OSError, EOFError) as e:
            raise InputError(f"not a plain .npy array ({str(e)[:100]})", p) from None
        if a.ndim == 2 and 1 in a.shape:
            a = a.reshape(-1)
        if a.ndim != 1 or a.dtype.kind not in "iu":
            raise InputError(f"a {a.dtype} array of shape {a.shape}, expected a 1-D integer array", p)
        if not len(a):
            raise InputError(f"utterance '{name[:-4]}': empty unit sequence", p)
        keys.append(name[:-4])
        arrays.append(a.astype(np.int64))
        where.append(p)
    if not keys:
        raise InputError("no .npy file in this directory", path)
    return _finish(keys, arrays, [None] * len(keys), path, where)


def detect(path: str) -> str:
    """The format of `auto`."""
    if os.path.isdir(path):
        return "npy"
    if path.startswith(("ark:", "scp:")):
        return "ark"
    if path.endswith(".jsonl"):
        return "jsonl"
    if path.endswith(".ark"):
        with open(path, "rb") as f:
            head = f.read(4096)
        sp = head.find(b" ")
        if sp > 0 and head[sp + 1:sp + 3] == b"\0B":
            return "ark"
    return "text"


def read_units(path: str, fmt: str = "auto") -> UnitSeqs:
    """The unit file `path` in format `fmt` (FORMATS)."""
    if fmt == "auto":
        if not path.startswith(("ark:", "scp:")) and not os.path.exists(path):
            raise InputError("no such file or directory", path)
        fmt = detect(path)
    if fmt == "npy":
        if not os.path.isdir(path):
            raise InputError("--units-format npy reads a directory of <utt>.npy files", path)
        return read_npy_dir(path)
    if fmt == "ark":
        return read_ark(path)
    if os.path.isdir(path):
        raise InputError(f"is a directory (--units-format {fmt} reads a file)", path)
    if not os.path.isfile(path):
        raise InputError("no such file", path)
    return read_jsonl(path) if fmt == "jsonl" else read_text(path)
