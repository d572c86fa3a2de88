"""Term-text normalisation of F4DE KWSEval `-x` (docs/std-metrics.md, "KWSEval features"):
`charsplit` splits every word of the term list and of the RTTM LEXEMEs into its characters
(for character languages such as Cantonese), `notASCII` keeps runs of ASCII characters whole,
`deleteHyphens` turns hyphens into word breaks. Re-derived from F4DE 3.5.0
TranscriptHolder::charSplitText and RTTMList::loadSSVFile.

A LEXEME split into n > 1 tokens gets n equal parts of its duration: each part lasts
dur/n (the duration as read) printed with 3 decimals, token k begins at tbeg + k * that part (3 decimals), and ends
at round4(begin + part), as F4DE's RTTMRecord computes it.
"""
from __future__ import annotations

import re

import numpy as np

from termeval.core.errors import InputError
from termeval.std.ecf import round4
from termeval.std.rttm import Lexemes
from termeval.std.termlist import TermList

MODES = ("charsplit", "notASCII", "deleteHyphens")
_ASCII_PAIR = re.compile(r"([\x01-\x7f])\s+([\x01-\x7f])")
_SPACES = re.compile(r"\s+")


def parse_modes(spec: str) -> tuple[bool, bool, bool]:
    """`charsplit,notASCII,deleteHyphens` (case-insensitive, any subset) -> three flags."""
    flags = {m.lower(): False for m in MODES}
    for part in (s.strip() for s in (spec or "").split(",")):
        if not part:
            continue
        if part.lower() not in flags:
            raise InputError(f"--term-normalization: unknown value '{part[:40]}' "
                             f"(charsplit, notASCII, deleteHyphens)")
        flags[part.lower()] = True
    return flags["charsplit"], flags["notascii"], flags["deletehyphens"]


def mode_warnings(spec: str) -> list[str]:
    """F4DE's warnings: notASCII / deleteHyphens have no effect without charsplit."""
    split, not_ascii, hyph = parse_modes(spec)
    out = []
    if not split and not_ascii:
        out.append("--term-normalization notASCII ignored because charsplit is not used (as F4DE)")
    if not split and hyph:
        out.append("--term-normalization deleteHyphens ignored because charsplit is not used (as F4DE)")
    return out


def charsplit_text(text: str, not_ascii: bool = False, delete_hyphens: bool = False) -> str:
    """One character per token; ASCII neighbours re-joined (not_ascii); '-' -> ' ' (delete_hyphens);
    whitespace runs collapsed and trimmed."""
    t = " ".join(text)
    if not_ascii:     # twice, as F4DE: one pass leaves every other pair of a run split
        t = _ASCII_PAIR.sub(r"\1\2", t)
        t = _ASCII_PAIR.sub(r"\1\2", t)
    if delete_hyphens:
        t = t.replace("-", " ")
    return _SPACES.sub(" ", t).strip()


def charsplit_terms(terms: TermList, not_ascii: bool, delete_hyphens: bool) -> TermList:
    """The term list with every text split (ids, attributes and order kept)."""
    texts = [charsplit_text(t, not_ascii, delete_hyphens) for t in terms.texts]
    return TermList(terms.ids, texts, terms.attrs, terms.compare_normalize, terms.dialect,
                    terms.language, terms.path)


def _part(x: float) -> float:
    return float("%.3f" % x)


def charsplit_lexemes(lex: Lexemes, not_ascii: bool, delete_hyphens: bool) -> Lexemes:
    """Every LEXEME split into its characters' tokens, durations shared out as F4DE does."""
    files, chans, tb, te, td, tok, sub, spk = [], [], [], [], [], [], [], []
    for i in range(len(lex)):
        toks = charsplit_text(lex.token[i], not_ascii, delete_hyphens).split(" ")
        b0 = float(lex.tbeg[i])
        # the LEXEME's duration as read (F4DE divides its text's value)
        d0 = float(lex.tdur[i]) if lex.tdur is not None else float(lex.tend[i]) - b0
        n = len(toks)
        if n <= 1:
            parts = [(b0, float(lex.tend[i]), d0, toks[0] if toks else "")]
        else:
            d = _part(d0 / n)
            parts = [(_part(b0 + d * k), float(round4(_part(b0 + d * k) + d)), d, t) for k, t in enumerate(toks)]
        for b, e, du, t in parts:
            files.append(lex.file[i])
            chans.append(lex.chan[i])
            tb.append(b)
            te.append(e)
            td.append(du)
            tok.append(t)
            sub.append(lex.subtype[i])
            spk.append(lex.speaker[i])
    return Lexemes(np.asarray(files, dtype=object), np.asarray(chans, dtype=np.int32),
                   np.asarray(tb, dtype=np.float64), np.asarray(te, dtype=np.float64),
                   np.asarray(tok, dtype=object), np.asarray(sub, dtype=object),
                   np.asarray(spk, dtype=object), lex.path, np.asarray(td, dtype=np.float64))
