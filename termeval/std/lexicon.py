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


def read_keyword_list(path: str, plain: Optional[bool] = None) -> TermList:
    """A keyword list in any of the three forms (module doc). `plain=None` detects a plain list
    (every non-blank line a single token); True reads every line as a keyword text."""
    if sniff_root(path) is not None:
        return read_termlist(path)
    rows: list[tuple[int, list[str]]] = [(n, line.split()) for n, line in iter_lines(path) if line.split()]
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
