"""The generated gold n-gram classes (spec §2.3) of zr2015/zr2017: type codes of phone windows,
and what each fold needs of the classes, counted one n-gram length at a time, never listed.

* `NgramIndex` gives every window (phone start i, length L <= 20) inside one segment an exact
  integer type code (iterated ranking of (code of L-1, next label)), so marks of sub-fragments
  are integers, never tuples; codes are ordered by (L, label sequence).
* Without a `<prefix>.classes` file the gold classes are the 3..20-gram types occurring at least
  twice inside segments, every occurrence a fragment (x1 of the English benchmark: 4.7 M
  fragments; x10: 60 M). `fold_gold` computes, over the phone starts of the fold's files and
  one length at a time (memory ~ the fold's phones, never the gold fragments):
  - R1(G, F): the windows (i, L) of a corpus-repeated type inside the fold (folds.contained on
    their span); coverage's denominator needs only the longest one per start (the shorter ones
    lie inside it, so the union and its components are the same);
  - Pgold = PWo(R2(G, F)) for matching: a type with k >= 2 windows in the fold has k(k-1)
    ordered pairs minus 2 per OV pair (file-blind sweep among its windows); nmatch and w per
    type code; a window's gold class is its type code when the type repeats in the fold.
* `ngram_classes` materialises the classes as corpus.Fragments (the reference of the tests).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from termeval.data import file_starts
from termeval.zr2015 import coverage
from termeval.zr2015.corpus import Fragments, Segmented, ov
from termeval.zr2015.folds import Intervals, contained
from termeval.intervals import last_le
from termeval.zr2015.pairs import concat_ranges, dense_codes, uniq

MAXN = 20           # gold n-grams: 3..20 phones
MINN = 3
KL = 32             # sub-fragment key = phone start * KL + length (termeval.zr2015.completion)


class NgramIndex:
    """Exact type codes of all windows (i, L), L = 1..MAXN, inside one segment."""

    def __init__(self, sg: Segmented, maxn: int = MAXN):
        n = len(sg)
        self.n = n
        self.maxn = maxn
        self.onset, self.offset = sg.onset, sg.offset
        self.ids: list[np.ndarray] = [np.zeros(0, np.int64)]
        self.base = np.zeros(maxn + 2, dtype=np.int64)
        lab = sg.label.astype(np.int64)
        nlab = int(lab.max()) + 1 if n else 1
        prev = lab.astype(np.int32)
        self.ids.append(prev)
        self.base[2] = nlab
        seg = sg.seg
        # windows whose prefix type repeats, in the order of their prefix code (stable sorts
        # of keys sorted by blocks are cheap); the others extend a unique prefix
        order = np.argsort(lab, kind="stable")
        for L in range(2, maxn + 1):
            cur = np.full(n, -1, dtype=np.int32)
            nt = 0
            m = n - L + 1
            if m > 0:
                npt = int(self.base[L] - self.base[L - 1])
                cnt = np.bincount(prev[prev >= 0], minlength=npt)
                order = order[order < m]
                order = order[(seg[order + (L - 1)] == seg[order]) & (cnt[prev[order]] >= 2)]
                pos = np.flatnonzero((prev[:m] >= 0) & (seg[L - 1:] == seg[:m]))
                pos = pos[cnt[prev[pos]] < 2]
                order, code, nt = _extend(order, prev[order].astype(np.int64), lab[order + (L - 1)],
                                          prev[pos], nlab, npt)
                cur[order] = code[:len(order)]
                cur[pos] = code[len(order):]
            self.ids.append(cur)
            self.base[L + 1] = self.base[L] + nt
            prev = cur
        self.ntypes = int(self.base[maxn + 1])

    def ntypes_of(self, L: int) -> int:
        """Number of types of length L (their codes are base[L]..base[L+1]-1)."""
        return int(self.base[L + 1] - self.base[L])

    def code(self, start: np.ndarray, length: np.ndarray) -> np.ndarray:
        """Type code of windows (start, length); -1 where invalid (length 0 or > maxn or
        crossing a segment)."""
        start = np.asarray(start, dtype=np.int64)
        length = np.asarray(length, dtype=np.int64)
        out = np.full(len(start), -1, dtype=np.int64)
        for L in np.flatnonzero(np.bincount(np.clip(length, 0, self.maxn + 1))):
            if L < 1 or L > self.maxn:
                continue
            sel = length == L
            c = self.ids[L][start[sel]].astype(np.int64)
            out[sel] = np.where(c >= 0, c + self.base[L], -1)
        return out


def _extend(order: np.ndarray, p: np.ndarray, lab: np.ndarray, p1: np.ndarray, nlab: int,
            npt: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Codes of the windows of length L = ranks of the keys (prefix code, last label) among
    the distinct ones. `order`: the windows with a repeated prefix, sorted by prefix code p,
    with their last labels; p1: the prefix codes of the others (at most one key each, whose
    rank is the number of distinct keys of the smaller prefixes). Returns (`order` sorted by
    key, codes of order then of p1, number of distinct keys)."""
    key = p * np.int64(nlab) + lab
    o = np.argsort(key, kind="stable")
    order, key = order[o], key[o]
    new = np.ones(len(key), dtype=bool)
    new[1:] = key[1:] != key[:-1]
    grp = np.cumsum(new) - 1                                # distinct key of each window
    up = key[new] // nlab
    ext = np.bincount(up, minlength=npt)                    # distinct extensions per prefix
    ext[p1] = 1
    first = np.cumsum(ext) - ext                            # rank of the prefix's first key
    local = np.arange(len(up)) - np.searchsorted(up, up)
    code = np.concatenate([(first[up] + local)[grp], first[p1]])
    return order, code, int(ext.sum())


