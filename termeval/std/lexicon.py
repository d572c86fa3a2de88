"""Keyword lists and lexicons for prepare_kws and the phone-length breakdown.

* keyword list: `kwid word word ...` lines, or a plain list (every line one word: ids
  KW-0001, ... in file order), or a KWLIST/TLIST XML (ids, texts and kwinfo attributes kept);
* Kaldi `words.txt` (`word int`): the vocabulary an OOV keyword word is missing from;
* Kaldi `lexicon.txt` (`word phone phone ...`): the first pronunciation of each word.
"""
from __future__ import annotations

from typing import Optional

from termeval.core.errors import InputError
from termeval.std.termlist import TermList, read_termlist
from termeval.std.xmlsafe import clip, sniff_root
from termeval.core.textio import iter_lines


def bad_character(text: str) -> Optional[str]:
    """The first character a keyword id or text may not hold, described, or None: control
    characters (but tab and space), surrogates and Unicode noncharacters (U+FFFE, U+FDD0...):
    they are not XML 1.0 characters (kwlist.xml would not be well-formed) or not text."""
    for c in text:
        o = ord(c)
        if (o < 0x20 and c != "\t") or 0x7F <= o <= 0x9F or 0xD800 <= o <= 0xDFFF \
                or 0xFDD0 <= o <= 0xFDEF or (o & 0xFFFE) == 0xFFFE:
            return f"U+{o:04X}"
    return None


def _check_keyword(kwid: str, text: str) -> None:
    """A keyword prepare_kws can write: an id of one token, a text, XML characters only."""
    if not kwid or any(c.isspace() for c in kwid):
        raise InputError(f"keyword id '{clip(kwid)}' is empty or holds whitespace (the kws files "
                         "are `kwid word ...` lines: one token is needed)")
    if not text.strip():
        raise InputError(f"keyword '{clip(kwid)}' has an empty or missing kwtext (the text to search)")
    for what, value in (("id", kwid), ("text", text)):
        bad = bad_character(value)
        if bad:
            raise InputError(f"keyword {what} holds the character {bad} (a control character or "
                             "noncharacter: not allowed in a keyword, nor in kwlist.xml)")


def read_keyword_list(path: str, plain: Optional[bool] = None) -> TermList:
    """A keyword list in any of the three forms (module doc). `plain=None` detects a plain list
    (every non-blank line a single token); True reads every line as a keyword text. Refused,
    naming the file and line: an empty or missing kwtext, a kwid empty or with whitespace,
    control characters or noncharacters (bad_character), a list without keywords."""
    if sniff_root(path) is not None:
        terms = read_termlist(path, check=_check_keyword)
        if not len(terms):
            raise InputError("no keywords in the list (no <kw> element)", path)
        return terms
    rows: list[tuple[int, list[str]]] = []
    for n, line in iter_lines(path):
        bad = bad_character(line.rstrip("\r\n"))
        if bad:
            raise InputError(f"holds the character {bad} (a control character or noncharacter: "
                             "not allowed in a keyword, nor in kwlist.xml)", path, n)
        if line.split():
            rows.append((n, line.split()))
    if not rows:
        raise InputError("empty keyword list", path)
    if plain is None:
        plain = all(len(f) == 1 for _, f in rows)
    ids, texts = [], []
    seen: dict[str, int] = {}
    width = max(4, len(str(len(rows))))
    for k, (lineno, f) in enumerate(rows, 1):
        if plain:
            kwid, words = f"KW-{k:0{width}d}", f
        else:
            if len(f) < 2:
                raise InputError(f"expected 'kwid word [word ...]', got the single field '{clip(f[0])}' "
                                 "(a plain word list needs one word on every line)", path, lineno)
            kwid, words = f[0], f[1:]
        if kwid in seen:
            raise InputError(f"keyword id '{clip(kwid)}' repeated (first on line {seen[kwid]})", path, lineno)
        seen[kwid] = lineno
        ids.append(kwid)
        texts.append(" ".join(words))
    return TermList(ids, texts, [{} for _ in ids], "", "kws", "", path)


def read_words_txt(path: str) -> set[str]:
    """The words of a Kaldi words.txt (`word int`) or of a plain one-word-a-line list."""
    out: set[str] = set()
    for lineno, line in iter_lines(path):
        f = line.split()
        if not f:
            continue
        if len(f) > 2:
            raise InputError(f"expected 'word [int]', got {len(f)} fields", path, lineno)
        out.add(f[0])
    if not out:
        raise InputError("empty word list", path)
    return out


def read_lexicon(path: str) -> dict[str, list[str]]:
    """Kaldi lexicon.txt: word -> phones of its first pronunciation."""
    out: dict[str, list[str]] = {}
    for lineno, line in iter_lines(path):
        f = line.split()
        if not f:
            continue
        if len(f) < 2:
            raise InputError(f"malformed lexicon line: expected 'word phone [phone ...]', got "
                             f"'{clip(line.strip())}'", path, lineno)
        out.setdefault(f[0], f[1:])
    if not out:
        raise InputError("empty lexicon", path)
    return out


def phone_length(words: list[str], lexicon: dict[str, list[str]]) -> Optional[int]:
    """Number of phones of a keyword (first pronunciations), None if a word is not in it."""
    n = 0
    for w in words:
        pron = lexicon.get(w)
        if pron is None:
            return None
        n += len(pron)
    return n
