"""A user's JSON file as one document, every failure one InputError line naming the file and
the line: not UTF-8, not JSON, or nested too deeply for the parser (the standard library's
json recurses once per level: a document nested 100,000 levels deep raises RecursionError,
here the line where it passes DEEP levels)."""
from __future__ import annotations

import json
import re
from typing import Any

from termeval.core.errors import InputError

DEEP = 500      # the nesting reported as too deep (the parser gives up near the recursion limit)
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}\n]', re.S)


def deep_line(text: str, limit: int = DEEP) -> int | None:
    """The line where the nesting of `text` first passes `limit` levels (None: it never does)."""
    depth, line = 0, 1
    for m in _TOKEN.finditer(text):
        c = m.group()
        if c == "\n":
            line += 1
        elif c in "[{":
            depth += 1
            if depth > limit:
                return line
        elif c in "]}":
            depth -= 1
        else:
            line += c.count("\n")       # a newline inside a string (not valid JSON, but counted)
    return None


def loads(text: str, path: str) -> Any:
    """The JSON document `text` read from `path`; InputError when it is not one."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"not valid JSON: {e.msg} (column {e.colno})", path, e.lineno) from None
    except RecursionError:
        raise InputError(f"not valid JSON here: nested more than {DEEP} levels deep", path, deep_line(text)) from None


def load(path: str, max_bytes: int | None = None) -> Any:
    """The JSON document in the file `path` (UTF-8, a BOM allowed; at most `max_bytes`)."""
    with open(path, "rb") as f:
        raw = f.read() if max_bytes is None else f.read(max_bytes + 1)
    if max_bytes is not None and len(raw) > max_bytes:
        raise InputError(f"larger than {max_bytes} bytes: not the JSON file expected here", path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(f"not valid UTF-8 (byte {e.start})", path) from None
    return loads(text, path)
