"""The one output guard: an output path that is, or holds, one of the run's inputs is refused
before anything is written (one error line naming both)."""
from __future__ import annotations

import os
from typing import Iterable

from termeval.core.errors import InputError


def _real(path: str) -> str:
    return os.path.realpath(os.path.abspath(os.fspath(path)))


def check_outputs(step: str, inputs: Iterable[str], outputs: Iterable[str]) -> None:
    """Refuse an output that is an input, or a directory an input lies inside."""
    ins = [(p, _real(p)) for p in inputs if p not in (None, "", "-")]
    for out in outputs:
        o = _real(out)
        for given, i in ins:
            if i == o:
                raise InputError(f"output {out} is the input {given}: refusing to overwrite an input")
            if i.startswith(o.rstrip(os.sep) + os.sep):
                raise InputError(f"output {out} holds the input {given}: refusing to replace it")
