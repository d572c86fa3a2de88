"""The generated gold n-gram classes (spec §2.3) of zr2015/zr2017: type codes of phone windows,
and what each fold needs of the classes, counted one n-gram length at a time, never listed.

* `NgramIndex` (termeval.tde.zr2015.ngramindex) gives every window (phone start i, length L <= 20)
  inside one segment an exact integer type code, so marks of sub-fragments are integers, never
  tuples; codes are ordered by (L, label sequence). What the corpus decides (does a window's
  type repeat?) is one int8 per phone start (`GoldNgrams.rep_len`), so a fold counts its gold
  side with the codes of an index of its own files or of some lengths only.
* Without a `<prefix>.classes` file the gold classes are the 3..20-gram types occurring at least
  twice inside segments, every occurrence a fragment (x1 of the English benchmark: 4.7 M
  fragments; x10: 60 M). `fold_gold` computes, over the phone starts of the fold's files and
  one length at a time (memory ~ the fold's phones, never the gold fragments):
  - R1(G, F): the windows (i, L <= rep_len[i]) inside the fold (folds.contained on their
    span); coverage's denominator needs only the longest one per start (the shorter ones lie
    inside it, so the union and its components are the same): no type code at all;
  - Pgold = PWo(R2(G, F)) for matching: a type with k >= 2 windows in the fold has k(k-1)
    ordered pairs minus 2 per OV pair (file-blind sweep among its windows); nmatch and w per
    type code; a window's gold class is its type code when the type repeats in the fold.
* `ngram_classes` materialises the classes as corpus.Fragments (the reference of the tests).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from termeval.core.datadir import file_starts
from termeval.tde.zr2015 import coverage
from termeval.tde.zr2015.corpus import Fragments, Segmented, ov
from termeval.tde.zr2015.folds import Intervals, contained
from termeval.core.intervals import last_le
from termeval.tde.zr2015.completion import KL  # (sub-fragment keys)
from termeval.tde.zr2015.pairs import chunk, class_ranges, concat_ranges, dense_codes, uniq

from termeval.tde.zr2015.ngramindex import MAXN, MINN, NgramIndex, repeat_lengths  # noqa: F401 (re-exported)


def ngram_classes(sg: Segmented, idx: NgramIndex, marks: dict) -> Fragments:
    """The gold n-gram classes regenerated (spec §2.3): one class per 3..20-gram type inside a
    segment occurring at least twice, every occurrence, span = [first onset, last offset].
    Fragments come sorted by (phone start, length) = (file, onset, offset), so folds take
    per-file slices; classes are numbered densely (L, then type code); no sort anywhere."""
    st, ln, cd, cls, ncls = _in_window_order(*_repeated_types(idx), len(sg))
    f = sg.file[st]
    on = sg.onset[st]
    off = sg.offset[st + ln - 1]
    return Fragments(file=f, onset=on, offset=off, run_start=st, run_len=ln, mark=cd, marks=[],
                     occ_cls=cls, occ_frag=np.arange(len(st), dtype=np.int64),
                     nclasses=ncls, counts={"classes_kept": ncls, "distinct_fragments": int(len(st))},
                     generated=True)


def _repeated_types(idx: NgramIndex) -> tuple[list, int]:
    """([(L, starts of the windows of a repeated type, their codes, their dense classes) per
    length L], number of classes)."""
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
        per_l.append((L, rep, c[rep].astype(np.int64) + idx.base[L], rank[c[rep]] + ncls))
        ncls += int(rank[-1]) + 1 if len(rank) else 0
    return per_l, ncls


def _in_window_order(per_l: list, ncls: int, n: int) -> tuple:
    """(start, length, code, class) of the windows of _repeated_types, sorted by (start,
    length), and the number of classes."""
    row_start, st, ln, below = _window_rows(per_l, n)
    cd = np.empty(len(st), dtype=np.int64)
    cls = np.empty(len(st), dtype=np.int64)
    for L, rep, code, dense in per_l:
        pos = row_start[rep] + below[rep, L - 3] - 1
        cd[pos] = code
        cls[pos] = dense
    return st, ln, cd, cls, ncls


def _window_rows(per_l: list, n: int) -> tuple:
    """(first position of each start, start and length of every window in (start, length)
    order, windows of length <= L at each start) of the windows of _repeated_types."""
    rep_mask = np.zeros((n, MAXN - 2), dtype=bool)      # window (start, L) is a gold fragment
    for L, rep, _, _ in per_l:
        rep_mask[rep, L - 3] = True
    # position of (start, L) in the row-major order of rep_mask = np.nonzero's order
    row_start = np.concatenate(([0], np.cumsum(rep_mask.sum(axis=1, dtype=np.int64))))
    st, li = np.nonzero(rep_mask)
    below = np.cumsum(rep_mask, axis=1, dtype=np.uint8)
    return row_start, st.astype(np.int64), li.astype(np.int64) + 3, below


class GoldNgrams:
    """The corpus side of the generated gold classes: per phone start, the longest repeated
    window (ngramindex.repeat_lengths), and the classes' counts. It holds no type code: a fold
    takes them from an index of its own files or of the matching band it scores."""

    def __init__(self, sg: Segmented, nfiles: int, rep_len: np.ndarray, counts: dict):
        self.sg, self.rep_len, self.counts = sg, rep_len, dict(counts)
        self.fstart = sg.file_starts(nfiles)
        self.positive = bool(np.all(sg.offset > sg.onset) and np.all(sg.onset >= 0))

    @classmethod
    def of_index(cls, sg: Segmented, idx: NgramIndex, nfiles: int) -> "GoldNgrams":
        rep_len, counts = repeat_lengths(idx)
        return cls(sg, nfiles, rep_len, counts)

    def fold_positions(self, fold: Intervals) -> tuple[np.ndarray | None, bool]:
        """(phones of the fold's files or None for every phone, whether the fold is the
        whole corpus: every file, whole)."""
        pos = fold_phones(self.fstart, fold)
        if pos is None and not fold.whole_files:          # every file, parts of them
            pos = np.arange(self.fstart[-1], dtype=np.int64)
        return pos, pos is None


def fold_phones(fstart: np.ndarray, fold: Intervals) -> np.ndarray | None:
    """The phones of the fold's files (fstart: each file's first phone, then the count), None
    when the fold has every file."""
    files = uniq(np.asarray(fold.file, dtype=np.int64))
    files = files[(files >= 0) & (files < len(fstart) - 1)]
    if len(files) == len(fstart) - 1:
        return None
    return concat_ranges(fstart[files], fstart[files + 1])


@dataclass
class FoldGold:
    """The generated gold classes seen from one fold (see the module docstring), for the
    n-gram lengths the fold was counted for (`lengths`)."""
    ug: np.ndarray             # sorted codes of the types with >= 2 windows in the fold
    n_gold: np.ndarray         # nmatch(t, Pgold) of each
    w_u: np.ndarray            # codes of flat(Pgold) and their window counts
    w_c: np.ndarray
    n_flat: int                # |flat(Pgold)|
    cover: tuple | None        # coverage.components of R1(G, F) (from the longest window per start)
    fold: Intervals
    gn: GoldNgrams
    idx: NgramIndex | None
    whole: bool = False        # the fold is the whole corpus (all files, whole)

    def gold_class(self, keys: np.ndarray) -> np.ndarray:
        """Gold class (= type code) of sub-fragment keys, -1 where the window is not a gold
        fragment of the fold in a class with >= 2 of them."""
        sg, idx = self.gn.sg, self.idx
        keys = np.asarray(keys, dtype=np.int64)
        s, L = keys // KL, keys % KL
        code = np.full(len(keys), -1, dtype=np.int64)
        for ln in np.flatnonzero(np.bincount(np.clip(L, 0, idx.maxn + 1))):
            if ln < MINN or ln > idx.maxn:
                continue
            sel = np.flatnonzero(L == ln)
            if self.whole:                   # the fold's counts are the corpus counts
                sel = sel[self.gn.rep_len[s[sel]] >= ln]
                code[sel] = idx.level(ln, s[sel]).astype(np.int64) + idx.base[ln]
            else:
                c = idx.level(ln, s[sel]).astype(np.int64)
                c = np.where(c >= 0, c + idx.base[ln], -1)
                pos = np.clip(np.searchsorted(self.ug, c), 0, max(len(self.ug) - 1, 0))
                ok = (self.ug[pos] == c) if len(self.ug) else np.zeros(len(c), dtype=bool)
                code[sel[ok]] = c[ok]
        if not (self.whole and self.gn.positive):
            k = np.flatnonzero(code >= 0)
            inside = contained(self.fold, sg.file[s[k]], sg.onset[s[k]], sg.offset[s[k] + L[k] - 1])
            code[k[~inside]] = -1
        return code


def fold_gold(gn: GoldNgrams, idx: NgramIndex | None, fold: Intervals, mode: str,
              lengths: tuple[int, int] = (MINN, MAXN), cover: bool = True) -> FoldGold:
    """The fold's gold side for the n-gram lengths lengths[0]..lengths[1] (type codes from
    `idx`, which holds at least those levels over the fold's files; None with no lengths),
    and coverage's components of R1(G, F) when `cover` (from gn.rep_len alone)."""
    sg = gn.sg
    n = len(sg)
    P, whole = gn.fold_positions(fold)
    qs = sg.onset if whole else sg.onset[P]
    rl = gn.rep_len if whole else gn.rep_len[P]
    # folds.contained, per start: a window (i, L) is inside iff its end <= lim[i] and > onset;
    # whole files, onsets >= 0 and positive phones (offsets grow along a segment): every window
    simple = fold.whole_files and gn.positive
    if not simple:
        if fold.whole_files:
            lim = np.where(qs >= 0, np.inf, -np.inf)
        else:
            r = last_le(fold.file, fold.onset, sg.file[P], qs)
            lim = np.where(r >= 0, np.asarray(fold.offset, dtype=np.float64)[np.maximum(r, 0)], -np.inf)
    lmax = np.zeros(len(qs), dtype=np.int8) if cover else None
    ug, ng, wu, wc = [], [], [], []
    n_flat = 0
    for L in range(MINN, (MAXN if cover else min(lengths[1], MAXN)) + 1):
        counted = lengths[0] <= L <= lengths[1]
        if not (counted or cover):
            continue
        # R1(G, F): windows of a corpus-repeated type (rep_len >= L: a valid window) in the fold
        if simple:
            k = np.flatnonzero(rl >= L)
        else:
            qe = sg.offset[np.minimum((np.arange(n) if whole else P) + (L - 1), n - 1)]
            k = np.flatnonzero((rl >= L) & (qe > qs) & (qe <= lim))
        if cover:
            lmax[k] = L
        if not counted:
            continue
        k, d, cnt, code_of = _repeated_in_fold(k, idx.level(L, k if whole else P[k]), idx.ntypes_of(L))
        nt = len(cnt)
        ng_t, fc = np.zeros(nt), np.zeros(nt, dtype=np.int64)
        # types by ranges of about chunk() windows (memory)
        for tlo, thi in class_ranges(None, np.where(cnt >= 2, cnt, 0), chunk()):
            ng_r, nf_r, fc_r = _pairs_of_types(k, d, cnt, (tlo, thi), qs, sg.offset, None if whole else P, L, mode)
            ng_t += ng_r   # (a type's sum in one range)
            n_flat += nf_r
            fc += fc_r
        t = np.flatnonzero(cnt >= 2)
        ug.append(code_of[t] + idx.base[L])
        ng.append(ng_t.astype(np.int64)[t])
        t = np.flatnonzero(fc)
        wu.append(code_of[t] + idx.base[L])
        wc.append(fc[t])
    comp = None
    if cover:
        st = np.flatnonzero(lmax)
        i0 = st if whole else P[st]
        comp = coverage.components(sg.file[i0], sg.onset[i0], sg.offset[i0 + lmax[st].astype(np.int64) - 1], mode)
    cat = (lambda xs: np.concatenate(xs) if xs else np.zeros(0, np.int64))
    return FoldGold(ug=cat(ug), n_gold=cat(ng), w_u=cat(wu), w_c=cat(wc), n_flat=n_flat,
                    cover=comp, fold=fold, gn=gn, idx=idx, whole=whole)


