"""Errors that name the offending input, and the one-line message users see."""
from __future__ import annotations


class InputError(Exception):
    """Bad user input. str() is a single line: '<file>:<line>: <message>'."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None) -> None:
        self.message = message
        self.path = path
        self.line = line
        super().__init__(self.format())

    def format(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line is not None else f"{self.path}: "
        return (where + self.message).replace("\n", " ")
