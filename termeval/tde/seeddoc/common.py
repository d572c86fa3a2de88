"""Common ground of the two seed modes (seed-definitions.md §2): integer-µs times, pauses,
phone ranges, the transcription of a fragment, distinct fragments and clusters as sets.

A `Corpus` holds everything in phone-index space: phones are the `phones` lines minus SIL,
numbered globally in (file, time) order, so a phone range is (k0, k1) with k0 < k1 inside one
file; `stretch[k]` numbers the maximal pause-free runs. `Corpus.restrict(files)` is a fold:
the same arrays (global phone indices are kept) limited to some files.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from termeval.core.datadir import Classes, Gold, file_starts
from termeval.core.intervals import search
from termeval.tde.benchmarks import seed_rules

SIL = "SIL"
MS30 = 30_000                      # 30 ms in µs


def to_us(t: np.ndarray) -> np.ndarray:
    """Seconds -> nearest integer µs, ties upward (§2.1)."""
    return np.floor(np.asarray(t, np.float64) * 1e6 + 0.5).astype(np.int64)


def keep_edge(o: np.ndarray, d: np.ndarray, mode: str) -> np.ndarray:
    """Edge-phone rule (§2.3): zr2015-doc `o > 30 ms or 2o > d` (V1), lrec2014 `>=` (V2)."""
    if seed_rules(mode).edge_inclusive:
        return (o >= MS30) | (2 * o >= d)
    return (o > MS30) | (2 * o > d)


@dataclass
class Corpus:
    files: list[str]
    speaker: np.ndarray          # speaker id per file
    # phones (SIL removed), global order (file, onset)
    ph_file: np.ndarray
    ph_on: np.ndarray            # µs
    ph_off: np.ndarray
    ph_lab: np.ndarray           # label id
    labels: list[str]
    stretch: np.ndarray          # pause-free run id per phone
    # gold word tokens as phone ranges (words containing no phone are left out)
    w_k0: np.ndarray
    w_k1: np.ndarray
    # gold boundary points (file, µs): distinct word onsets and offsets
    b_file: np.ndarray
    b_t: np.ndarray
    # distinct kept fragments: file, times (µs), transcribed range [k0, k1)
    f_file: np.ndarray
    f_on: np.ndarray
    f_off: np.ndarray
    f_k0: np.ndarray
    f_k1: np.ndarray
    # cluster membership (distinct (fragment, cluster) pairs, sorted by cluster then fragment)
    m_frag: np.ndarray
    m_cls: np.ndarray
    ncls: int
    discarded: int = 0           # fragments with an empty transcription (before dedup)
    ph_in: np.ndarray | None = None   # phones of the fold (None: all)

    @property
    def nfiles(self) -> int:
        return len(self.files)

    @property
    def phone_mask(self) -> np.ndarray:
        return np.ones(len(self.ph_on), bool) if self.ph_in is None else self.ph_in

    def restrict(self, file_mask: np.ndarray) -> "Corpus":
        """The corpus limited to the files where file_mask is true (a fold, §2.10). Phone
        arrays stay whole (ranges keep their global indices); ph_in marks the fold's phones."""
        pk = file_mask[self.ph_file] & self.phone_mask
        wk = file_mask[self.ph_file[self.w_k0]] if len(self.w_k0) else np.zeros(0, bool)
        bk = file_mask[self.b_file]
        fk = file_mask[self.f_file]
        newid = np.cumsum(fk) - 1
        mk = fk[self.m_frag]
        return Corpus(self.files, self.speaker, self.ph_file, self.ph_on, self.ph_off,
                      self.ph_lab, self.labels, self.stretch,
                      self.w_k0[wk], self.w_k1[wk], self.b_file[bk], self.b_t[bk],
                      self.f_file[fk], self.f_on[fk], self.f_off[fk], self.f_k0[fk], self.f_k1[fk],
                      newid[self.m_frag[mk]], self.m_cls[mk], self.ncls, self.discarded, pk)


@dataclass
class PhoneTable:
    """Whole-corpus phone arrays (global indices) every fold indexes into."""
    file: np.ndarray
    on: np.ndarray
    off: np.ndarray
    lab: np.ndarray
    stretch: np.ndarray
    starts: np.ndarray           # phones of file f: starts[f]:starts[f+1]


def phone_table(gold: Gold) -> tuple[PhoneTable, list[str]]:
    t = gold.phones
    sil = t.label_index(SIL)
    keep = t.label != sil if sil >= 0 else np.ones(len(t), bool)
    f = t.file[keep].astype(np.int64)
    on, off, lab = to_us(t.onset[keep]), to_us(t.offset[keep]), t.label[keep].astype(np.int64)
    order = np.lexsort((off, on, f))
    f, on, off, lab = f[order], on[order], off[order], lab[order]
    new = np.ones(len(f), bool)
    if len(f):
        new[1:] = (f[1:] != f[:-1]) | (on[1:] != off[:-1])
    stretch = np.cumsum(new) - 1
    return PhoneTable(f, on, off, lab, stretch, file_starts(f, len(gold.files))), list(t.labels)


