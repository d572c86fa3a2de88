"""Fold views: the discovered fragments, gold fragments and words of one fold, reached through
per-file slices built once by `prepare`, so that the work of a fold is proportional to what
the fold holds (a within-speaker fold touches its speaker's files only), never to the corpus:
with 2x the files and 2x the speakers, the within folds cost 2x, not 4x.

A view keeps the global ids that metrics compare (marks, phone positions); fragment ids are
renumbered in the same (file, onset, offset) order, so every pair keeps its orientation.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from termeval.core.datadir import file_starts
from termeval.tde.zr2015.corpus import Fragments
from termeval.tde.zr2015.folds import Intervals, contained
from termeval.tde.zr2015.pairs import concat_ranges, dense_codes, uniq


@dataclass
class FileIndex:
    """Items (sorted by file) of file f are fstart[f]:fstart[f+1]; for fragments, the class
    occurrences of fragment j are occ_order[occ_ptr[j]:occ_ptr[j+1]]."""
    fstart: np.ndarray
    occ_order: np.ndarray | None = None
    occ_ptr: np.ndarray | None = None


def file_index(file: np.ndarray, nfiles: int, occ_frag: np.ndarray | None = None) -> FileIndex:
    ix = FileIndex(file_starts(file, nfiles))
    if occ_frag is not None:
        ix.occ_order = np.argsort(occ_frag, kind="stable")
        ix.occ_ptr = file_starts(occ_frag[ix.occ_order], len(file))
    return ix


def members(fold: Intervals, ix: FileIndex, file: np.ndarray, onset: np.ndarray,
            offset: np.ndarray) -> np.ndarray:
    """Sorted indices of the items inside the fold (R1 / W(F)), looking at its files only."""
    if len(fold) == 0:
        return np.zeros(0, dtype=np.int64)
    files = uniq(fold.file)
    cand = concat_ranges(ix.fstart[files], ix.fstart[files + 1])
    return cand[contained(fold, file[cand], onset[cand], offset[cand])]


def take(frags: Fragments, ix: FileIndex, sel: np.ndarray, dense_classes: bool = False) -> Fragments:
    """The fragments `sel` (sorted) with all their class occurrences (in class-file order).
    dense_classes renumbers the classes 0..k-1 (gold n-gram classes: the classes of the whole
    corpus would size every per-class array of a small fold); the whole corpus is returned
    without copies."""
    if len(sel) == len(frags):         # the whole corpus (cross fold of --folds none): no copies
        occ_frag, occ_cls = frags.occ_frag, frags.occ_cls
        sel = slice(None)
    else:
        occ = np.sort(ix.occ_order[concat_ranges(ix.occ_ptr[sel], ix.occ_ptr[sel + 1])])
        occ_frag = np.searchsorted(sel, frags.occ_frag[occ]).astype(np.int64)
        occ_cls = frags.occ_cls[occ]
    nclasses = frags.nclasses
    if dense_classes and len(occ_cls) < len(frags.occ_cls):
        occ_cls, nclasses = dense_codes(occ_cls, nclasses)
    return Fragments(file=frags.file[sel], onset=frags.onset[sel], offset=frags.offset[sel],
                     run_start=frags.run_start[sel], run_len=frags.run_len[sel],
                     mark=frags.mark[sel], marks=frags.marks, occ_cls=occ_cls, occ_frag=occ_frag,
                     nclasses=nclasses, counts=frags.counts, generated=frags.generated)
