"""The user's regular expressions: --term-attr (KWSEval -q), --file-channels (-N) and
--source-type (-Y), compiled and matched in one place.

They are compiled by the `regex` package (re's syntax and answers; like F4DE's Perl it also
knows POSIX classes `[[:alpha:]]`, atomic groups and possessive quantifiers), and every match
of one pattern in a run shares one time budget (MATCH_SECONDS): a pattern that backtracks
exponentially on a long value (`(a|aa)+$`) is one error line naming the option, never a hang.
Patterns with nested repetition that Perl answers at once (`(a+)+$`) are answered at once here
too (the package's guards against repeated failures).
"""
from __future__ import annotations

import time

import regex

from termeval.core.errors import InputError
from termeval.std.xmlsafe import clip

MATCH_SECONDS = 5.0     # matching time of one pattern over all the values of a run


class UserRegex:
    """One user pattern: `fullmatch(text)` / `search(text)` -> bool, under the time budget."""

    def __init__(self, pattern: str, option: str, ignore_case: bool = False, perl_anchored: bool = False) -> None:
        """`perl_anchored`: matched as F4DE's `/^$re$/i` (the text of `^`, the pattern and `$`,
        so `a|b` is `^a` or `b$`, as Perl reads it)."""
        self.pattern, self.option = pattern, option
        self._left = MATCH_SECONDS
        source = f"^{pattern}$" if perl_anchored else pattern
        try:
            self._rx = regex.compile(source, regex.VERSION0 | (regex.IGNORECASE if ignore_case else 0))
        except (regex.error, RecursionError, OverflowError, ValueError, MemoryError) as e:
            raise InputError(f"{option}: invalid regular expression '{clip(pattern)}': {clip(e)}") from None

    def _matches(self, method, text: str) -> bool:
        start = time.monotonic()
        try:
            return method(text, timeout=max(self._left, 1e-3)) is not None
        except TimeoutError:
            raise InputError(f"{self.option}: the regular expression '{clip(self.pattern)}' took over "
                             f"{MATCH_SECONDS:g} s to match the values (exponential backtracking, e.g. "
                             "nested or overlapping repetitions such as (a|aa)+): simplify it") from None
        finally:
            self._left -= time.monotonic() - start

    def fullmatch(self, text: str) -> bool:
        return self._matches(self._rx.fullmatch, text)

    def search(self, text: str) -> bool:
        return self._matches(self._rx.search, text)
