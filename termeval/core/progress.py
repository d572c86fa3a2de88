"""Progress bars of long loops: tqdm on stderr, silent when stderr is not a terminal."""
from __future__ import annotations

import sys

from tqdm import tqdm


def progress(iterable, **kwargs):
    """tqdm on stderr, silent when stderr is not a terminal (job logs stay readable)."""
    kwargs.setdefault("disable", None)  # None: disable on non-TTY
    kwargs.setdefault("file", sys.stderr)
    kwargs.setdefault("leave", False)
    return tqdm(iterable, **kwargs)
