"""The one class-file tokenizer of every benchmark (zrc2020 preparation, zr2015/zr2017 reader,
test helpers): lines split at any whitespace, CRLF and a BOM tolerated, `Class <id>[:] [text]`
headers with the keyword in any capitalisation. Each reader applies its benchmark's rules on top."""
from __future__ import annotations

from typing import Iterable, Iterator

from termeval.core.errors import InputError
from termeval.core.textio import read_text


# "Class", "class", "CLASS", ...: every capitalisation, for a set lookup per line.
HEADER_WORDS = frozenset("".join(c.upper() if (m >> i) & 1 else c for i, c in enumerate("class"))
                          for m in range(32))


def class_file_tokens(path: str) -> Iterator[tuple[int, str, list[str]]]:
    """(line number, line text, fields) of every line of a class or pairs file: UTF-8 (BOM
    tolerated, NUL bytes refused), CRLF or LF, fields split at any run of whitespace (tabs
    too); a blank line has no fields."""
    for n, raw in enumerate(read_text(path).split("\n"), 1):
        yield n, raw, raw.split()


def is_header(parts: list[str]) -> bool:
    """A `Class <id> [text]` header line (keyword in any capitalisation)."""
    return bool(parts) and parts[0] in HEADER_WORDS


def header_id(parts: list[str], path: str, line: int) -> str:
    """The class id of a header as written: the token after `Class`, a trailing ':' removed."""
    if len(parts) < 2:
        raise InputError("class header without an id: 'Class' must be followed by the class id", path, line)
    tok = parts[1]
    return tok[:-1] if tok.endswith(":") and len(tok) > 1 else tok


def header_text(raw: str) -> str | None:
    """The free text after the id of a header line (e.g. `[i,j,E,O]`), or None."""
    rest = raw.split(None, 2)
    return rest[2].strip() or None if len(rest) > 2 else None


def norm_id(token: str) -> str:
    """Ids made of digits compare as integers (`01` is `1`)."""
    # lstrip, not int(): int() refuses more than 4300 digits
    return (token.lstrip("0") or "0") if token.isascii() and token.isdigit() else token


def detect_format(tokens: Iterable[list[str]]) -> str:
    """class or pairs, from the first non-blank line (a header -> class, 6 or 7 fields -> pairs)."""
    for parts in tokens:
        if not parts:
            continue
        if parts[0] in HEADER_WORDS:
            return "class"
        return "pairs" if len(parts) in (6, 7) else "class"
    return "class"
