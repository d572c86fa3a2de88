"""Validation of a prepared gold data dir (utils/validate_alignment_dir.sh)."""
from __future__ import annotations

import gc
import math
import os

import numpy as np

from termeval.core.errors import InputError
from termeval.gold.intervals import DATA_FILES, Intervals, Options
from termeval.gold.normalize import check_values, check_word_edges
from termeval.gold.zr import read_zr
from termeval.core.textio import fmt_time
from termeval.gold.discophon import no_words


def check_prepared_bytes(path: str) -> bytes:
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
    return check_prepared_bytes(path).decode("utf-8")[:-1].split("\n")


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
    return _summary(check_data_dir(data_dir, boundary_tolerance, sil_label))


def _summary(c: dict) -> str:
    syl = f", {c['syllables']} syllables" if "syllables" in c else ""
    return f"{c['files']} files, {c['speakers']} speakers, {c['phones']} phones, {c['words']} words{syl}"


def findings(opts) -> dict:
    """The check of a ValidateOptions' data dir (the first problem an InputError); returns its
    counts {"files", "speakers", "phones", "words"} and the summary line the step prints."""
    enabled = gc.isenabled()
    gc.disable()  # many small objects, no cycles
    try:
        c = check_data_dir(opts.data_dir, opts.boundary_tolerance, opts.sil_label)
    finally:
        if enabled:
            gc.enable()
    return {**c, "summary": _summary(c)}


def check_data_dir(data_dir: str, boundary_tolerance: float = 0.001, sil_label: str = "SIL") -> dict:
    """validate_data_dir's checks; returns the counts {"files", "speakers", "phones", "words"}."""
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
    p["syllables"] = os.path.join(data_dir, "syllables")     # optional (prepare_gold --syllables)
    for name in ("phones", "words") + (("syllables",) if os.path.isfile(p["syllables"]) else ()):
        if name == "words" and os.path.isfile(p[name]) and os.path.getsize(p[name]) == 0:
            tiers[name] = no_words(tiers["phones"])     # a phone-only data dir (prepare_gold --format discophon)
            continue
        check_prepared_bytes(p[name])
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
    return {"files": len(files), "speakers": len(spk2utt), "phones": len(ph), "words": len(wd),
            **({"syllables": len(tiers["syllables"])} if "syllables" in tiers else {})}
