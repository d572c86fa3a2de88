"""Progress bars of long loops: tqdm on stderr, silent when stderr is not a terminal."""
from __future__ import annotations

import sys

def progress(iterable, **kwargs):
    """tqdm on stderr, silent when stderr is not a terminal (job logs stay readable)."""
    from tqdm import tqdm
    kwargs.setdefault("disable", None)  # None: disable on non-TTY
    kwargs.setdefault("file", sys.stderr)
    kwargs.setdefault("leave", False)
    return tqdm(iterable, **kwargs)
