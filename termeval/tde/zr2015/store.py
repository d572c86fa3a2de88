"""What a zr2015/zr2017 run keeps between processes and what a process holds in memory.

The preparation cache: <exp-dir>/tde/zr2015/, the parsed and annotated inputs of a run, saved
once (the plan prepares it before the jobs: termeval/run/plan.py; `--prepare-only` alone) as one .npy file per array,
so that each `--nj` job memory-maps what its units need instead of parsing and holding
everything: the phone and word tiers (segment_tier's arrays), the discovered fragments after
annotation (corpus.Fragments, with their mark tuples as a ragged array), the gold fragments
read from a <prefix>.classes file (when there is one), else what the generated gold classes
need of the corpus (the longest repeated n-gram per phone start, `phones.rep_len`: one byte a
phone), and the counts, file list and speakers (meta.json). The n-gram index is not saved: a
job scoring matching builds the levels its unit needs over the files of its fold
(`FoldIndex`, termeval.tde.zr2015.ngramindex).

The directory is keyed on content (`input_key`: a digest of the data dir files, the class file
or class dir, the fold files, the mode): one saved for other inputs is never used. It is
written into a temporary directory beside it and renamed into place, so a process killed
mid-way leaves nothing under this name (a stale temporary directory is ignored).

What a job loads (`job_prepared`): the fields of an evaluate.Prepared that its units need
(plan.needs), the rest None, with two lazy indexes: `FoldIndex` (the n-gram levels of a fold,
built when the fold is scored) and `LazyFileIndex` (the gold occurrences' order, sorted when a
fold view first asks). `release` gives a finished unit's free heap pages back (malloc_trim).
"""
from __future__ import annotations

import ctypes
import json
import os
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from termeval.core import arraydir
from termeval.core.datadir import file_starts
from termeval.core.digest import content_digest
from termeval.core.errors import InputError
from termeval.tde.zr2015 import ned
from termeval.tde.zr2015.corpus import Fragments, Segmented
from termeval.tde.zr2015.evaluate import Prepared, prepare_for_store
from termeval.tde.zr2015.folds import FOLD_SUFFIXES
from termeval.tde.zr2015.foldview import FileIndex, file_index
from termeval.tde.zr2015.ngramindex import NgramIndex
from termeval.tde.zr2015.ngrams import GoldNgrams, fold_phones

VERSION = 3
SEG = ("file", "onset", "offset", "label", "seg_id")
SEGMENTS = ("seg", "tok_start", "tok_stop", "seg_file", "seg_on", "seg_off")   # corpus._make's
FRAG = ("file", "onset", "offset", "run_start", "run_len", "mark", "occ_cls", "occ_frag")
DATA_FILES = ("phones", "words", "utt2spk", "reco2dur")


def cache_dir(exp_dir: str) -> str:
    return os.path.join(exp_dir, "tde", "zr2015")


def input_key(data_dir: str, class_file: str, folds: str, mode: str) -> str:
    """Digest of the bytes of every input and of the settings that shape the preparation."""
    paths = [os.path.join(data_dir, f) for f in DATA_FILES]
    if os.path.isdir(class_file):
        paths += sorted(os.path.join(class_file, f) for f in os.listdir(class_file)
                        if os.path.isfile(os.path.join(class_file, f)))
    else:
        paths.append(class_file)
    if folds != "none":
        paths += [f"{folds}.{s}" for s in FOLD_SUFFIXES + ("classes",)]
    return content_digest(paths, {"version": VERSION, "mode": mode, "folds_none": folds == "none",
                                  "class_dir": os.path.isdir(class_file)})


def valid(path: str, key: str) -> bool:
    return arraydir.key_matches(path, key) and os.path.isfile(os.path.join(path, "meta.json"))


def _ragged(marks: list[tuple]) -> tuple[np.ndarray, np.ndarray]:
    lens = np.fromiter((len(m) for m in marks), np.int64, len(marks))
    flat = np.fromiter((x for m in marks for x in m), np.int64, int(lens.sum()))
    return flat, lens


