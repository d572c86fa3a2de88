"""Shared helpers for the thin command-line scripts in steps/, utils/ and local/.

Every script builds an argparse parser with `make_parser` (its docstring becomes --help) and
calls `run(main)`, which turns `InputError` and other expected failures into a one-line message
naming the file and line, with a non-zero exit status and no traceback.
"""
from __future__ import annotations

import argparse
import os
import sys
import textwrap
from typing import Callable, Sequence

from termeval.errors import InputError


def str2bool(value: str) -> bool:
    """Shell-style booleans, as in Kaldi's steps/libs/common.py (bool('false') is True)."""
    if value in ("true", "True", "1"):
        return True
    if value in ("false", "False", "0"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got '{value}'")


def make_parser(doc: str | None, prog: str | None = None) -> argparse.ArgumentParser:
    return argparse.ArgumentParser(
        prog=prog, description=textwrap.dedent(doc or ""),
        formatter_class=argparse.RawDescriptionHelpFormatter)


def run(main: Callable[[Sequence[str]], int | None], argv: Sequence[str] | None = None) -> None:
    """Run main(argv); exit 1 with 'prog: message' on InputError/OSError, 130 on Ctrl-C."""
    prog = os.path.basename(sys.argv[0])
    try:
        code = main(sys.argv[1:] if argv is None else argv)
    except InputError as e:
        print(f"{prog}: error: {e.format()}", file=sys.stderr)
        sys.exit(1)
    except (OSError, UnicodeDecodeError) as e:
        print(f"{prog}: error: {e}".replace("\n", " "), file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(code or 0)


def progress(iterable, **kwargs):
    """tqdm on stderr, silent when stderr is not a terminal (job logs stay readable)."""
    from tqdm import tqdm
    kwargs.setdefault("disable", None)  # None: disable on non-TTY
    kwargs.setdefault("file", sys.stderr)
    kwargs.setdefault("leave", False)
    return tqdm(iterable, **kwargs)