def ngram_classes(sg: Segmented, idx: NgramIndex, marks: dict) -> Fragments:
    """The gold n-gram classes regenerated (spec §2.3): one class per 3..20-gram type inside a
    segment occurring at least twice, every occurrence, span = [first onset, last offset].
    Fragments come sorted by (phone start, length) = (file, onset, offset), so folds take
    per-file slices; classes are numbered densely (L, then type code); no sort anywhere."""
    n, nl = len(sg), MAXN - 2
    rep_mask = np.zeros((n, nl), dtype=bool)            # window (start, L) is a gold fragment
    per_l = []
    ncls = 0
    for L in range(3, MAXN + 1):
        c = idx.ids[L]
        valid = np.flatnonzero(c >= 0)
        if len(valid) == 0:
            continue
        cv = c[valid]
        repeated = np.bincount(cv) >= 2
        rep = valid[repeated[cv]]
        rank = np.cumsum(repeated, dtype=np.int64) - 1  # dense class of each repeated type
        rep_mask[rep, L - 3] = True
        per_l.append((L, rep, c[rep].astype(np.int64) + idx.base[L], rank[c[rep]] + ncls))
        ncls += int(rank[-1]) + 1 if len(rank) else 0
    # position of (start, L) in the row-major order of rep_mask = np.nonzero's order
    row_start = np.concatenate(([0], np.cumsum(rep_mask.sum(axis=1, dtype=np.int64))))
    st, li = np.nonzero(rep_mask)
    st = st.astype(np.int64)
    ln = li.astype(np.int64) + 3
    below = np.cumsum(rep_mask, axis=1, dtype=np.uint8)  # windows of length <= L at the start
    del rep_mask
    cd = np.empty(len(st), dtype=np.int64)
    cls = np.empty(len(st), dtype=np.int64)
    for L, rep, code, dense in per_l:
        pos = row_start[rep] + below[rep, L - 3] - 1
        cd[pos] = code
        cls[pos] = dense
    del below, per_l
    f = sg.file[st]
    on = sg.onset[st]
    off = sg.offset[st + ln - 1]
    frags = Fragments(file=f, onset=on, offset=off, run_start=st, run_len=ln, mark=cd, marks=[],
                      occ_cls=cls, occ_frag=np.arange(len(st), dtype=np.int64),
                      nclasses=ncls, counts={"classes_kept": ncls, "distinct_fragments": int(len(st))})
    frags.generated = True
    return frags