def transcribe(pt: PhoneTable, file: np.ndarray, s: np.ndarray, e: np.ndarray,
               mode: str) -> tuple[np.ndarray, np.ndarray]:
    """Kept phone range [k0, k1) of each fragment (§2.3); k0 == k1: empty transcription."""
    lo = search(pt.starts, pt.off, file, s, side="right")     # first phone with offset > s
    hi = search(pt.starts, pt.on, file, e, side="left")       # first phone with onset >= e
    k0, k1 = lo.copy(), np.maximum(hi, lo)
    n = k1 - k0
    for first in (True, False):
        i = np.flatnonzero(n >= (1 if first else 2))
        if not len(i):
            continue
        p = lo[i] if first else hi[i] - 1
        a, b = pt.on[p], pt.off[p]
        o = np.minimum(e[i], b) - np.maximum(s[i], a)
        inside = (s[i] <= a) & (b <= e[i])
        drop = ~(inside | keep_edge(o, b - a, mode))
        if first:
            k0[i] += drop
        else:
            k1[i] -= drop
    k1 = np.maximum(k1, k0)
    return k0, k1


def word_ranges(pt: PhoneTable, gold: Gold) -> tuple[np.ndarray, np.ndarray]:
    """Each word as the range of the phones it contains (§2.5); words with none left out."""
    w = gold.words
    f = w.file.astype(np.int64)
    s, e = to_us(w.onset), to_us(w.offset)
    k0 = search(pt.starts, pt.on, f, s, side="left")          # first phone with onset >= s
    k1 = search(pt.starts, pt.off, f, e, side="right")        # phones with offset <= e
    keep = k1 > k0
    return k0[keep], k1[keep]


def build_corpus(gold: Gold, classes: Classes, mode: str) -> Corpus:
    pt, labels = phone_table(gold)
    w_k0, w_k1 = word_ranges(pt, gold)
    wf = gold.words.file.astype(np.int64)
    ws, we = to_us(gold.words.onset), to_us(gold.words.offset)
    b = np.unique(np.r_[wf * (1 << 42) + ws, wf * (1 << 42) + we]) if len(wf) else np.zeros(0, np.int64)
    cf = classes.file.astype(np.int64)
    cs, ce = to_us(classes.onset), to_us(classes.offset)
    k0, k1 = transcribe(pt, cf, cs, ce, mode)
    ok = k1 > k0
    discarded = int((~ok).sum())
    # distinct fragments by (file, onset, offset): §2.4
    key = np.stack([cf[ok], cs[ok], ce[ok]], 1)
    uniq, inv = np.unique(key, axis=0, return_inverse=True) if len(key) else (np.zeros((0, 3), np.int64), np.zeros(0, np.int64))
    inv = inv.reshape(-1)
    first = np.zeros(len(uniq), np.int64)
    first[inv[::-1]] = np.arange(len(inv))[::-1]
    kk0, kk1 = k0[ok][first], k1[ok][first]
    mem = np.unique(np.stack([classes.cls[ok].astype(np.int64), inv], 1), axis=0) if len(inv) else np.zeros((0, 2), np.int64)
    spk_names = sorted(set(gold.speaker))
    spk_id = {s: i for i, s in enumerate(spk_names)}
    return Corpus(list(gold.files), np.array([spk_id[s] for s in gold.speaker], np.int64),
                  pt.file, pt.on, pt.off, pt.lab, labels, pt.stretch, w_k0, w_k1,
                  b >> 42, b & ((1 << 42) - 1),
                  uniq[:, 0], uniq[:, 1], uniq[:, 2], kk0, kk1, mem[:, 1], mem[:, 0],
                  len(classes.keys), discarded)


# ----------------------------------------------------------------------------- strings

class Strings:
    """Exact ids of phone strings T(u) of arbitrary ranges (label byte slices interned)."""

    def __init__(self, lab: np.ndarray) -> None:
        self.bytes = np.asarray(lab, "<i4").tobytes()
        self.table: dict[bytes, int] = {}

    def ids(self, k0: np.ndarray, k1: np.ndarray) -> np.ndarray:
        b, t = self.bytes, self.table
        return np.fromiter((t.setdefault(b[4 * i:4 * j], len(t)) for i, j in zip(k0.tolist(), k1.tolist())),
                           np.int64, count=len(k0))

    def text(self, sid: int) -> tuple[int, ...]:
        """The labels of string `sid` (slow: for templates, looked up once per string)."""
        if not hasattr(self, "_rev") or len(self._rev) != len(self.table):
            self._rev = {v: k for k, v in self.table.items()}
        return tuple(np.frombuffer(self._rev[sid], "<i4").tolist())


def pause_free(c: Corpus | PhoneTable, k0: np.ndarray, k1: np.ndarray) -> np.ndarray:
    st = c.stretch
    return st[k0] == st[k1 - 1]


# ----------------------------------------------------------------------------- ratios

def ratio(num: float, den: float) -> float | None:
    """§1.3: a zero denominator is undefined."""
    return None if den == 0 else num / den


def fscore(p: float | None, r: float | None) -> float | None:
    if p is None or r is None:
        return None
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)
