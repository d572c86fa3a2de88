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

from termeval.core.digest import content_digest
from termeval.core.errors import InputError
from termeval.core.kaldi_files import read_durations, read_utt2spk
from termeval.core.textio import iter_lines, parse_floats, read_map, read_table


def file_starts(group: np.ndarray, ngroups: int) -> np.ndarray:
    """starts[g]:starts[g+1] is the slice of group g (a file, a class) in an array sorted by
    its group code 0..ngroups-1 (the one place of the `searchsorted(arange(n+1))` idiom)."""
    return np.searchsorted(group, np.arange(ngroups + 1)).astype(np.int64)


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


def _ranked(table: list[str], codes: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Re-index a factorised column so that its table is sorted (C order)."""
    order = sorted(range(len(table)), key=table.__getitem__)
    rank = np.empty(len(order), dtype=np.int64)
    rank[np.array(order, dtype=np.int64)] = np.arange(len(order))
    return [table[i] for i in order], (rank[codes] if len(codes) else codes)


def load_tier(path: str, file_index: dict[str, int]) -> Tier:
    """Read a 4-column interval file of a prepared data dir (already validated and sorted)."""
    cols = read_table(path, (4,), "'<file> <onset> <offset> <label>'", {1: "onset", 2: "offset"},
                      (0, 3), allow_empty=True)
    ftab, fcode = cols.codes(0)
    remap = np.array([file_index.get(f, -1) for f in ftab], dtype=np.int64)
    if np.any(remap < 0):
        j = int(np.argmax(remap < 0))
        r = int(np.argmax(fcode == j))
        raise InputError(f"file '{ftab[j]}' is not in reco2dur", path, int(cols.line[r]))
    file_arr = (remap[fcode] if len(fcode) else fcode).astype(np.int32)
    if len(file_arr) > 1 and np.any(np.diff(file_arr) < 0):
        raise InputError("not sorted by file; prepare it with steps/prepare_gold.sh", path)
    labels, label = _ranked(*cols.codes(3))  # label ids in sorted label order
    return Tier(file=file_arr, onset=cols.floats(1), offset=cols.floats(2), label=label.astype(np.int32),
                labels=labels, starts=file_starts(file_arr, len(file_index)))


def empty_tier(nfiles: int) -> Tier:
    """A tier with no interval (for a tier that was not asked for)."""
    z = np.zeros(0)
    return Tier(z.astype(np.int32), z, z, z.astype(np.int32), [], np.zeros(nfiles + 1, dtype=np.int64))


# Parsed data dirs kept for the rest of the process when the Python API turns it on (many
# systems scored against one gold): {content stamp: Gold}, most recent last; None = off (a step
# parses its data dir once anyway). Kept arrays are read-only, so no caller can alter them.
gold_memo: dict[str, Gold] | None = None
GOLD_MEMO_SIZE = 4
GOLD_FILES = ("phones", "words", "reco2dur", "utt2spk")


def gold_stamp(data_dir: str) -> str | None:
    """Identity of a data dir: the digest of its files' CONTENTS (termeval.core.digest; None if
    one is missing or unreadable). Never paths, sizes or modification times: a gold edited in
    place with the same size and mtime is another gold."""
    try:
        return content_digest([os.path.join(data_dir, name) for name in GOLD_FILES], missing_ok=False)
    except OSError:
        return None


def remember_gold(gold: Gold) -> Gold:
    """Keep `gold` (both tiers read from gold.path) in the memo, when it is on."""
    stamp = gold_stamp(gold.path) if gold_memo is not None else None
    if stamp is not None:
        for a in (gold.duration, *(getattr(getattr(gold, t), k) for t in ("phones", "words")
                                   for k in ("file", "onset", "offset", "label", "starts"))):
            a.flags.writeable = False
        gold_memo.pop(stamp, None)
        gold_memo[stamp] = gold
        while len(gold_memo) > GOLD_MEMO_SIZE:
            del gold_memo[next(iter(gold_memo))]
    return gold


def _remembered(data_dir: str, tiers: tuple[str, ...]) -> Gold | None:
    stamp = gold_stamp(data_dir) if gold_memo else None
    g = gold_memo.get(stamp) if stamp is not None else None
    if g is None:
        return None
    keep = {name: getattr(g, name) if name in tiers else empty_tier(len(g.files)) for name in ("phones", "words")}
    return Gold(files=g.files, file_index=g.file_index, phones=keep["phones"], words=keep["words"],
                speaker=g.speaker, duration=g.duration, path=data_dir)


def load_gold(data_dir: str, tiers: tuple[str, ...] = ("phones", "words")) -> Gold:
    """Load a prepared gold data dir (phones, words, utt2spk, reco2dur). Only the tiers named in
    `tiers` are read (the others are empty): reading the 1.4 M phones of a 38 h corpus costs more
    than scoring its words."""
    if gold_memo is not None:
        g = _remembered(data_dir, tiers)
        if g is None:
            remember_gold(_parse_gold(data_dir, ("phones", "words")))
            g = _remembered(data_dir, tiers)
        if g is not None:
            return g
    return _parse_gold(data_dir, tiers)


def _parse_gold(data_dir: str, tiers: tuple[str, ...]) -> Gold:
    for name in ("phones", "words", "reco2dur", "utt2spk"):
        p = os.path.join(data_dir, name)
        if not os.path.isfile(p):
            raise InputError(f"missing {name}: not a prepared gold data dir (see steps/prepare_gold.sh)", p)
    dur = read_durations(os.path.join(data_dir, "reco2dur"))
    files = sorted(dur)
    file_index = {f: i for i, f in enumerate(files)}
    spk = read_utt2spk(os.path.join(data_dir, "utt2spk"))
    missing = [f for f in files if f not in spk]
    if missing:
        raise InputError(f"{len(missing)} files have no speaker, e.g. {missing[0]}",
                         os.path.join(data_dir, "utt2spk"))
    tier = {name: load_tier(os.path.join(data_dir, name), file_index) if name in tiers else empty_tier(len(files))
            for name in ("phones", "words")}
    return Gold(files=files, file_index=file_index, phones=tier["phones"], words=tier["words"],
                speaker=[spk[f][0] for f in files],
                duration=np.array([dur[f] for f in files], dtype=np.float64),
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
    lines: list[int] = []
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
        lines.append(n)
    cls_arr = np.array(cls, dtype=np.int32)
    if len(cls_arr) > 1 and np.any(np.diff(cls_arr) < 0):
        raise InputError("fragments are not grouped by class in order", seg_path)
    starts = file_starts(cls_arr, len(keys))
    return Classes(keys=keys, names=[names[k] for k in keys], cls=cls_arr,
                   file=np.array(files, dtype=np.int32),
                   onset=parse_floats(on, seg_path, np.array(lines), "onset"),
                   offset=parse_floats(off, seg_path, np.array(lines), "offset"), starts=starts,
                   frag_ids=frag_ids)


def class_key(ordinal: int) -> str:
    """Key of the ordinal-th class (0-based) of a class file."""
    return f"c{ordinal:07d}"


def fragment_id(ordinal: int, position: int) -> str:
    """Id of the position-th fragment (0-based) of the ordinal-th class."""
    return f"{class_key(ordinal)}-{position:07d}"