class GoldNgrams:
    """The corpus side of the generated gold classes: which types of each length repeat."""

    def __init__(self, sg: Segmented, idx: NgramIndex, nfiles: int):
        self.sg, self.idx = sg, idx
        self.fstart = file_starts(sg.file, nfiles)
        self.repeated: dict[int, np.ndarray] = {}
        self.positive = bool(np.all(sg.offset > sg.onset) and np.all(sg.onset >= 0))
        ncls = nfrag = 0
        for L in range(MINN, idx.maxn + 1):
            c = idx.ids[L]
            cnt = np.bincount(c[c >= 0], minlength=idx.ntypes_of(L))
            rep = cnt >= 2
            self.repeated[L] = rep
            ncls += int(np.count_nonzero(rep))
            nfrag += int(cnt[rep].sum())
        self.counts = {"classes_kept": ncls, "distinct_fragments": nfrag}


@dataclass
class FoldGold:
    """The generated gold classes seen from one fold (see the module docstring)."""
    ug: np.ndarray             # sorted codes of the types with >= 2 windows in the fold
    n_gold: np.ndarray         # nmatch(t, Pgold) of each
    w_u: np.ndarray            # codes of flat(Pgold) and their window counts
    w_c: np.ndarray
    n_flat: int                # |flat(Pgold)|
    cover: tuple               # coverage.components of R1(G, F) (from the longest window per start)
    fold: Intervals
    gn: GoldNgrams
    whole: bool = False        # the fold is the whole corpus (all files, whole)

    def gold_class(self, keys: np.ndarray) -> np.ndarray:
        """Gold class (= type code) of sub-fragment keys, -1 where the window is not a gold
        fragment of the fold in a class with >= 2 of them."""
        sg, idx = self.gn.sg, self.gn.idx
        keys = np.asarray(keys, dtype=np.int64)
        s, L = keys // KL, keys % KL
        code = np.full(len(keys), -1, dtype=np.int64)
        for ln in np.flatnonzero(np.bincount(np.clip(L, 0, idx.maxn + 1))):
            if ln < MINN or ln > idx.maxn:
                continue
            sel = np.flatnonzero(L == ln)
            c = idx.ids[ln][s[sel]]
            if self.whole:                   # the fold's counts are the corpus counts
                ok = c >= 0
                ok[ok] = self.gn.repeated[ln][c[ok]]
            else:
                c = np.where(c >= 0, c + idx.base[ln], -1)
                pos = np.clip(np.searchsorted(self.ug, c), 0, max(len(self.ug) - 1, 0))
                ok = (self.ug[pos] == c) if len(self.ug) else np.zeros(len(c), dtype=bool)
                c = c - idx.base[ln]
            code[sel[ok]] = c[ok] + idx.base[ln]
        if not (self.whole and self.gn.positive):
            k = np.flatnonzero(code >= 0)
            inside = contained(self.fold, sg.file[s[k]], sg.onset[s[k]], sg.offset[s[k] + L[k] - 1])
            code[k[~inside]] = -1
        return code

    gold_class.returns_codes = True          # (termeval.zr2015.completion: no second lookup)


