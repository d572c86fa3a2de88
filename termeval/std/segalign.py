"""Segment-based alignment, F4DE KWSEval `-g` (re-derived from F4DE 3.5.0 KWSSegAlign.pm and
RTTMList::segmentsFromTimeframe; docs/std-metrics.md, "KWSEval features").

Trials are segments, not seconds. Each ECF excerpt is cut by the RTTM SPEAKER turns that lie
inside it (sorted by begin): a gap before a turn is a NONSPEECH segment, a turn starting where
the last segment ends opens a SPEECH segment, a turn overlapping the last SPEECH segment extends
it, and the rest of the excerpt is a last NONSPEECH segment. N (trials per term) = the number of
segments. A LEXEME belongs to the SPEECH segment it lies in, provided a turn of its speaker was
cut into that segment while the segment already covered it (the speaker tagging of F4DE).

Per term: a reference is a segment holding an occurrence whose first and last words belong to
that segment (several occurrences in one segment are one reference); a detection belongs to the
first segment (excerpt order, then time) holding its mid-point `tbeg + dur/2` (a detection in no
segment is ignored, as outside the ECF); of several detections of one segment only the highest
score is kept (the first on ties). The kept detection of a reference's segment is its hit.
Where a mid-point falls exactly on the boundary of two segments F4DE may also pair the detection
with a reference of the second segment (in Perl hash order); termeval uses the first segment only.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from termeval.core.errors import InputError
from termeval.core.textio import iter_lines
from termeval.std.align import grouped_rank
from termeval.std.ecf import Ecf, channel_number, file_id, round4
from termeval.std.rttm import Lexemes, Occurrences
from termeval.std.xmlsafe import clip

MAX_SPEAKER_TURNS = 50_000_000


@dataclass
class Segments:
    """Segments in F4DE's order (ECF excerpt order, then time): parallel arrays."""
    file: np.ndarray      # object, file ids
    chan: np.ndarray      # int64
    beg: np.ndarray
    end: np.ndarray
    speech: np.ndarray    # bool

    def __len__(self) -> int:
        return len(self.file)


def read_speaker_turns(path: str) -> tuple[list, list, np.ndarray, np.ndarray, list]:
    """(file, channel, tbeg, tend = round4(tbeg + tdur), speaker) of the SPEAKER lines of an RTTM."""
    files, chans, tb, td, spk = [], [], [], [], []
    for lineno, line in iter_lines(path):
        if "SPEAKER" not in line:
            continue
        f = line.split(";;", 1)[0].split()
        if not f or f[0] != "SPEAKER":
            continue
        if len(f) < 9:
            raise InputError(f"RTTM SPEAKER line needs 9 fields, got {len(f)}", path, lineno)
        try:
            b, d = float(f[3]), float(f[4])
        except ValueError:
            raise InputError(f"bad tbeg/tdur '{clip(f[3] + ' ' + f[4])}'", path, lineno) from None
        if not (np.isfinite(b) and np.isfinite(d)) or b < 0 or d < 0:
            raise InputError("SPEAKER tbeg/tdur must be finite and >= 0", path, lineno)
        if len(files) >= MAX_SPEAKER_TURNS:
            raise InputError(f"more than {MAX_SPEAKER_TURNS} SPEAKER turns", path, lineno)
        files.append(file_id(f[1]))
        chans.append(channel_number(f[2], lineno, path) if f[2] not in ("<NA>", "NA") else 1)
        tb.append(b)
        td.append(d)
        spk.append(f[7])
    tbeg = np.asarray(tb, dtype=np.float64)
    return files, chans, tbeg, round4(tbeg + np.asarray(td, dtype=np.float64)), spk


def _r4(x: float) -> float:
    """F4DE's sprintf("%.4f") of one number, read back (ecf.round4 for a scalar)."""
    return float("%.4f" % x)


def build_segments(ecf: Ecf, turns) -> tuple[Segments, list]:
    """The segments of every excerpt, and the speaker taggings: (file, chan, speaker, segment,
    segment begin, segment end at that time) each time a turn is cut into a segment."""
    files, chans, tb, te, spk = turns
    by_fc: dict = {}
    for i in np.lexsort((tb,)):        # stable sort by begin, as Perl's sort
        by_fc.setdefault((files[i], chans[i]), []).append(int(i))
    begins = {k: tb[np.asarray(v, np.int64)] for k, v in by_fc.items()}
    sf, sc, sb, se, ss, tags = [], [], [], [], [], []
    for f, c, bt, et in zip(ecf.file, ecf.channel, ecf.tbeg, ecf.tend):
        f, c, bt, et = f, int(c), float(bt), float(et)
        first = len(sf)
        last_et = lambda: se[-1] if len(sf) > first else bt     # noqa: E731
        fc = by_fc.get((f, c), [])
        lo = int(np.searchsorted(begins[(f, c)], bt, side="left")) if fc else 0
        hi = int(np.searchsorted(begins[(f, c)], et, side="right")) if fc else 0
        for i in fc[lo:hi]:            # the turns beginning inside the excerpt
            if tb[i] < bt or te[i] > et:
                continue
            if tb[i] > last_et():
                le = last_et()
                sf.append(f); sc.append(c); sb.append(le); se.append(_r4((le + (tb[i] - le)))); ss.append(False)
            if last_et() == tb[i]:
                sf.append(f); sc.append(c); sb.append(float(tb[i]))
                se.append(_r4((tb[i] + (te[i] - tb[i])))); ss.append(True)
            elif ss[-1] and te[i] > last_et():
                se[-1] = float(te[i])
            tags.append((f, c, spk[i], len(sf) - 1, sb[-1], se[-1]))
        if last_et() < et:
            le = last_et()
            sf.append(f); sc.append(c); sb.append(le); se.append(_r4((le + (et - le)))); ss.append(False)
    seg = Segments(np.asarray(sf, dtype=object), np.asarray(sc, dtype=np.int64), np.asarray(sb, dtype=np.float64),
                   np.asarray(se, dtype=np.float64), np.asarray(ss, dtype=bool))
    return seg, tags


