"""The syllable tier of a data dir (`steps/prepare_gold.sh --syllables <path>`): the file
`syllables`, `<file> <onset> <offset> <label>` like `words`, read from one of

  zr             a ZeroSpeech-style file `<file> <onset> <offset> <label>` (seconds, the parsed
                 doubles kept as they are, as for .phn/.wrd);
  textgrid       a directory of Praat/MFA TextGrids (file id = basename), tier `syllables`
                 (--syllables-tier), or the single `<speaker> - syllables` tier; times rounded
                 to --time-decimals like the other TextGrid tiers;
  sdhubert-json  SD-HuBERT's LibriSpeech syllable JSON (cheoljun95/sdhubert
                 files/librispeech_syllable_*.json): `{key: {"file_name": ..., "syllables":
                 [{"start", "end", "label"}, ...]}}`; the file id is the base name of
                 `file_name` without its extension (the name SD-HuBERT's segment files carry),
                 else the key; times are the JSON numbers (or numeric strings) as doubles.

`auto` (the default) takes a directory as textgrid, a `*.json` file as sdhubert-json, anything
else as zr. The rules are those of the word tier: silence labels and empty marks are not
syllables (dropped); negative, zero-length, reversed, overlapping and out-of-order intervals
are errors naming file and line (`--sort true` sorts); a syllable in a file the data dir does
not have, or ending after the file's end (reco2dur + --boundary-tolerance), is an error.
"""
from __future__ import annotations

import json
import math
import os
import re

import numpy as np

from termeval.core import jsonread
from termeval.core.errors import InputError
from termeval.core.textio import fmt_time
from termeval.gold.intervals import Intervals, Options, make_intervals, round_times
from termeval.gold.options import SYLLABLE_FORMATS  # noqa: F401  (the readers of --syllables-format)
from termeval.gold.normalize import check_values, drop_silent_words, order_intervals
from termeval.gold.textgrid import _select_tier, find_textgrids, parse_textgrid
from termeval.gold.zr import read_zr

MAX_JSON_BYTES = 1 << 31          # a syllable JSON larger than 2 GiB is refused (bounded memory)
_START_KEY = re.compile(rb'"start"\s*:')


def syllable_format(path: str, fmt: str = "auto") -> str:
    """The reader of `path` for --syllables-format `fmt` (auto: by what the path is)."""
    if fmt != "auto":
        return fmt
    if os.path.isdir(path):
        return "textgrid"
    return "sdhubert-json" if path.lower().endswith(".json") else "zr"


def _number(value: object, what: str, where: str, path: str, line: int) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InputError(f"{where}: '{what}' is not a number ({json.dumps(value)[:40]})", path, line or None)
    try:
        x = float(value)
    except ValueError:
        raise InputError(f"{where}: '{what}' is not a number ('{value}')", path, line or None) from None
    if not math.isfinite(x):
        raise InputError(f"{where}: '{what}' is not a finite number", path, line or None)
    return x


def _label(value: object, where: str, path: str, line: int) -> str:
    """A syllable's label: a JSON string (or an integer, a cluster id); null, true/false, a
    fraction, an object or a list is an error (it would become a label `None` or a repr)."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    shown = "null" if value is None else json.dumps(value)[:40] if isinstance(value, (bool, float)) else \
        ("an object" if isinstance(value, dict) else "a list")
    raise InputError(f"{where}: 'label' is {shown}, expected a string", path, line or None)


def _json_lines(raw: bytes, n: int) -> list[int]:
    """The line of each of the n syllables in document order (the line of its `"start":`), or
    zeros when the keys cannot be lined up with the syllables."""
    pos = [m.start() for m in _START_KEY.finditer(raw)]
    if len(pos) != n:
        return [0] * n
    newlines = np.flatnonzero(np.frombuffer(raw, dtype=np.uint8) == 10)
    return (np.searchsorted(newlines, np.asarray(pos, dtype=np.int64)) + 1).tolist()


def read_sdhubert_json(path: str) -> Intervals:
    """SD-HuBERT's syllable JSON (module doc) as a syllable tier."""
    if os.path.getsize(path) > MAX_JSON_BYTES:
        raise InputError(f"larger than {MAX_JSON_BYTES >> 30} GiB: not a syllable JSON", path)
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(f"not valid UTF-8 (byte {e.start})", path) from None
    doc = jsonread.loads(text, path)
    if not isinstance(doc, dict):
        raise InputError("expected a JSON object {utterance: {\"syllables\": [...]}}", path, 1)
    items = []
    for key, entry in doc.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("syllables"), list):
            raise InputError(f"utterance '{key}': expected an object with a \"syllables\" list", path)
        name = entry.get("file_name")
        fid = os.path.splitext(os.path.basename(name))[0] if isinstance(name, str) and name else str(key)
        if not fid or re.search(r"\s", fid):
            raise InputError(f"utterance '{key}': file id '{fid}' is empty or contains whitespace", path)
        for k, syl in enumerate(entry["syllables"]):
            items.append((fid, key, k, syl))
    lines = _json_lines(raw, len(items))
    files, on, off, labels = [], [], [], []
    for (fid, key, k, syl), line in zip(items, lines):
        where = f"utterance '{key}' syllable {k}"
        if not isinstance(syl, dict) or not {"start", "end", "label"} <= set(syl):
            raise InputError(f"{where}: expected an object with \"start\", \"end\" and \"label\"", path, line or None)
        files.append(fid)
        on.append(_number(syl["start"], "start", where, path, line))
        off.append(_number(syl["end"], "end", where, path, line))
        labels.append(re.sub(r"\s+", "_", _label(syl["label"], where, path, line).strip()))
    return make_intervals(files, on, off, labels, lines, np.zeros(len(files), dtype=np.int32), [path])