def fold_gold(gn: GoldNgrams, fold: Intervals, mode: str) -> FoldGold:
    sg, idx = gn.sg, gn.idx
    n = len(sg)
    files = uniq(np.asarray(fold.file, dtype=np.int64))
    files = files[(files >= 0) & (files < len(gn.fstart) - 1)]
    whole = fold.whole_files and len(files) == len(gn.fstart) - 1    # every phone: no copies
    P = np.arange(n) if whole else concat_ranges(gn.fstart[files], gn.fstart[files + 1])
    qs = sg.onset if whole else sg.onset[P]
    # folds.contained, per start: a window (i, L) is inside iff its end <= lim[i] and > onset;
    # whole files, onsets >= 0 and positive phones (offsets grow along a segment): every window
    simple = fold.whole_files and gn.positive
    if not simple:
        if fold.whole_files:
            lim = np.where(qs >= 0, np.inf, -np.inf)
        else:
            r = last_le(fold.file, fold.onset, sg.file[P], qs)
            lim = np.where(r >= 0, np.asarray(fold.offset, dtype=np.float64)[np.maximum(r, 0)], -np.inf)
    seq = None                # kept windows of the previous length, by (type, onset)
    if whole:
        P = None                                                    # P[i] = i below
    lmax = np.zeros(len(qs), dtype=np.int8)
    ug, ng, wu, wc = [], [], [], []
    n_flat = 0
    for L in range(MINN, idx.maxn + 1):
        c = idx.ids[L] if whole else idx.ids[L][P]
        if simple:
            k = np.flatnonzero(c >= 0)                              # R1 windows of any type
        else:
            qe = sg.offset[np.minimum((np.arange(n) if whole else P) + (L - 1), n - 1)]
            k = np.flatnonzero((c >= 0) & (qe > qs) & (qe <= lim))
        c = c[k]
        rep = gn.repeated[L][c]                                     # R1(G, F)
        k, c = k[rep], c[rep]
        lmax[k] = L
        # types with >= 2 windows in the fold, renumbered 0..nt-1 in code order
        d, nt = dense_codes(c, idx.ntypes_of(L))
        cnt = np.bincount(d, minlength=nt)
        keep = cnt[d] >= 2
        k, c, d = k[keep], c[keep], d[keep]
        code_of = np.zeros(nt, dtype=np.int64)
        code_of[d] = c
        # windows by (type, onset) (files ignored): OV partners found by a sweep
        k, d = _by_type_and_onset(k, d, qs, seq)
        seq = k
        on, off = qs[k], sg.offset[(k if whole else P[k]) + (L - 1)]
        deg = cnt[d] - 1 - _ov_partners(d, on, off, mode)
        t = np.flatnonzero(cnt >= 2)
        ug.append(code_of[t] + idx.base[L])
        ng.append(np.bincount(d, weights=deg, minlength=nt).astype(np.int64)[t])
        flat = deg > 0
        n_flat += int(np.count_nonzero(flat))
        fc = np.bincount(d[flat], minlength=nt)
        t = np.flatnonzero(fc)
        wu.append(code_of[t] + idx.base[L])
        wc.append(fc[t])
    st = np.flatnonzero(lmax)
    i0 = st if whole else P[st]
    comp = coverage.components(sg.file[i0], sg.onset[i0], sg.offset[i0 + lmax[st].astype(np.int64) - 1], mode)
    cat = (lambda xs: np.concatenate(xs) if xs else np.zeros(0, np.int64))
    return FoldGold(ug=cat(ug), n_gold=cat(ng), w_u=cat(wu), w_c=cat(wc), n_flat=n_flat,
                    cover=comp, fold=fold, gn=gn, whole=whole)


def _by_type_and_onset(k: np.ndarray, d: np.ndarray, qs: np.ndarray, seq: np.ndarray | None):
    """Windows k (starts) of types d sorted by (type, onset). A window repeated in the fold
    has a repeated prefix, so the windows usually all sit in `seq` (the previous length's,
    sorted by (prefix type, onset)): a stable sort by type of that order is cheap (its keys are
    sorted by blocks)."""
    if seq is not None:
        at = np.full(len(qs), -1, dtype=np.int64)
        at[k] = np.arange(len(k))
        s = seq[at[seq] >= 0]
        if len(s) == len(k):                 # else: zero-length phones broke the inclusion
            ds = d[at[s]]
            o = np.argsort(ds, kind="stable")
            return s[o], ds[o]
    o = np.lexsort((qs[k], d))
    return k[o], d[o]


def _ov_partners(group: np.ndarray, on: np.ndarray, off: np.ndarray, mode: str) -> np.ndarray:
    """Items sorted by (group, onset): per item, the number of items of its group in a
    file-blind OV with it (an OV needs a positive overlap: a sweep over later onsets)."""
    n = len(group)
    hit = []
    act = np.arange(n - 1)
    step = 1
    while len(act):
        j = act + step
        ok = (group[j] == group[act]) & (on[j] <= off[act])        # later onsets only get larger
        act, j = act[ok], j[ok]
        bad = ov(on[act], off[act], on[j], off[j], mode)
        hit += [act[bad], j[bad]]
        step += 1
        act = act[act + step < n]
    return np.bincount(np.concatenate(hit), minlength=n) if hit else np.zeros(n, dtype=np.int64)
