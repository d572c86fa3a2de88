"""RTTM reference reader and F4DE-style term occurrence finder (docs/std.md §1.2).

Only LEXEME records are used (SPEAKER/NOSCORE/NON-LEX... are skipped). A term's occurrences
are found as F4DE's RTTMList::findTermOccurrences does: the first token must equal the
(normalised) term's first token on a LEXEME whose subtype is not `fp`/`frag`; following
tokens are taken along the same speaker's chain of LEXEMEs in the same file and channel, must
match case-insensitively and start at most `find_threshold` (0.5 s, rounded to 4 decimals)
after the previous token ends. MediaEval QbE references (one LEXEME per occurrence whose
orthography is the query id) are the single-token case, handled without Python loops.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from termeval.core.errors import InputError
from termeval.std.ecf import channel_number, file_id, round4
from termeval.std.xmlsafe import clip
from termeval.std.termlist import TermList
from termeval.core.textio import iter_lines


@dataclass
class Lexemes:
    """RTTM LEXEME records in file order (parallel arrays; file/token/subtype/speaker are
    object arrays of str, chan int32, tbeg float64, tend = round4(tbeg + tdur))."""
    file: np.ndarray
    chan: np.ndarray
    tbeg: np.ndarray
    tend: np.ndarray
    token: np.ndarray
    subtype: np.ndarray
    speaker: np.ndarray
    path: str = ""

    def __len__(self) -> int:
        return len(self.file)


@dataclass
class Occurrences:
    """Reference occurrences: term index (into the TermList), file id, channel, begin (first
    token's begin), end (last token's end), first_end (first token's end, used by the ECF
    filter as in F4DE). Sorted by term, file, channel, begin."""
    term: np.ndarray
    file: np.ndarray
    chan: np.ndarray
    beg: np.ndarray
    end: np.ndarray
    first_end: np.ndarray

    def __len__(self) -> int:
        return len(self.term)


def read_rttm(path: str) -> Lexemes:
    """Read the LEXEME lines of an RTTM file (9 or more fields; text after ';;' ignored)."""
    files, chans, tb, td, tok, sub, spk = [], [], [], [], [], [], []
    n_other, last_line = 0, 0
    for lineno, line in iter_lines(path):
        if ";;" in line:
            line = line.split(";;", 1)[0]
        f = line.split()
        if not f:
            continue
        if f[0] != "LEXEME":
            n_other += 1
            last_line = lineno
            continue
        if len(f) < 9:
            raise InputError(f"RTTM LEXEME line needs 9 fields, got {len(f)}", path, lineno)
        try:
            b = float(f[3])
            d = float(f[4])
        except ValueError:
            raise InputError(f"bad tbeg/tdur '{clip(f[3] + ' ' + f[4])}'", path, lineno) from None
        c = channel_number(f[2], lineno, path) if f[2] not in ("<NA>", "NA") else 1
        if not (math.isfinite(b) and math.isfinite(d) and math.isfinite(b + d)):
            raise InputError("tbeg/tdur must be finite numbers", path, lineno)
        if d < 0 or b < 0:
            raise InputError(f"negative time (tbeg {clip(f[3])}, tdur {clip(f[4])})", path, lineno)
        files.append(file_id(f[1]))
        chans.append(c)
        tb.append(b)
        td.append(d)
        tok.append(f[5])
        sub.append(f[6])
        spk.append(f[7])
    if not files:
        raise InputError(f"no LEXEME records ({n_other} other records such as SPEAKER): the reference "
                         "words of an RTTM are its LEXEME lines", path, last_line or None)
    tbeg = np.asarray(tb, dtype=np.float64)
    return Lexemes(np.asarray(files, dtype=object), np.asarray(chans, dtype=np.int32), tbeg,
                   round4(tbeg + np.asarray(td, dtype=np.float64)), np.asarray(tok, dtype=object),
                   np.asarray(sub, dtype=object), np.asarray(spk, dtype=object), path)


def find_occurrences(lex: Lexemes, terms: TermList, find_threshold: float = 0.5) -> Occurrences:
    """All occurrences of every term of `terms` in `lex` (F4DE rules, see module doc)."""
    lower = terms.compare_normalize.lower() == "lowercase"
    norm = (lambda s: s.strip().lower()) if lower else (lambda s: s.strip())
    n = len(lex)
    tok_norm = [norm(t) for t in lex.token] if lower else list(lex.token)
    starts_ok = np.fromiter((s not in ("fp", "frag") for s in lex.subtype), dtype=bool, count=n)
    # index of eligible start lexemes by normalised token
    by_token: dict[str, list[int]] = {}
    for i in np.flatnonzero(starts_ok):
        by_token.setdefault(tok_norm[i], []).append(int(i))
    nxt = None
    out_t, out_i, out_last = [], [], []
    for ti, text in enumerate(terms.texts):
        toks = norm(text).split()
        if not toks:
            continue
        cands = by_token.get(toks[0])
        if not cands:
            continue
        if len(toks) == 1:
            idx = np.asarray(cands, dtype=np.int64)
            out_t.append(np.full(len(idx), ti, dtype=np.int32))
            out_i.append(idx)
            out_last.append(idx)
            continue
        if nxt is None:
            nxt = _speaker_chain(lex)
        first, last = [], []
        rest = [t.lower() for t in toks[1:]]
        for s in cands:
            cur = s
            ok = True
            for t in rest:
                j = nxt[cur]
                if j < 0 or lex.token[j].lower() != t or round(lex.tbeg[j] - lex.tend[cur], 4) > find_threshold:
                    ok = False
                    break
                cur = j
            if ok:
                first.append(s)
                last.append(cur)
        if first:
            out_t.append(np.full(len(first), ti, dtype=np.int32))
            out_i.append(np.asarray(first, dtype=np.int64))
            out_last.append(np.asarray(last, dtype=np.int64))
    if out_t:
        t = np.concatenate(out_t)
        i0 = np.concatenate(out_i)
        i1 = np.concatenate(out_last)
    else:
        t = np.zeros(0, np.int32)
        i0 = i1 = np.zeros(0, np.int64)
    occ = Occurrences(t, lex.file[i0], lex.chan[i0], lex.tbeg[i0], lex.tend[i1], lex.tend[i0])
    return sort_occurrences(occ)


def sort_occurrences(occ: Occurrences) -> Occurrences:
    if len(occ) == 0:
        return occ
    o = np.lexsort((occ.beg, occ.chan, occ.file.astype(str), occ.term))
    return Occurrences(occ.term[o], occ.file[o], occ.chan[o], occ.beg[o], occ.end[o], occ.first_end[o])


def _speaker_chain(lex: Lexemes) -> np.ndarray:
    """nxt[i] = the next LEXEME of the same speaker, file and channel in time order, or -1."""
    n = len(lex)
    o = np.lexsort((np.arange(n), lex.tbeg, lex.speaker.astype(str), lex.chan, lex.file.astype(str)))
    nxt = np.full(n, -1, dtype=np.int64)
    if n > 1:
        same = ((lex.file[o[1:]] == lex.file[o[:-1]]) & (lex.chan[o[1:]] == lex.chan[o[:-1]])
                & (lex.speaker[o[1:]] == lex.speaker[o[:-1]]))
        nxt[o[:-1][same]] = o[1:][same]
    return nxt
