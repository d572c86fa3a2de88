"""Which face is running a step, and how that face spells the step's names: one option name of
the declaration (a field of the step's Options) -> `--lenient true` on the command line (the
shell steps, `termeval <step>`, `python -m termeval.bin.<step>`), `lenient=True` in the Python
API; the name heading a warning line (`score_tde.py: warning:`, `termeval score-tde: warning:`,
`score_tde: warning:` for termeval.score_tde, never the caller's script).

The command line is the default face; the API enters its own for the length of a call
(`as_api("score_tde")`, a context variable: two threads calling the API keep their own).
"""
from __future__ import annotations

import contextlib
import contextvars
import os
import sys
from typing import Any, Iterator

_API: contextvars.ContextVar[str | None] = contextvars.ContextVar("termeval_api_call", default=None)
NOT_GIVEN = object()


@contextlib.contextmanager
def as_api(function: str) -> Iterator[None]:
    """The block runs termeval.<function> of the Python API."""
    token = _API.set(function)
    try:
        yield
    finally:
        _API.reset(token)


def api_call() -> str | None:
    """The API function running in this context (None: a command line)."""
    return _API.get()


def step_name() -> str:
    """The running step's name as its lines show it: the API function, else the program's base
    name (score_tde.py, `termeval score-tde`; a shell step's lines are its Python entry point's)."""
    call = _API.get()
    if call is not None:
        return call
    return os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "termeval"


def _cli_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def spell(option: str, value: Any = NOT_GIVEN, placeholder: str | None = None) -> str:
    """An option as the running face writes it: `--end-tolerance 0.01` / `end_tolerance=0.01`;
    without a value the name alone (`--nj` / `nj`); `placeholder` a value's kind (`--keywords
    FILE` / `keywords=FILE`)."""
    name = option.replace("-", "_").lstrip("_")
    if _API.get() is not None:
        if placeholder is not None:
            return f"{name}={placeholder}"
        return name if value is NOT_GIVEN else f"{name}={value!r}"
    flag = "--" + name.replace("_", "-")
    if placeholder is not None:
        return f"{flag} {placeholder}"
    return flag if value is NOT_GIVEN else f"{flag} {_cli_value(value)}"


def argument(name: str, flag: str | None = None) -> str:
    """How an option check names its option: `argument --nj` (argparse's words on the command
    line; `flag` its spelling there), `nj` in the API."""
    if _API.get() is not None:
        return name
    return f"argument {flag or '--' + name.replace('_', '-')}"
