"""Kaldi `categories` files (`kwid category [category ...]`; read by Kaldi's
per_category_stats.pl and annotate_kwlist.pl): the ones prepare_kws writes, and the reader
`--breakdown categories:FILE` uses.

Written per keyword, as Kaldi's create_categories.pl does plus two optional ones:
`NGramOrder=%03d` (words), `Characters=%03d` (characters of the words joined without spaces),
`OOV=0|1` (with words.txt: 1 if a word is not in it), `Phones=%03d` (with a lexicon: phones of
the first pronunciations; `Phones=OOV` when a word has none), and `kwid kwid` (a category of its
own, so per-category tables list every keyword).
"""
from __future__ import annotations

from typing import Optional

from termeval.core.errors import InputError
from termeval.std.lexicon import phone_length
from termeval.std.xmlsafe import clip
from termeval.core.textio import iter_lines


def keyword_attributes(text: str, vocab: Optional[set[str]] = None,
                       lexicon: Optional[dict[str, list[str]]] = None) -> list[tuple[str, str]]:
    """(name, value) categories of one keyword text (module doc)."""
    words = text.split()
    out = [("NGramOrder", f"{len(words):03d}"), ("Characters", f"{len(''.join(words)):03d}")]
    if vocab is not None:
        out.append(("OOV", "1" if any(w not in vocab for w in words) else "0"))
    if lexicon is not None:
        n = phone_length(words, lexicon)
        out.append(("Phones", "OOV" if n is None else f"{n:03d}"))
    return out


def categories_text(ids: list[str], attrs: list[list[tuple[str, str]]]) -> str:
    """One line per keyword, as Kaldi's normalize_categories.pl writes them (per_category_stats.pl
    adds the keyword to ALL once per line)."""
    return "".join(f"{kwid} " + " ".join(f"{n}={v}" for n, v in a) + f" {kwid}\n" for kwid, a in zip(ids, attrs))


def read_categories(path: str, known: Optional[list[str]] = None) -> list[tuple[str, list[str]]]:
    """Lines `kwid cat [cat ...]` in file order; with `known` (the kws dir's keyword ids), a
    keyword not in it is an error naming the line."""
    rows: list[tuple[str, list[str]]] = []
    known_set = set(known) if known is not None else None
    for lineno, line in iter_lines(path):
        f = line.split()
        if not f:
            continue
        if len(f) < 2:
            raise InputError(f"expected 'kwid category [category ...]', got '{clip(line.strip())}'", path, lineno)
        if known_set is not None and f[0] not in known_set:
            raise InputError(f"keyword '{clip(f[0])}' is not a keyword of the kws dir", path, lineno)
        rows.append((f[0], f[1:]))
    if not rows:
        raise InputError("empty categories file", path)
    return rows
