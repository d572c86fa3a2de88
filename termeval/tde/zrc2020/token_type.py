"""Token and type precision/recall (tdev2, tde-spec §4.5).

For every distinct kept fragment: its phone string is a type seen; among the gold words that
strictly overlap it, the one with the largest covered fraction of the word is chosen (the
first in onset order on exact ties; tdev2 takes the first in interval-tree set order, which
only matters in contrived cases: ties where a tied word has as many phones as the fragment
are counted as `tied_word_choices`); it is a hit iff the
fragment's phone string equals the labels of the phones overlapping that word. Each gold word
token is hit at most once. Type recall divides the hit phone strings by the number of
*orthographic* word types (the reference's unit mix, kept because it is what was published).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from termeval.core.datadir import Gold, file_starts
from termeval.core.distinct import n_distinct
from termeval.core.errors import InputError
from termeval.core.intervals import search
from termeval.tde.zrc2020.transcribe import SIL, Phones, covered_range, strictly_sorted


@dataclass
class Words:
    file: np.ndarray
    onset: np.ndarray
    offset: np.ndarray
    label: np.ndarray
    starts: np.ndarray
    n_types: int
    p0: np.ndarray        # phones overlapping the word: [p0, p1)
    p1: np.ndarray

    def __len__(self) -> int:
        return len(self.onset)


def load_words(gold: Gold, ph: Phones) -> Words:
    """Distinct non-SIL gold words (tdev2 skips SIL lines and keeps a set per file)."""
    t = gold.words
    keep = t.label != t.label_index(SIL) if t.label_index(SIL) >= 0 else np.ones(len(t), dtype=bool)
    f, on, off, lab = t.file[keep], t.onset[keep], t.offset[keep], t.label[keep]
    if len(on) and not strictly_sorted(f, on):
        order = np.lexsort((lab, off, on, f))
        f, on, off, lab = f[order], on[order], off[order], lab[order]
    if len(on):
        new = np.r_[True, (f[1:] != f[:-1]) | (on[1:] != on[:-1]) | (off[1:] != off[:-1]) | (lab[1:] != lab[:-1])]
        f, on, off, lab = f[new], on[new], off[new], lab[new]
        bad = np.flatnonzero((f[1:] == f[:-1]) & (on[1:] < off[:-1]))
        if len(bad):
            i = int(bad[0])
            raise InputError(f"words overlap in file {gold.files[f[i]]} ({on[i]!r}-{off[i]!r} and "
                             f"{on[i + 1]!r}-{off[i + 1]!r})", gold.path + "/words")
    starts = file_starts(f, len(gold.files))
    p0, p1 = covered_range(ph, f, on, off)
    return Words(file=f, onset=on, offset=off, label=lab, starts=starts,
                 n_types=n_distinct(lab), p0=p0, p1=np.maximum(p1, p0))


def word_ranges(w: Words, file: np.ndarray, s: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """[lo, hi): words of `file` with onset < e and offset > s."""
    lo = search(w.starts, w.offset, file, s, side="right")
    return lo, np.maximum(search(w.starts, w.onset, file, e, side="left"), lo)


def _choose(ph: Phones, w: Words, file: np.ndarray, on: np.ndarray, off: np.ndarray,
            k0: np.ndarray, k1: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Per fragment: the chosen gold word (-1: none), whether it is a hit; and the number of
    fragments with a tie that could matter."""
    n = len(on)
    lo, hi = word_ranges(w, file, on, off)
    nw = hi - lo
    chosen = np.full(n, -1, dtype=np.int64)
    ties = 0
    if n and nw.sum():
        frag = np.repeat(np.arange(n), nw)
        first = np.cumsum(nw) - nw
        widx = lo[frag] + (np.arange(len(frag)) - first[frag])
        wo, wf = w.onset[widx], w.offset[widx]
        ov = (np.minimum(off[frag], wf) - np.maximum(on[frag], wo)) / (wf - wo)
        has = np.flatnonzero(nw > 0)
        best = np.full(n, -np.inf)
        best[has] = np.maximum.reduceat(ov, first[has])
        cand = ov == best[frag]
        ncand = np.bincount(frag[cand], minlength=n)
        # ties where the choice can matter: a tied word whose phone count equals the fragment's
        tied = cand & (ncand[frag] > 1)
        could_hit = tied & ((w.p1[widx] - w.p0[widx]) == (k1 - k0)[frag])
        ties = n_distinct(frag[could_hit])
        pos = np.where(cand, np.arange(len(frag)), len(frag))
        pick = np.minimum.reduceat(pos, first[has])
        chosen[has] = widx[pick]
    hit = np.zeros(n, dtype=bool)
    c = np.flatnonzero(chosen >= 0)
    if len(c):
        wl = w.p1[chosen[c]] - w.p0[chosen[c]]
        L = k1[c] - k0[c]
        same = np.flatnonzero((wl == L) & (L > 0))
        if len(same):
            cs = c[same]
            Ls = L[same]
            rep = np.repeat(np.arange(len(cs)), Ls)
            first = np.cumsum(Ls) - Ls
            off_in = np.arange(len(rep)) - first[rep]
            a = ph.label[k0[cs][rep] + off_in]
            b = ph.label[w.p0[chosen[cs]][rep] + off_in]
            eq = np.logical_and.reduceat(a == b, first)
            hit[cs[eq]] = True
    return chosen, hit, ties


BLOCK = 1 << 17     # fragments matched at once (bounded temporaries at any corpus size)


def token_type(ph: Phones, w: Words, file: np.ndarray, on: np.ndarray, off: np.ndarray,
               k0: np.ndarray, k1: np.ndarray, ngram: np.ndarray) -> dict:
    """Counts and P/R for distinct kept fragments (phone ranges [k0, k1), string ids)."""
    n = len(on)
    chosen = np.full(n, -1, dtype=np.int64)
    hit = np.zeros(n, dtype=bool)
    ties = 0
    for a in range(0, n, BLOCK):     # each fragment's word and hit depend on it alone
        b = min(n, a + BLOCK)
        chosen[a:b], hit[a:b], t = _choose(ph, w, file[a:b], on[a:b], off[a:b], k0[a:b], k1[a:b])
        ties += t
    token_hit = n_distinct(chosen[hit])
    types_seen = n_distinct(ngram)
    type_hit = n_distinct(ngram[hit])
    nan = float("nan")
    return {
        "token_precision": token_hit / n if n else nan,
        "token_recall": token_hit / len(w) if len(w) else nan,
        "type_precision": type_hit / types_seen if types_seen else nan,
        "type_recall": type_hit / w.n_types if w.n_types else nan,
        "counts": {"token_hits": token_hit, "gold_tokens": len(w), "types_seen": types_seen,
                   "type_hits": type_hit, "gold_types": w.n_types, "tied_word_choices": ties},
        "hit": hit, "chosen": chosen,      # per fragment, for per-file statistics (bootstrap)
    }
