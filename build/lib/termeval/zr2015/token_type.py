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
    if len(words_f):
        key = np.unique(np.stack([words_f.file.astype(np.float64), words_f.onset, words_f.offset,
                                  words_f.label.astype(np.float64)], axis=1), axis=0)
        n_tok = len(key)
        n_type = len(np.unique(words_f.label))
    else:
        n_tok = n_type = 0
    n_disc = len(frag_f)
    found, a, b = lookup(words_f, frag_f, frag_on, frag_off, mode)
    n = b - a
    lab = words_f.label.tolist()
    seen = {tuple(lab[x:y]) for x, y, ok in zip(a.tolist(), b.tolist(), found.tolist()) if ok}
    aa = np.where(found & (n == 1), a, 0)
    hit = found & (n == 1)
    if len(words_f):
        hit &= (np.abs(words_f.onset[aa] - frag_on) <= 0.03) & (np.abs(words_f.offset[aa] - frag_off) <= 0.03)
    hits = int(np.count_nonzero(hit))
    types_hit = len(np.unique(words_f.label[aa[hit]])) if hits else 0
    tp = hits / n_disc if n_disc else math.nan
    tr = hits / n_tok if n_tok else math.nan
    yp = types_hit / len(seen) if seen else math.nan
    yr = types_hit / n_type if n_type else math.nan
    return tp, tr, yp, yr, int(np.count_nonzero(~found))
