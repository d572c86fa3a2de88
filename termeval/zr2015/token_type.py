"""Token and type precision/recall (spec §4.5, TDE15/17).

For each distinct fragment x of R1(D, F), Wx = the §3.1 lookup of x in the word corpus
restricted to the fold, W(F). types_seen collects the label tuple of Wx (possibly empty); x is a
hit iff |Wx| = 1 and both edges are within 30 ms (inclusive, raw times) of that word. No
one-to-one matching (quirk §5.1 #8). A fragment the lookup cannot place is skipped (TDE17; TDE15
crashed) and counted in `token_unplaced`. NaN when a denominator is 0.
"""
from __future__ import annotations

import math

import numpy as np

from termeval.zr2015.corpus import Segmented, lookup


def token_type(words_f: Segmented, frag_f, frag_on, frag_off, mode: str):
    """(token P, token R, type P, type R, unplaced) for one fold; words_f = W(F)."""
    h = _hits(words_f, frag_f, frag_on, frag_off, mode)
    n_tok = len(h["key"])
    n_type = len(np.unique(words_f.label)) if len(words_f) else 0
    n_disc = len(frag_f)
    seen = set(h["seen"])
    hit, aa = h["hit"], h["aa"]
    hits = int(np.count_nonzero(hit))
    types_hit = len(np.unique(words_f.label[aa[hit]])) if hits else 0
    tp = hits / n_disc if n_disc else math.nan
    tr = hits / n_tok if n_tok else math.nan
    yp = types_hit / len(seen) if seen else math.nan
    yr = types_hit / n_type if n_type else math.nan
    return tp, tr, yp, yr, int(np.count_nonzero(~h["found"]))


def _hits(words_f: Segmented, frag_f, frag_on, frag_off, mode: str) -> dict:
    """The distinct word tokens (file, onset, offset, label) of W(F), each fragment's lookup,
    hit flag, hit word and (file, label tuple) of the placed fragments."""
    if len(words_f):
        key = np.unique(np.stack([words_f.file.astype(np.float64), words_f.onset, words_f.offset,
                                  words_f.label.astype(np.float64)], axis=1), axis=0)
    else:
        key = np.zeros((0, 4))
    found, a, b = lookup(words_f, frag_f, frag_on, frag_off, mode)
    n = b - a
    lab = words_f.label.tolist()
    seen = [(f, tuple(lab[x:y])) for f, x, y, ok in zip(np.asarray(frag_f).tolist(), a.tolist(), b.tolist(),
                                                       found.tolist()) if ok]
    aa = np.where(found & (n == 1), a, 0)
    hit = found & (n == 1)
    if len(words_f):
        hit &= (np.abs(words_f.onset[aa] - frag_on) <= 0.03) & (np.abs(words_f.offset[aa] - frag_off) <= 0.03)
    return {"key": key, "found": found, "hit": hit, "aa": aa, "seen": [t for _, t in seen], "seen_file": seen}


def _distinct_per_file(file: np.ndarray, key: np.ndarray, nfiles: int) -> np.ndarray:
    if not len(key):
        return np.zeros(nfiles)
    k = np.unique(np.asarray(file, np.int64) * (int(key.max()) + 1) + key)
    return np.bincount(k // (int(key.max()) + 1), minlength=nfiles).astype(np.float64)


def token_type_by_file(words_f: Segmented, frag_f, frag_on, frag_off, mode: str, nfiles: int) -> np.ndarray:
    """(nfiles, 6) per-file counts [hit fragments, fragments, distinct gold tokens, distinct hit
    types, distinct types seen, distinct gold types]. Token counts add up to the fold's (a
    token key includes its file); type counts are distinct *per file*, so their sums exceed
    the fold's distinct counts (the bootstrap's surrogate, docs/uncertainty.md)."""
    h = _hits(words_f, frag_f, frag_on, frag_off, mode)
    frag_f = np.asarray(frag_f, np.int64)
    hit = h["hit"]
    lab = words_f.label.astype(np.int64)
    sf = np.fromiter((f for f, _ in h["seen_file"]), np.int64, len(h["seen_file"]))
    _, sk = np.unique(np.asarray([repr(t) for _, t in h["seen_file"]], dtype=object).astype(str),
                      return_inverse=True) if len(sf) else (None, np.zeros(0, np.int64))
    return np.c_[np.bincount(frag_f[hit], minlength=nfiles), np.bincount(frag_f, minlength=nfiles),
                 np.bincount(h["key"][:, 0].astype(np.int64), minlength=nfiles),
                 _distinct_per_file(frag_f[hit], lab[h["aa"][hit]] if len(lab) else np.zeros(0, np.int64), nfiles),
                 _distinct_per_file(sf, np.asarray(sk, np.int64).ravel(), nfiles),
                 _distinct_per_file(words_f.file, lab, nfiles)].astype(np.float64)