def _repeated_in_fold(k: np.ndarray, c: np.ndarray, ntypes: int) -> tuple:
    """The windows k (codes c of their length) of the types with >= 2 of them in the fold:
    (k, their types renumbered 0..nt-1 in code order, windows per type (nt), code of each type)."""
    d, nt = dense_codes(c, ntypes)
    cnt = np.bincount(d, minlength=nt)
    keep = cnt[d] >= 2
    k, c, d = k[keep], c[keep], d[keep]
    code_of = np.zeros(nt, dtype=np.int64)
    code_of[d] = c
    return k, d, cnt, code_of


def _pairs_of_types(k: np.ndarray, d: np.ndarray, cnt: np.ndarray, types: tuple[int, int], qs: np.ndarray,
                    offset: np.ndarray, P: np.ndarray | None, L: int, mode: str) -> tuple[np.ndarray, int, np.ndarray]:
    """The Pgold counts of the windows k (types d; window k starts at phone P[k], or k with P
    None; onsets qs[k]) of the types lo..hi-1: (nmatch per type, |flat| share, flat windows per
    type), the OV partners found by a file-blind sweep."""
    nt = len(cnt)
    if types == (0, nt):
        kk, dd = k, d
    else:
        sel = np.flatnonzero((d >= types[0]) & (d < types[1]))
        kk, dd = k[sel], d[sel]
    # windows by (type, onset) (files ignored): OV partners found by a sweep
    o = np.lexsort((qs[kk], dd))
    kk, dd = kk[o], dd[o]
    on, off = qs[kk], offset[(kk if P is None else P[kk]) + (L - 1)]
    deg = cnt[dd] - 1 - _ov_partners(dd, on, off, mode)
    flat = deg > 0
    return (np.bincount(dd, weights=deg, minlength=nt), int(np.count_nonzero(flat)),
            np.bincount(dd[flat], minlength=nt))


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
