"""Errors that name the offending input, and the one-line message users see."""
from __future__ import annotations

import re

MAX_QUOTE = 200  # characters of an input line (or token) quoted in a message

# a quoted stretch ('...' after a space, '(' or '=', before a delimiter) or an unquoted token
_QUOTED = re.compile(r"(?<![^\s(=])'(.*?)'(?=[\s:;,.)]|$)|\S{%d,}" % (MAX_QUOTE + 1))
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _cut(m: re.Match) -> str:
    text = m.group(0)
    inner = m.group(1) if m.group(1) is not None else None
    if inner is not None:
        if len(inner) <= MAX_QUOTE:
            return text
        return f"'{inner[:MAX_QUOTE]}...' ({len(inner)} characters)"
    return f"{text[:MAX_QUOTE]}... ({len(text)} characters)"


def shorten(message: str) -> str:
    """One printable line: control characters escaped, long quotes cut to MAX_QUOTE characters."""
    message = message.replace("\r\n", " ").replace("\n", " ")
    message = _CONTROL.sub(lambda m: "\\x%02x" % ord(m.group(0)), message)
    return _QUOTED.sub(_cut, message)


class InputError(Exception):
    """Bad user input. str() is a single line: '<file>:<line>: <message>'."""

    # more lines of the same error, printed before it (each `<step>: error: <line>`)
    preceding: tuple[str, ...] = ()

    def __init__(self, message: str, path: str | None = None, line: int | None = None) -> None:
        self.message = message
        self.path = path
        self.line = line
        super().__init__(self.format())

    def format(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line is not None else f"{self.path}: "
        return shorten(where + self.message)