def lexeme_segments(lex: Lexemes, tags: list) -> np.ndarray:
    """The segment of each LEXEME (-1: none): the last tagging of its (file, channel, speaker)
    whose segment covered it then (in time order, the last tagging per segment is the widest)."""
    out = np.full(len(lex), -1, dtype=np.int64)
    if not tags or not len(lex):
        return out
    T = len(tags)
    code = _dense(np.r_[np.asarray([t[0] for t in tags], dtype=object), lex.file].astype(str),
                  np.r_[np.asarray([t[1] for t in tags], np.int64), lex.chan.astype(np.int64)],
                  np.r_[np.asarray([t[2] for t in tags], dtype=object), lex.speaker].astype(str))
    tg, lg = code[:T], code[T:]
    tseg = np.asarray([t[3] for t in tags], np.int64)
    tb = np.asarray([t[4] for t in tags])
    te = np.asarray([t[5] for t in tags])
    o = np.lexsort((np.arange(T), tb, tg))
    tg, tseg, tb, te = tg[o], tseg[o], tb[o], te[o]
    k = grouped_rank(tg, tb, lg, lex.tbeg, side="right") - 1
    j = np.maximum(k, 0)
    ok = (k >= 0) & (tg[j] == lg) & (tb[j] <= lex.tbeg) & (te[j] >= lex.tend)
    out[ok] = tseg[j[ok]]
    return out


def _dense(*cols) -> np.ndarray:
    """Dense int64 codes of the rows of `cols` (equal rows, equal codes): each column ranked
    by np.unique, then packed pairwise (every intermediate code < rows^2)."""
    code = None
    for c in cols:
        _, r = np.unique(np.asarray(c), return_inverse=True)
        r = r.reshape(-1).astype(np.int64)
        if code is None:
            code = r
        else:
            _, code = np.unique(code * (int(r.max()) + 1) + r, return_inverse=True)
            code = code.reshape(-1).astype(np.int64)
    return code


def _first_of(n: int, code: np.ndarray) -> np.ndarray:
    """code: dense row codes of n lexemes then the queries; for each query, the first lexeme
    with its code, else -1."""
    first = np.full(int(code.max()) + 1 if len(code) else 0, -1, np.int64)
    first[code[:n][::-1]] = np.arange(n - 1, -1, -1, dtype=np.int64)
    return first[code[n:]]


def occurrence_segments(occ: Occurrences, lex: Lexemes, lseg: np.ndarray) -> np.ndarray:
    """The segment of each occurrence whose first and last words lie in one segment, else -1.
    The first word is the (first) LEXEME with the occurrence's (file, channel, begin, first end),
    the last one the (first) LEXEME of its speaker, file and channel ending at the occurrence's end."""
    out = np.full(len(occ), -1, dtype=np.int64)
    if not len(occ) or not len(lex):
        return out
    n = len(lex)
    files = np.r_[lex.file, occ.file].astype(str)
    chans = np.r_[lex.chan, occ.chan].astype(np.int64)
    first = _first_of(n, _dense(files, chans, np.r_[lex.tbeg, occ.beg], np.r_[lex.tend, occ.first_end]))
    ok = first >= 0
    f0 = np.maximum(first, 0)
    spk = lex.speaker.astype(str)
    last = _first_of(n, _dense(files, chans, np.r_[spk, spk[f0]], np.r_[lex.tend, occ.end]))
    ok &= last >= 0
    s0, s1 = lseg[f0], lseg[np.maximum(last, 0)]
    ok &= (s0 >= 0) & (s0 == s1)
    out[ok] = s0[ok]
    return out


def detection_segments(seg: Segments, file_code: dict, dfile: np.ndarray, dchan: np.ndarray,
                       mid: np.ndarray) -> np.ndarray:
    """The first segment (F4DE order) holding each detection's mid-point, else -1; dfile are
    codes of `file_code` (file id -> code)."""
    S = len(seg)
    out = np.full(len(mid), -1, dtype=np.int64)
    if S == 0 or len(mid) == 0:
        return out
    sfile = np.asarray([file_code.get(f, -1) for f in seg.file], np.int64)
    NC = int(max(seg.chan.max(), dchan.max() if len(dchan) else 0)) + 1
    gs = sfile * NC + seg.chan
    gd = dfile.astype(np.int64) * NC + dchan.astype(np.int64)
    o = np.lexsort((np.arange(S), seg.beg, gs))
    g_s, b_s, e_s = gs[o], seg.beg[o], seg.end[o]
    k = grouped_rank(g_s, b_s, gd, mid, side="right") - 1
    for back in (1, 0):          # the earlier of two segments sharing the boundary wins
        j = k - back
        jj = np.maximum(j, 0)
        ok = (j >= 0) & (g_s[jj] == gd) & (b_s[jj] <= mid) & (e_s[jj] >= mid)
        cand = np.where(ok, o[jj], -1)
        better = ok & ((out < 0) | (cand < out))
        out[better] = cand[better]
    return out


def best_per_segment(group: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Indices (into group/score) of the detection kept per group key: the highest score, the
    first in input order among equal scores; keys < 0 are dropped."""
    idx = np.flatnonzero(group >= 0)
    if len(idx) == 0:
        return idx
    o = np.lexsort((idx, -score[idx], group[idx]))
    idx = idx[o]
    first = np.r_[True, group[idx][1:] != group[idx][:-1]]
    return np.sort(idx[first])
