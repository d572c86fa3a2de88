"""<exp-dir>/tde/classes/: the prepared classes of a zrc2020 run as one .npy file per array,
so that a job of `--nj N` reads the classes of its range only (memory-mapped slices) and the
merge reads the class sizes only (`starts`).

The step's `--prepare-only` also saves what the jobs would otherwise need the gold phone
times for (`save(..., transcription=...)`): the kept phone range and covered phones of every
fragment (k0, k1, ncov, in class order, exactly what transcribe.transcribe gives) and the
phone labels those ranges index (load_phones' order), the label table and the file names.
A job then reads its slices of k0/k1/ncov and the labels alone (`transcribed`, `labels`):
no phone time at all.

The directory is keyed on content (the class preparation's stamp and the gold's key, written
to `key`): one saved for another class file, other options or another gold is never used.
It is written into a temporary directory beside it and renamed into place, so a process
killed mid-way leaves no directory under this name (a stale temporary one is ignored).
"""
from __future__ import annotations

import os

import numpy as np

from termeval.core import arraydir
from termeval.core.datadir import Classes, class_key
from termeval.core.errors import InputError

NUMERIC = ("cls", "file", "onset", "offset", "starts")
TEXT = ("keys", "names")      # fragment ids are derived (<class-key>-<position>, data.fragment_id)
TRANSCRIPTION = ("k0", "k1", "ncov")                          # per fragment, int64
LABELS = ("phone_label", "phone_labels", "files")              # per phone int32; text tables
FORMAT = "classcache-2"      # 2: with the jobs' transcription (issue 24)


def versioned(key: str) -> str:
    """The key written to the directory: the content key and this cache's format (a cache
    written by a termeval with another transcription rule or layout is never read)."""
    return f"{FORMAT} {key}"


def valid(path: str, key: str, transcribed: bool = False) -> bool:
    """Whether `path` holds the classes saved under `key` (content key); transcribed: and the
    transcription and labels a job reads (a directory is written whole or not at all, so
    their presence says they were saved with the classes, under that key)."""
    if not arraydir.key_matches(path, versioned(key)):
        return False
    return not transcribed or all(os.path.isfile(os.path.join(path, n + ".npy")) for n in TRANSCRIPTION + LABELS)


def save(classes: Classes, path: str, key: str, transcription: tuple | None = None,
         phones=None, files: list[str] | None = None) -> None:
    """Write the arrays of `classes` to the directory `path`, atomically (termeval.core.arraydir);
    with `transcription` (k0, k1, ncov of every fragment), `phones` (the transcribe.Phones
    they index) and the gold's `files`, also what a job reads instead of the gold."""
    arrays = {name: np.asarray(getattr(classes, name)) for name in NUMERIC}
    arrays.update({name: np.asarray(getattr(classes, name), dtype=str) for name in TEXT})
    if transcription is not None:
        arrays.update({name: np.asarray(a, dtype=np.int64) for name, a in zip(TRANSCRIPTION, transcription)})
        arrays.update(phone_label=np.asarray(phones.label, dtype=np.int32),
                      phone_labels=np.asarray(phones.labels, dtype=str), files=np.asarray(files, dtype=str))
    arraydir.save(path, arrays, versioned(key))


def _array(path: str, name: str, mmap: bool = True) -> np.ndarray:
    f = os.path.join(path, name + ".npy")
    try:
        return np.load(f, mmap_mode="r" if mmap else None, allow_pickle=False)
    except (OSError, ValueError, EOFError) as e:
        raise InputError(f"unreadable prepared classes ({type(e).__name__}: {e}); remove "
                         f"{path} and re-run the step", f) from None


def starts(path: str) -> np.ndarray:
    """The class boundaries (fragments of class c: starts[c]:starts[c+1]): all the merge needs."""
    return np.array(_array(path, "starts", mmap=False), dtype=np.int64)


def load_range(path: str, c0: int, c1: int) -> Classes:
    """Classes c0..c1-1 alone, renumbered from 0 (only their slices are read from disk)."""
    st = _array(path, "starts")
    f0, f1 = int(st[c0]), int(st[c1])
    numeric = {name: np.array(_array(path, name)[f0:f1]) for name in ("cls", "file", "onset", "offset")}
    numeric["cls"] = (numeric["cls"].astype(np.int64) - c0).astype(np.int32)
    text = {name: _array(path, name) for name in TEXT}
    return Classes(keys=text["keys"][c0:c1].tolist(), names=text["names"][c0:c1].tolist(),
                   starts=np.array(st[c0:c1 + 1], dtype=np.int64) - f0, **numeric)


def transcribed(path: str, c0: int, c1: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(k0, k1, ncov) of the fragments of classes c0..c1-1 (their slices only)."""
    st = _array(path, "starts")
    f0, f1 = int(st[c0]), int(st[c1])
    return tuple(np.array(_array(path, name)[f0:f1], dtype=np.int64) for name in TRANSCRIPTION)


def labels(path: str) -> tuple[np.ndarray, list[str], list[str]]:
    """(the label of every phone, memory-mapped; the label table; the file names)."""
    return (_array(path, "phone_label"), _array(path, "phone_labels", mmap=False).tolist(),
            _array(path, "files", mmap=False).tolist())


def from_preparation(prep, gold) -> Classes | None:
    """The Classes that reading back the class dir written from `prep` (classes.write_class_dir)
    would give, without reading it (None when that cannot be guaranteed: then read it)."""
    n = len(prep.names)
    if n >= 10 ** 7:              # keys would no longer sort in class order
        return None
    try:
        codes = prep.file_codes       # the reader's factorised files: one lookup per distinct file
        if codes is not None and len(codes[1]) == len(prep.file):
            file = np.array([gold.file_index[f] for f in codes[0]], dtype=np.int32)[codes[1]]
        else:
            file = np.fromiter((gold.file_index[f] for f in prep.file), dtype=np.int32, count=len(prep.file))
    except KeyError:
        return None
    starts = np.asarray(prep.starts, dtype=np.int64)
    return Classes(keys=[class_key(c) for c in range(n)], names=list(prep.names),
                   cls=np.repeat(np.arange(n, dtype=np.int32), np.diff(starts)), file=file,
                   onset=np.asarray(prep.onset, dtype=np.float64), offset=np.asarray(prep.offset, dtype=np.float64),
                   starts=starts)


def columns(path: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """(cls, file, onset, offset) of every fragment, memory-mapped, and the class names (what
    the report's timeline selects a few files from, without reading every class)."""
    return (*(_array(path, name) for name in ("cls", "file", "onset", "offset")),
            _array(path, "names", mmap=False).tolist())


def load_all(path: str) -> Classes:
    """Every class (one process reading a cache saved by an earlier run)."""
    return load_range(path, 0, len(starts(path)) - 1)
