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
from typing import Optional

import numpy as np

from termeval.core.errors import InputError
from termeval.std.ecf import channel_number, file_id, round4
from termeval.std.xmlsafe import clip
from termeval.std.termlist import TermList
from termeval.core import textfast
from termeval.core.textio import read_bytes


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
    tdur: Optional[np.ndarray] = None    # the durations as read (-x charsplit shares them out)

    def __len__(self) -> int:
        return len(self.file)


@dataclass
class Occurrences:
    """Reference occurrences: term index (into the TermList), file id, channel, begin (first
    token's begin), end (last token's end), first_end (first token's end, used by the ECF
    filter as in F4DE), lex (the first token's LEXEME index, when found in an RTTM). Sorted by
    term, file, channel, begin."""
    term: np.ndarray
    file: np.ndarray
    chan: np.ndarray
    beg: np.ndarray
    end: np.ndarray
    first_end: np.ndarray
    lex: Optional[np.ndarray] = None

    def __len__(self) -> int:
        return len(self.term)


def read_rttm(path: str) -> Lexemes:
    """Read the LEXEME lines of an RTTM file (9 or more fields; text after ';;' ignored): in
    bulk (_read_bulk) when every line is good, else line by line (the first problem's error)."""
    data = read_bytes(path)
    bulk = _read_bulk(data, path) if b";;" not in data and textfast.plain_chunk(data) else None
    return bulk if bulk is not None else _read_lines(data.decode("utf-8"), path)


_LEXEME = np.frombuffer(b"LEXEME\0\0", dtype=np.uint64)[0]


def _read_bulk(data: bytes, path: str) -> Lexemes | None:
    """The LEXEME columns from the file's bytes with numpy (core.textfast: token bounds, the
    times parsed as float() would, string columns factorised, each distinct text decoded
    once); None at the first doubt (a short LEXEME line, a number textfast does not take, a
    bad channel or time), for _read_lines to give the error of its line. The bytes must be
    split as str.split() splits their text (textfast.plain_chunk)."""
    b = np.frombuffer(data, dtype=np.uint8)
    starts, ends = textfast.token_bounds(b)
    if not len(starts):
        return None
    first, _ = textfast.line_heads(b, starts)
    nf = np.diff(np.append(first, len(starts)))
    s0 = starts[first]
    head = textfast.token_words(b, s0, np.minimum(ends[first], s0 + 8), 1)[0]   # 8 bytes at most
    lex = first[(head == _LEXEME) & (ends[first] - s0 == 6)]
    if not len(lex) or (nf[np.searchsorted(first, lex)] < 9).any():
        return None
    tb = textfast.parse_floats(b, starts[lex + 3], ends[lex + 3])
    td = textfast.parse_floats(b, starts[lex + 4], ends[lex + 4])
    if tb is None or td is None:
        return None
    cols = []
    for k in (1, 2, 5, 6, 7):                 # file, channel, token, subtype, speaker
        table: dict[str, int] = {}
        codes = textfast.Factoriser(table)(data, b, starts[lex + k], ends[lex + k])
        if codes is None:
            return None
        cols.append((list(table), codes))
    with np.errstate(over="ignore"):
        if not (np.isfinite(tb + td).all() and (tb >= 0).all() and (td >= 0).all()):
            return None
    try:
        chan = np.asarray([channel_number(c) if c not in ("<NA>", "NA") else 1 for c in cols[1][0]],
                          dtype=np.int32)[cols[1][1]]
    except InputError:
        return None
    files = np.asarray([file_id(f) for f in cols[0][0]], dtype=object)
    tok, sub, spk = (np.asarray(names, dtype=object)[codes] for names, codes in cols[2:])
    return Lexemes(files[cols[0][1]], chan, tb, round4(tb + td), tok, sub, spk, path, td)


