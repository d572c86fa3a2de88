"""Reading segmented texts: one utterance per line, words separated by spaces (or --word-sep),
the units of a word (phones, syllables, characters) written together (wordseg's gold and
output) or separated by --unit-sep (multi-character units, IPA).

A word is its string of units without separators; positions are counted in characters of
that string, as wordseg-eval does. Where the units are known (--unit-sep, or a prepared text:
units separated by spaces, wordseg-prep's output), every word must be made of whole units, and
positions in characters are then the same boundaries as positions in units.

Lines. Default: line i of the segmented text is line i of the gold; a line blank in both is
skipped, blank in one only is an error. --compat wordseg: blank lines are dropped from each file
independently (wordseg-eval's _load_text), then utterances are paired in order.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from termeval.core.errors import InputError
from termeval.core.textio import iter_lines


@dataclass
class Text:
    path: str
    lines: list[int]                 # 1-based line number of each utterance
    words: list[list[str]]           # each utterance: its words (units joined, no separator)
    units: list[list[str]] | None    # each utterance: its units, when a unit separator is given


# control characters (but tab), surrogates, line and paragraph separators: never part of a
# segmented text (str.split() would silently take U+001C..U+001F and U+0085 as word boundaries)
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def check_controls(line: str, path: str, n: int, *separators: str | None) -> None:
    """Refuse a line holding a control character that is not one of the given separators."""
    for m in _CONTROL.finditer(line):
        if not any(s and m.group() in s for s in separators):
            raise InputError(f"holds the character U+{ord(m.group()):04X} (a control character or separator): "
                             "words are separated by spaces or tabs (or --word-sep)", path, n)


def _split(text: str, sep: str | None) -> list[str]:
    """Tokens of `text` split at `sep` (None: runs of whitespace), stripped, empties dropped."""
    if sep is None:
        return text.split()
    return [t.strip() for t in text.split(sep) if t.strip()]


def read_text(path: str, compat: str = "none", word_sep: str | None = None,
              unit_sep: str | None = None, keep_blank: bool = False) -> Text:
    """Read a segmented (or gold) text. keep_blank: blank lines are kept as empty utterances
    (the default mode pairs lines; the caller checks and drops them)."""
    lines, words, units = [], [], []
    for n, raw in iter_lines(path):
        line = raw.strip()
        check_controls(raw, path, n, word_sep, unit_sep)      # also at an end (strip() would drop it)
        if not line:
            if keep_blank:
                lines.append(n)
                words.append([])
                units.append([])
            continue
        if compat == "wordseg" and word_sep is None:
            toks = [t.strip() for t in line.split(" ") if t.strip()]   # wordseg splits at ' ' only
        else:
            toks = _split(line, word_sep)
        if unit_sep is not None:
            wu = [_split(t, unit_sep if unit_sep != " " else None) for t in toks]
            units.append([u for w in wu for u in w])
            toks = ["".join(w) for w in wu]
        lines.append(n)
        words.append([t for t in toks if t])
    while keep_blank and words and not words[-1]:     # blank lines at the end are no utterances
        lines.pop(), words.pop(), units.pop()
    return Text(path, lines, words, units if unit_sep is not None else None)


def read_prepared(path: str) -> Text:
    """A prepared text (wordseg-prep's output): the units of each utterance separated by spaces;
    blank lines dropped (as wordseg-eval -r does)."""
    lines, units = [], []
    for n, raw in iter_lines(path):
        line = raw.strip()
        check_controls(raw, path, n)
        if line:
            lines.append(n)
            units.append(line.split())
    return Text(path, lines, [["".join(u)] for u in units], units)


def pair_lines(gold: Text, seg: Text, compat: str) -> tuple[Text, Text]:
    """Check that the two texts hold the same utterances; return them with blank pairs dropped."""
    if compat != "wordseg":
        if len(gold.words) != len(seg.words):
            last = seg.lines[-1] if seg.lines else 1
            raise InputError(f"{len(seg.words)} lines, the gold {gold.path} has {len(gold.words)}",
                             seg.path, last)
        keep = []
        for i, (g, s) in enumerate(zip(gold.words, seg.words)):
            if bool(g) != bool(s):
                raise InputError("blank line, the gold line is not" if not s else
                                 "line has words, the gold line is blank", seg.path, seg.lines[i])
            if g:
                keep.append(i)
        gold, seg = _take(gold, keep), _take(seg, keep)
    elif len(gold.words) != len(seg.words):
        raise InputError(f"{len(seg.words)} utterances (non-blank lines), the gold {gold.path} has "
                         f"{len(gold.words)}", seg.path)
    for i, (g, s) in enumerate(zip(gold.words, seg.words)):
        if gold.units is not None and seg.units is not None and gold.units[i] != seg.units[i]:
            k = next(k for k, (a, b) in enumerate(zip(gold.units[i] + [None], seg.units[i] + [None])) if a != b)
            got = seg.units[i][k] if k < len(seg.units[i]) else "end of line"
            raise InputError(f"unit {k + 1} is '{got}', unknown here: the gold ({gold.path}:{gold.lines[i]}) "
                             f"has '{gold.units[i][k] if k < len(gold.units[i]) else 'end of line'}'",
                             seg.path, seg.lines[i])
        if "".join(g) != "".join(s):
            raise InputError(f"the units differ from the gold ({gold.path}:{gold.lines[i]}): "
                             f"{_first_difference(''.join(g), ''.join(s))}", seg.path, seg.lines[i])
    return gold, seg


def _take(t: Text, keep: list[int]) -> Text:
    return Text(t.path, [t.lines[i] for i in keep], [t.words[i] for i in keep],
                None if t.units is None else [t.units[i] for i in keep])


def _first_difference(a: str, b: str) -> str:
    k = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"gold '{a[max(0, k - 10):k + 10]}', here '{b[max(0, k - 10):k + 10]}' (character {k + 1})"


def check_unit_edges(t: Text, i: int, units: list[str], source: str) -> None:
    """Every word of utterance i of `t` starts and ends at a unit edge of `units`."""
    edges = np.cumsum(np.fromiter(map(len, units), np.int64, len(units)))
    ends = np.cumsum(np.fromiter(map(len, t.words[i]), np.int64, len(t.words[i])))
    at = np.minimum(np.searchsorted(edges, ends), max(len(edges) - 1, 0))
    bad = np.flatnonzero(edges[at] != ends) if len(edges) else np.arange(len(ends))
    if len(bad):
        w = t.words[i][int(bad[0])]
        raise InputError(f"word '{w}' ends inside a unit of {source} (units: "
                         f"{' '.join(units)})", t.path, t.lines[i])