def arrays_of(p: Prepared) -> tuple[dict[str, np.ndarray], dict]:
    """The arrays and the JSON metadata of an evaluate.Prepared."""
    arrays: dict[str, np.ndarray] = {}
    for tier, sg in (("phones", p.phones), ("words", p.words)):
        for name in SEG + SEGMENTS:
            arrays[f"{tier}.{name}"] = np.asarray(getattr(sg, name))
        # (what a job touches of every phone: 4 bytes, not 8; the values are the same)
        for name in ("seg", "label"):
            if len(sg) and int(np.max(getattr(sg, name))) < 2**31 - 1:
                arrays[f"{tier}.{name}"] = arrays[f"{tier}.{name}"].astype(np.int32)
    for which, fr in (("disc", p.disc), ("gold", p.goldcls)):
        if fr is not None:
            for name in FRAG:
                arrays[f"{which}.{name}"] = np.asarray(getattr(fr, name))
    if p.gold_ngrams is not None:
        arrays["phones.rep_len"] = p.gold_ngrams.rep_len
    arrays["marks.flat"], arrays["marks.len"] = _ragged(p.disc.marks)
    nf = len(p.gold.files)
    arrays["disc.per_file"] = np.bincount(np.asarray(p.disc.file, np.int64), minlength=nf)
    sizes = np.bincount(p.disc.occ_cls, minlength=p.disc.nclasses)
    meta = {"files": list(p.gold.files), "speakers": list(p.gold.speaker), "counts": p.counts,
            "mode": p.mode, "nclasses": int(p.disc.nclasses), "disc_counts": p.disc.counts,
            "gold_counts": None if p.goldcls is None else p.goldcls.counts,
            "gold_nclasses": None if p.goldcls is None else int(p.goldcls.nclasses),
            "nclusters": int(np.count_nonzero(sizes)), "npairs": int((sizes * (sizes - 1) // 2).sum()),
            "fragments": int(len(p.disc)),
            "labels": {"phones": list(p.phones.labels), "words": list(p.words.labels)},
            "inexact": {"phones": int(p.phones.inexact_joins), "words": int(p.words.inexact_joins)}}
    return arrays, json.loads(json.dumps(meta))


def save(arrays: dict[str, np.ndarray], meta: dict, path: str, key: str) -> None:
    """Write the arrays and meta.json into `path`, atomically (termeval.core.arraydir)."""
    arraydir.save(path, arrays, key, {"meta.json": json.dumps(meta)})


class Store:
    """A saved preparation: meta.json in memory, arrays memory-mapped on demand."""

    def __init__(self, path: str):
        self.path = path
        try:
            with open(os.path.join(path, "meta.json"), encoding="utf-8") as f:
                self.meta = json.load(f)
        except (OSError, ValueError, RecursionError) as e:
            raise InputError(f"unreadable prepared inputs ({type(e).__name__}: {e}); remove {path} "
                             "and re-run the step", path) from None

    def has(self, name: str) -> bool:
        return os.path.isfile(os.path.join(self.path, name + ".npy"))

    def array(self, name: str) -> np.ndarray:
        f = os.path.join(self.path, name + ".npy")
        try:
            return np.asarray(np.load(f, mmap_mode="r", allow_pickle=False))
        except (OSError, ValueError, EOFError) as e:
            raise InputError(f"unreadable prepared inputs ({type(e).__name__}: {e}); remove "
                             f"{self.path} and re-run the step", f) from None

    def gold(self) -> SimpleNamespace:
        """What the fold scoring reads of the gold: file names, their index and speakers."""
        files = self.meta["files"]
        return SimpleNamespace(files=files, file_index={f: i for i, f in enumerate(files)},
                               speaker=self.meta["speakers"])

    def segmented(self, tier: str):
        """The saved corpus.Segmented, every array memory-mapped (a job touches what it reads)."""
        a = {n: self.array(f"{tier}.{n}") for n in SEG + SEGMENTS}
        return Segmented(labels=self.meta["labels"][tier], inexact_joins=self.meta["inexact"][tier], **a)

    def marks(self) -> list[tuple]:
        flat, lens = self.array("marks.flat").tolist(), self.array("marks.len")
        ends = np.cumsum(lens).tolist()
        return [tuple(flat[e - n:e]) for e, n in zip(ends, lens.tolist())]

    def fragments(self, which: str, marks: list[tuple]):
        a = {n: self.array(f"{which}.{n}") for n in FRAG}
        if which == "disc":
            nclasses, counts = self.meta["nclasses"], self.meta["disc_counts"]
        else:
            nclasses, counts = self.meta["gold_nclasses"], self.meta["gold_counts"]
        return Fragments(marks=marks, nclasses=nclasses, counts=counts, **a)


def ensure(data_dir: str, class_file: str, folds: str, mode: str, exp_dir: str, log=None) -> Store:
    """The saved preparation of these inputs, prepared and saved now unless already there."""
    path = cache_dir(exp_dir)
    key = input_key(data_dir, class_file, folds, mode)
    if not valid(path, key):
        # (the Prepared is gone once its arrays are taken: the save holds the arrays only)
        arrays, meta = arrays_of(prepare_for_store(data_dir, class_file, folds, mode, log=log))
        save(arrays, meta, path, key)
        if log:
            log(f"saved the prepared inputs to {path}")
    return Store(path)


def release() -> None:
    """Give a finished unit's memory back (its arrays and memory maps are freed with their last
    reference): the free pages of the C heap (glibc's malloc_trim; elsewhere a no-op)."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


@dataclass
class JobPrepared(Prepared):
    """A job's inputs (job_prepared): what its units need; matching's n-gram index is built
    per fold (None: no unit needs phones)."""
    fold_index: "FoldIndex | None"

    def index_for(self, fold, lengths: tuple[int, int]) -> NgramIndex:
        return self.fold_index(fold, lengths)


def job_prepared(store: Store, foldsets: dict, need: set[str], log=None) -> JobPrepared:
    """The inputs of a job's units, from the store: what `need` (plan.needs) asks for, None elsewhere."""
    meta = store.meta
    gold = store.gold()
    nf = len(gold.files)
    marks = store.marks() if need & {"ned", "phones"} else []     # (grouping sizes by len(marks))
    disc = store.fragments("disc", marks)
    phones = store.segmented("phones") if "phones" in need else None
    words = store.segmented("words") if "words" in need else None
    goldcls = generated = None
    if "gold" in need:
        if store.has("gold.file"):       # a <prefix>.classes file: listed, saved by the preparation
            goldcls = store.fragments("gold", marks)
            goldcls.marks = marks
        else:
            generated = GoldNgrams(phones, nf, store.array("phones.rep_len"), meta["counts"]["gold_classes"])
    return JobPrepared(mode=meta["mode"], gold=gold, foldsets=foldsets, counts=json_copy(meta["counts"]),
                       disc=disc, disc_ix=file_index(disc.file, nf, disc.occ_frag), phones=phones, words=words,
                       word_ix=file_index(words.file, nf) if words is not None else None,
                       ned_cache=ned.NedCache(marks) if "ned" in need else None, goldcls=goldcls,
                       gold_ix=LazyFileIndex(goldcls.file, nf, goldcls.occ_frag) if goldcls is not None else None,
                       gold_ngrams=generated,
                       fold_index=FoldIndex(phones, nf, listed=goldcls is not None) if phones is not None else None)


class FoldIndex:
    """What a job's fold builds instead of the corpus's n-gram index: the levels of the
    lengths it scores (all of them with listed gold classes, whose codes span every length),
    over the phones of the fold's files (all phones for a fold of every whole file)."""

    def __init__(self, phones, nfiles: int, listed: bool):
        self.phones, self.listed = phones, listed
        self.fstart = phones.file_starts(nfiles)

    def __call__(self, fold, lengths: tuple[int, int]):
        keep = None if self.listed else range(lengths[0], lengths[1] + 1)
        release()                # the heap's free pages back first: the build is a job's peak
        idx = NgramIndex(self.phones, keep=keep, positions=fold_phones(self.fstart, fold))
        release()
        return idx


class LazyFileIndex:
    """foldview.FileIndex whose occurrence order is sorted only when a fold view asks for it:
    the whole-corpus fold of --folds none never does (2 x 8 bytes per gold n-gram spared)."""

    def __init__(self, file: np.ndarray, nfiles: int, occ_frag: np.ndarray):
        self.fstart = file_index(file, nfiles).fstart
        self._occ_frag, self._nfrag, self._full = occ_frag, len(file), None

    def _index(self):
        if self._full is None:
            order = np.argsort(self._occ_frag, kind="stable")
            self._full = FileIndex(self.fstart, order, file_starts(self._occ_frag[order], self._nfrag))
        return self._full

    @property
    def occ_order(self) -> np.ndarray:
        return self._index().occ_order

    @property
    def occ_ptr(self) -> np.ndarray:
        return self._index().occ_ptr


def json_copy(x):
    return json.loads(json.dumps(x))
