"""Loaders for the two prepared inputs every metric reads, as numpy arrays.

Gold data directory `data/<set>/` (written by steps/prepare_gold.sh):
  phones    `<file> <onset> <offset> <label>`: phone intervals; sorted by file (C order), then
            onset; pauses are explicit silence intervals (default label SIL) unless the data
            dir was prepared with --fill-gaps false
  words     same layout, word intervals (silence is not a word, so it is absent)
  utt2spk   `<file> <speaker>`  (spk2utt is its inverse)
  reco2dur  `<file> <duration>`: end of the last phone of each file
Times are written as the shortest text that reads back as the same double, so every float
the reference tools would parse is preserved bit for bit.

Prepared class directory `exp/<sys>/classes/` (written by steps/prepare_classes.sh):
  segments     `<frag-id> <file> <onset> <offset>`, in the order of the class file
  utt2class    `<frag-id> <class-key>`;  class2utt `<class-key> <frag-id> ...`
  class_names  `<class-key> <class id as written in the class file>`
  frag-id = `<class-key>-<position>` and class-key = `c<ordinal>`, both zero padded, so the
  C-sorted order of every file is the order of the class file.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from termeval.errors import InputError
from termeval.textio import iter_lines, read_map


@dataclass
class Tier:
    """Intervals of one tier (phones or words) of all files, grouped by file.

    Interval i belongs to file `file[i]` (an index into Gold.files); the intervals of file f
    are `starts[f]:starts[f+1]`, sorted by onset. `label[i]` indexes `labels`.
    """
    file: np.ndarray
    onset: np.ndarray
    offset: np.ndarray
    label: np.ndarray
    labels: list[str]
    starts: np.ndarray

    def __len__(self) -> int:
        return len(self.onset)

    def label_index(self, name: str) -> int:
        """Index of a label, or -1 if it never occurs."""
        try:
            return self.labels.index(name)
        except ValueError:
            return -1


@dataclass
class Gold:
    files: list[str]
    file_index: dict[str, int]
    phones: Tier
    words: Tier
    speaker: list[str]                 # speaker of each file
    duration: np.ndarray               # reco2dur, per file
    path: str = ""


def load_tier(path: str, file_index: dict[str, int]) -> Tier:
    """Read a 4-column interval file of a prepared data dir (already validated and sorted)."""
    files: list[int] = []
    onsets: list[str] = []
    offsets: list[str] = []
    labels_txt: list[str] = []
    fi = file_index
    for n, line in iter_lines(path):
        if not line:
            continue
        parts = line.split(" ")
        if len(parts) != 4:
            raise InputError("expected '<file> <onset> <offset> <label>'", path, n)
        f = fi.get(parts[0])
        if f is None:
            raise InputError(f"file '{parts[0]}' is not in reco2dur", path, n)
        files.append(f)
        onsets.append(parts[1])
        offsets.append(parts[2])
        labels_txt.append(parts[3])
    # label ids in sorted label order (a dict pass; np.unique on objects is 10x slower)
    first_seen: dict[str, int] = {}
    raw = np.fromiter((first_seen.setdefault(t, len(first_seen)) for t in labels_txt),
                      dtype=np.int64, count=len(labels_txt))
    labels = sorted(first_seen)
    remap = np.empty(len(first_seen), dtype=np.int64)
    for rank, name in enumerate(labels):
        remap[first_seen[name]] = rank
    label = remap[raw] if len(raw) else raw
    file_arr = np.array(files, dtype=np.int32)
    if len(file_arr) > 1 and np.any(np.diff(file_arr) < 0):
        raise InputError("not sorted by file; prepare it with steps/prepare_gold.sh", path)
    starts = np.searchsorted(file_arr, np.arange(len(fi) + 1)).astype(np.int64)
    return Tier(file=file_arr, onset=np.array(onsets, dtype=np.float64),
                offset=np.array(offsets, dtype=np.float64), label=label.astype(np.int32),
                labels=[str(x) for x in labels], starts=starts)


def load_gold(data_dir: str) -> Gold:
    """Load a prepared gold data dir (phones, words, utt2spk, reco2dur)."""
    for name in ("phones", "words", "reco2dur", "utt2spk"):
        p = os.path.join(data_dir, name)
        if not os.path.isfile(p):
            raise InputError(f"missing {name}: not a prepared gold data dir (see steps/prepare_gold.sh)", p)
    dur = read_map(os.path.join(data_dir, "reco2dur"))
    files = sorted(dur)
    file_index = {f: i for i, f in enumerate(files)}
    spk = read_map(os.path.join(data_dir, "utt2spk"))
    missing = [f for f in files if f not in spk]
    if missing:
        raise InputError(f"{len(missing)} files have no speaker, e.g. {missing[0]}",
                         os.path.join(data_dir, "utt2spk"))
    return Gold(files=files, file_index=file_index,
                phones=load_tier(os.path.join(data_dir, "phones"), file_index),
                words=load_tier(os.path.join(data_dir, "words"), file_index),
                speaker=[spk[f] for f in files],
                duration=np.array([float(dur[f]) for f in files], dtype=np.float64),
                path=data_dir)


@dataclass
class Classes:
    """Discovered classes: fragment i is (file[i], onset[i], offset[i]) in class cls[i].

    Fragments are in class-file order, so `cls` is non-decreasing; the fragments of class c
    are `starts[c]:starts[c+1]`. `file` indexes Gold.files.
    """
    keys: list[str]
    names: list[str]
    cls: np.ndarray
    file: np.ndarray
    onset: np.ndarray
    offset: np.ndarray
    starts: np.ndarray
    frag_ids: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.onset)


def load_classes(class_dir: str, gold: Gold) -> Classes:
    """Load a prepared class dir (segments, utt2class, class_names) against `gold`."""
    seg_path = os.path.join(class_dir, "segments")
    names = read_map(os.path.join(class_dir, "class_names"))
    keys = sorted(names)
    key_index = {k: i for i, k in enumerate(keys)}
    frag_ids: list[str] = []
    cls: list[int] = []
    files: list[int] = []
    on: list[str] = []
    off: list[str] = []
    for n, line in iter_lines(seg_path):
        if not line:
            continue
        parts = line.split()
        if len(parts) != 4:
            raise InputError("expected '<frag-id> <file> <onset> <offset>'", seg_path, n)
        frag, fname, a, b = parts
        ckey = frag.rsplit("-", 1)[0]
        c = key_index.get(ckey)
        if c is None:
            raise InputError(f"fragment '{frag}' belongs to no class in class_names", seg_path, n)
        f = gold.file_index.get(fname)
        if f is None:
            raise InputError(f"file '{fname}' is not in the gold data dir {gold.path}", seg_path, n)
        frag_ids.append(frag)
        cls.append(c)
        files.append(f)
        on.append(a)
        off.append(b)
    cls_arr = np.array(cls, dtype=np.int32)
    if len(cls_arr) > 1 and np.any(np.diff(cls_arr) < 0):
        raise InputError("fragments are not grouped by class in order", seg_path)
    starts = np.searchsorted(cls_arr, np.arange(len(keys) + 1)).astype(np.int64)
    return Classes(keys=keys, names=[names[k] for k in keys], cls=cls_arr,
                   file=np.array(files, dtype=np.int32), onset=np.array(on, dtype=np.float64),
                   offset=np.array(off, dtype=np.float64), starts=starts, frag_ids=frag_ids)


def class_key(ordinal: int) -> str:
    """Key of the ordinal-th class (0-based) of a class file."""
    return f"c{ordinal:07d}"


def fragment_id(ordinal: int, position: int) -> str:
    """Id of the position-th fragment (0-based) of the ordinal-th class."""
    return f"{class_key(ordinal)}-{position:07d}"