def _read_lines(text: str, path: str) -> Lexemes:
    """read_rttm line by line: the error names the line of the first problem."""
    files, chans, tb, td, tok, sub, spk = [], [], [], [], [], [], []
    n_other, last_line = 0, 0
    for lineno, line in enumerate(text.split("\n"), 1):
        if line.endswith("\r"):
            line = line[:-1]
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
    tdur = np.asarray(td, dtype=np.float64)
    return Lexemes(np.asarray(files, dtype=object), np.asarray(chans, dtype=np.int32), tbeg,
                   round4(tbeg + tdur), np.asarray(tok, dtype=object),
                   np.asarray(sub, dtype=object), np.asarray(spk, dtype=object), path, tdur)


def find_occurrences(lex: Lexemes, terms: TermList, find_threshold: float = 0.5) -> Occurrences:
    """All occurrences of every term of `terms` in `lex` (F4DE rules, see module doc), every
    term's candidates followed along the speaker chain together (numpy, token codes)."""
    lower = terms.compare_normalize.lower() == "lowercase"
    norm = (lambda s: s.strip().lower()) if lower else (lambda s: s.strip())
    tok_norm = list(map(str.lower, map(str.strip, lex.token))) if lower else list(lex.token)
    starts_ok = ~((lex.subtype == "fp") | (lex.subtype == "frag"))
    # eligible start lexemes grouped by normalised token, each group in file order
    first_code, first_vocab = _codes(tok_norm)
    eligible = np.flatnonzero(starts_ok)
    order = eligible[np.argsort(first_code[eligible], kind="stable")]
    bounds = np.searchsorted(first_code[order], np.arange(len(first_vocab) + 1))
    nxt = low_code = low_vocab = None
    out_t, out_i, out_last = [], [], []
    for ti, text in enumerate(terms.texts):
        toks = norm(text).split()
        c = first_vocab.get(toks[0]) if toks else None
        if c is None or bounds[c] == bounds[c + 1]:
            continue
        first = order[bounds[c]:bounds[c + 1]]
        last = first
        if len(toks) > 1:
            if nxt is None:
                nxt = _speaker_chain(lex)
                low_code, low_vocab = _codes(list(map(str.lower, lex.token)))
            first, last = _follow(lex, nxt, low_code, [low_vocab.get(t.lower(), -1) for t in toks[1:]],
                                  first, find_threshold)
            if not len(first):
                continue
        out_t.append(np.full(len(first), ti, dtype=np.int32))
        out_i.append(first)
        out_last.append(last)
    if out_t:
        t = np.concatenate(out_t)
        i0 = np.concatenate(out_i)
        i1 = np.concatenate(out_last)
    else:
        t = np.zeros(0, np.int32)
        i0 = i1 = np.zeros(0, np.int64)
    occ = Occurrences(t, lex.file[i0], lex.chan[i0], lex.tbeg[i0], lex.tend[i1], lex.tend[i0], i0)
    return sort_occurrences(occ)


def _codes(texts: list[str]) -> tuple[np.ndarray, dict[str, int]]:
    """(code of each text, {text: code}) in first-seen order."""
    vocab = {t: i for i, t in enumerate(dict.fromkeys(texts))}
    return np.fromiter(map(vocab.__getitem__, texts), dtype=np.int64, count=len(texts)), vocab


def _follow(lex: Lexemes, nxt: np.ndarray, low_code: np.ndarray, want: list[int], first: np.ndarray,
            find_threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """The starts in `first` whose speaker chain continues with the tokens `want` (lowercase
    codes, -1: in no lexeme), each starting at most find_threshold (rounded to 4 decimals, as
    F4DE) after the previous token's end; returns (those starts, their last tokens)."""
    cur = first
    for code in want:
        j = nxt[cur]
        jj = np.maximum(j, 0)
        ok = (j >= 0) & (low_code[jj] == code)
        ok[ok] = ~(round4(lex.tbeg[jj[ok]] - lex.tend[cur[ok]]) > find_threshold)
        first, cur = first[ok], jj[ok]
    return first, cur


def sort_occurrences(occ: Occurrences) -> Occurrences:
    if len(occ) == 0:
        return occ
    o = np.lexsort((occ.beg, occ.chan, occ.file.astype(str), occ.term))
    return Occurrences(occ.term[o], occ.file[o], occ.chan[o], occ.beg[o], occ.end[o], occ.first_end[o],
                       occ.lex[o] if occ.lex is not None else None)


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
