"""The one output guard: before a step writes anything, refuse a run whose outputs would
destroy its own inputs.

`check_outputs(step, inputs, outputs, dirs=())` raises InputError (one line naming both paths)
when an output the run creates, replaces or deletes
  - is an input (the same file or directory, through symlinks: paths are resolved), or
  - contains an input (the input lies inside the output directory, which the run replaces
    whole or empties),
and when an output in `dirs` (a directory the run needs) exists as something else than a
directory (`<exp>/scores` a regular file: an error, never removed). An output lying inside an
input directory is allowed (the README's `data/example/kws` inside `data/example`).
"""
from __future__ import annotations

import os
from typing import Iterable

from termeval.core.errors import InputError


def _real(path: str) -> str:
    return os.path.realpath(os.path.abspath(os.fspath(path)))


def _inside(path: str, directory: str) -> bool:
    return path.startswith(directory.rstrip(os.sep) + os.sep)


def check_outputs(step: str, inputs: Iterable[str], outputs: Iterable[str], dirs: Iterable[str] = ()) -> None:
    """InputError when an output is, or contains, an input, or a needed directory exists as a
    non-directory (see the module docstring). `step` names the run in the message."""
    ins = [(p, _real(p)) for p in inputs if p not in (None, "", "-")]
    for d in dirs:
        if os.path.lexists(d) and not os.path.isdir(d):
            raise InputError("exists and is not a directory (the run writes a directory there; "
                             "move the file away)", d)
    for out in outputs:
        if out in (None, "", "-"):
            continue
        real = _real(out)
        for shown, r in ins:
            if r == real:
                raise InputError(f"the output of {step} is its input {shown}: it would be overwritten; "
                                 "choose another output", out)
            if _inside(r, real):
                raise InputError(f"the output of {step} contains its input {shown}: it would be deleted "
                                 "when the output is replaced; choose another output", out)