def read_textgrid_syllables(directory: str, tier_name: str = "syllables", opts: Options = Options()) -> Intervals:
    """The syllable tier of every TextGrid under `directory` (file id = basename)."""
    paths = find_textgrids(directory)
    cols: list[list] = [[], [], [], [], [], []]
    for k, path in enumerate(paths):
        fid = os.path.basename(path).rsplit(".", 1)[0]
        if re.search(r"\s", fid):
            raise InputError("file name contains whitespace, so it cannot be a file id", path)
        tier, _ = _select_tier(parse_textgrid(path), tier_name, path)
        for xmin, xmax, mark, line in tier.intervals:
            if not (math.isfinite(xmin) and math.isfinite(xmax)):
                raise InputError("time is not a finite number", path, line)
            for c, v in zip(cols, (fid, xmin, xmax, re.sub(r"\s+", "_", mark.strip()), line, k)):
                c.append(v)
    return make_intervals(cols[0], round_times(np.array(cols[1], dtype=np.float64), opts.time_decimals),
                          round_times(np.array(cols[2], dtype=np.float64), opts.time_decimals),
                          cols[3], cols[4], cols[5], paths)


def read_syllables(path: str, fmt: str = "auto", tier_name: str = "syllables", opts: Options = Options()) -> Intervals:
    """The syllable intervals of `path` in format `fmt` (SYLLABLE_FORMATS), unchecked."""
    fmt = syllable_format(path, fmt)
    if fmt == "textgrid":
        return read_textgrid_syllables(path, tier_name, opts)
    if os.path.isdir(path):
        raise InputError(f"a directory, but --syllables-format {fmt} reads a file", path)
    return read_sdhubert_json(path) if fmt == "sdhubert-json" else read_zr(path)


def prepare_syllables(syl: Intervals, files: list[str], duration: np.ndarray, opts: Options) -> Intervals:
    """The checked syllable tier over the data dir's sorted file table `files` (durations
    `duration`): silence dropped, values and order checked (or sorted), files known, ends
    inside the files."""
    syl = drop_silent_words(syl, opts)
    if not len(syl):
        raise InputError("no syllable intervals (besides silence)", syl.paths[0] if syl.paths else None)
    check_values(syl, "syllable")
    index = {f: i for i, f in enumerate(files)}
    remap = np.array([index.get(f, -1) for f in syl.files], dtype=np.int64)
    fc = remap[syl.file]
    if np.any(fc < 0):
        i = int(np.argmax(fc < 0))
        raise syl.error(i, f"syllable in file '{syl.file_name(i)}', which has no phones in the data dir")
    syl = order_intervals(syl.with_files(list(files), fc), opts.sort, "syllable")
    late = syl.offset > duration[syl.file] + opts.boundary_tolerance
    if late.any():
        i = int(np.argmax(late))
        raise syl.error(i, f"syllable ends at {fmt_time(syl.offset[i])} s, after the end of '{syl.file_name(i)}' "
                           f"({fmt_time(duration[syl.file[i]])} s: its last phone)")
    return syl
