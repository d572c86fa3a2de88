"""Token and type precision/recall (spec §4.5, TDE15/17).

For each distinct fragment x of R1(D, F), Wx = the §3.1 lookup of x in the word corpus
restricted to the fold, W(F). types_seen collects the label tuple of Wx (possibly empty); x is a
hit iff |Wx| = 1 and both edges are within 30 ms (inclusive, raw times) of that word. No
one-to-one matching (quirk §5.1 #8). A fragment the lookup cannot place is skipped (TDE17; TDE15
crashed) and counted in `token_unplaced`. NaN when a denominator is 0.

The lookup is done once per fold (`hits`); label tuples are integer ids (equal ids <=> equal
tuples, by ranking the runs one word at a time), never Python tuples.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from termeval.tde.zr2015.corpus import Segmented, lookup
from termeval.tde.zr2015.pairs import uniq, uniq_inverse


@dataclass
class Hits:
    tok_file: np.ndarray       # file of each distinct word token (file, onset, offset, label) of W(F)
    found: np.ndarray          # the fragment's lookup succeeded
    hit: np.ndarray            # placed on a single word within 30 ms at both edges
    aa: np.ndarray             # that word (0 where not a hit)
    seen: np.ndarray           # label-tuple id of each placed fragment's words
    frag_file: np.ndarray


def hits(words_f: Segmented, frag_f, frag_on, frag_off, mode: str) -> Hits:
    frag_f = np.asarray(frag_f, dtype=np.int64)
    found, a, b = lookup(words_f, frag_f, frag_on, frag_off, mode)
    n = b - a
    aa = np.where(found & (n == 1), a, 0)
    hit = found & (n == 1)
    if len(words_f):
        hit &= (np.abs(words_f.onset[aa] - frag_on) <= 0.03) & (np.abs(words_f.offset[aa] - frag_off) <= 0.03)
    return Hits(tok_file=_distinct_tokens(words_f), found=found, hit=hit, aa=aa,
                seen=run_ids(words_f.label, a[found], b[found]), frag_file=frag_f)


def _distinct_tokens(w: Segmented) -> np.ndarray:
    """File of each distinct (file, onset, offset, label) word token."""
    if not len(w):
        return np.zeros(0, np.int64)
    f, on, off, lab = w.file, w.onset, w.offset, w.label
    same = lambda x: x[1:] == x[:-1]            # noqa: E731
    lt = lambda x: x[1:] < x[:-1]               # noqa: E731
    # sorted by (file, onset, offset, label)? (the data dir is): duplicates are adjacent
    bad = lt(f) | (same(f) & (lt(on) | (same(on) & (lt(off) | (same(off) & lt(lab))))))
    if bad.any():
        o = np.lexsort((lab, off, on, f))
        f, on, off, lab = f[o], on[o], off[o], lab[o]
    new = np.concatenate(([True], ~(same(f) & same(on) & same(off) & same(lab))))
    return np.asarray(f[new], dtype=np.int64)


def run_ids(label: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Integer id of the label tuple label[a[i]:b[i]] of each run (equal ids <=> equal tuples),
    ranked one position at a time."""
    n = (b - a).astype(np.int64)
    code = np.zeros(len(a), dtype=np.int64)
    act = np.flatnonzero(n > 0)
    k = 0
    lab = np.asarray(label, dtype=np.int64)
    nlab = np.int64(int(lab.max()) + 1 if len(lab) else 1)
    while len(act):
        _, code[act] = uniq_inverse(code[act] * nlab + lab[a[act] + k])
        k += 1
        act = act[n[act] > k]
    m = np.int64(int(code.max()) + 1 if len(code) else 1)
    return uniq_inverse(n * m + code)[1]


def token_type(words_f: Segmented, frag_f, frag_on, frag_off, mode: str, h: Hits | None = None):
    """(token P, token R, type P, type R, unplaced) for one fold; words_f = W(F)."""
    h = h if h is not None else hits(words_f, frag_f, frag_on, frag_off, mode)
    n_tok = len(h.tok_file)
    n_type = len(uniq(words_f.label)) if len(words_f) else 0
    n_disc = len(h.found)
    n_seen = len(uniq(h.seen))
    nhit = int(np.count_nonzero(h.hit))
    types_hit = len(uniq(words_f.label[h.aa[h.hit]])) if nhit else 0
    tp = nhit / n_disc if n_disc else math.nan
    tr = nhit / n_tok if n_tok else math.nan
    yp = types_hit / n_seen if n_seen else math.nan
    yr = types_hit / n_type if n_type else math.nan
    return tp, tr, yp, yr, int(np.count_nonzero(~h.found))


def _distinct_per_file(file: np.ndarray, key: np.ndarray, nfiles: int) -> np.ndarray:
    if not len(key):
        return np.zeros(nfiles)
    k = uniq(np.asarray(file, np.int64) * (int(key.max()) + 1) + key)
    return np.bincount(k // (int(key.max()) + 1), minlength=nfiles).astype(np.float64)


def token_type_by_file(words_f: Segmented, frag_f, frag_on, frag_off, mode: str, nfiles: int,
                       h: Hits | None = None) -> np.ndarray:
    """(nfiles, 6) per-file counts [hit fragments, fragments, distinct gold tokens, distinct hit
    types, distinct types seen, distinct gold types]. Token counts add up to the fold's (a
    token key includes its file); type counts are distinct *per file*, so their sums exceed
    the fold's distinct counts (the bootstrap's surrogate, docs/uncertainty.md)."""
    h = h if h is not None else hits(words_f, frag_f, frag_on, frag_off, mode)
    frag_f, hit = h.frag_file, h.hit
    lab = words_f.label.astype(np.int64)
    return np.c_[np.bincount(frag_f[hit], minlength=nfiles), np.bincount(frag_f, minlength=nfiles),
                 np.bincount(h.tok_file, minlength=nfiles),
                 _distinct_per_file(frag_f[hit], lab[h.aa[hit]] if len(lab) else np.zeros(0, np.int64), nfiles),
                 _distinct_per_file(frag_f[h.found], h.seen, nfiles),
                 _distinct_per_file(words_f.file, lab, nfiles)].astype(np.float64)
