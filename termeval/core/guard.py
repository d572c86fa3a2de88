"""The one output guard: before a step writes anything, refuse a run whose outputs would
destroy its own inputs or anything that is not the step's own output.

`check_outputs(step, inputs, outputs, dirs=(), files=())` raises InputError (one line naming
the paths) when an output the run creates, replaces or deletes
  - is an input (the same file or directory, through symlinks: paths are resolved), or
  - contains an input (the input lies inside the output directory, which the run replaces
    whole or empties), or
  - is a file the run writes directly in an input directory (`files`, or any output that
    exists there as a file): the run reads that directory's files (a data dir's `phones`,
    `words`, ...), so a file written there could be one of them. An output *directory* inside
    an input directory stays allowed (the README's `data/example/kws` inside `data/example`,
    an exp dir inside a kws dir);
and when an output in `dirs` (a directory the run writes) exists as something else than a
directory (`<exp>/scores` a regular file), or an output in `files` (one file the run writes)
exists as a directory: an error, never removed or replaced (a file put in the place of a
directory would delete all it holds).

An input directory that the run only searches (summarize_scores' exp roots: it reads the
systems' `scores/` files below them and nothing else) is given as `Searched(root, reads)`:
an output below it is refused only when it is one of the files read (its path ends with one of
the patterns `reads`), so `--out exp/RESULTS.md exp` stays allowed and `--out
exp/s/scores/scores.json exp` is refused.

`check_placing(step, pairs, inputs)` is the same check when outputs are moved into place
(termeval/core/publish.py, the driver's `publish`): each (new, destination) pair, with the kind
of the new output known, is refused when the destination exists as the other kind, or when a
new file would land directly in an input directory -- before any of them is moved.

`check_replaced_dir(step, path, names)`: a directory the run replaces whole (prepare_kws' kws
dir) may exist only as the step's own earlier output: holding nothing but `names`.
"""
from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from typing import Collection, Iterable, Sequence

from termeval.core.errors import InputError


@dataclass(frozen=True)
class Searched:
    """An input directory the run only searches: below it, it reads the files whose path ends
    with one of `reads` (e.g. "scores/scores.json"; glob characters allowed)."""
    path: str
    reads: tuple[str, ...]

    def __fspath__(self) -> str:
        return os.fspath(self.path)


def _real(path: str) -> str:
    return os.path.realpath(os.path.abspath(os.fspath(path)))


def _inside(path: str, directory: str) -> bool:
    return path.startswith(directory.rstrip(os.sep) + os.sep)


def _given(p: object) -> bool:
    return p is not None and os.fspath(p) not in ("", "-")    # type: ignore[arg-type]


def _parent(path: str) -> str:
    """The real directory `path` lies in (its last component itself not resolved: a link there
    is replaced, not followed)."""
    return _real(os.path.dirname(os.path.abspath(os.fspath(path))))


class _Inputs:
    """The inputs of a run, resolved once: plain paths and the directories among them."""

    def __init__(self, inputs: Iterable[object]) -> None:
        self.plain: list[tuple[str, str]] = []
        self.searched: list[tuple[str, str, tuple[str, ...]]] = []
        for p in inputs:
            if not _given(p):
                continue
            if isinstance(p, Searched):
                self.searched.append((os.fspath(p.path), _real(p.path), p.reads))
            else:
                self.plain.append((os.fspath(p), _real(p)))     # type: ignore[arg-type]
        self.dirs = [(shown, r) for shown, r in self.plain if os.path.isdir(r)]

    def all(self) -> list[tuple[str, str]]:
        return self.plain + [(shown, r) for shown, r, _ in self.searched]


def _is_or_holds(step: str, ins: _Inputs, out: str) -> None:
    real = _real(out)
    for shown, r in ins.all():
        if r == real:
            raise InputError(f"the output of {step} is its input {shown}: it would be overwritten; "
                             "choose another output", out)
        if _inside(r, real):
            raise InputError(f"the output of {step} contains its input {shown}: it would be deleted "
                             "when the output is replaced; choose another output", out)
    for shown, r, reads in ins.searched:
        if _inside(real, r):
            whole = real.replace(os.sep, "/")
            if any(fnmatch.fnmatchcase(whole, "*/" + pat) for pat in reads):
                raise InputError(f"the output of {step} is one of the files it reads below {shown} "
                                 f"({', '.join(reads)}): it would be overwritten; choose another output", out)


def _in_input_dir(step: str, ins: _Inputs, out: str) -> None:
    parent = _parent(out)
    for shown, r in ins.dirs:
        if parent == r:
            raise InputError(f"the output of {step} is a file in its input directory {shown}, whose "
                             "files it reads: it could overwrite one; choose another output", out)


def _is_dir(path: str) -> bool:
    return os.path.isdir(path)


def _not_a_dir(path: str, step: str) -> InputError:
    return InputError(f"exists and is not a directory ({step} writes a directory there; move the file away)",
                      path)


def _a_dir(path: str, step: str) -> InputError:
    return InputError(f"exists and is a directory ({step} writes a file there, which would replace the "
                      "directory and all it holds; move it away or choose another output)", path)


def check_outputs(step: str, inputs: Iterable[object], outputs: Iterable[str], dirs: Iterable[str] = (),
                  files: Iterable[str] = ()) -> None:
    """InputError when an output is, contains or (a file) lies directly in an input, or is of
    the wrong kind (see the module docstring). `step` names the run in the message."""
    ins = _Inputs(inputs)
    for d in dirs:
        if _given(d) and os.path.lexists(d) and not _is_dir(d):
            raise _not_a_dir(d, step)
    files = [f for f in files if _given(f)]
    for f in files:
        if _is_dir(f):
            raise _a_dir(f, step)
    for out in list(outputs) + files:
        if not _given(out):
            continue
        _is_or_holds(step, ins, out)
        if out in files or (os.path.lexists(out) and not _is_dir(out)):
            _in_input_dir(step, ins, out)


def check_placing(step: str, pairs: Sequence[tuple[str, str]], inputs: Iterable[object] = ()) -> None:
    """Before the new outputs are moved into place: InputError when a destination exists as the
    other kind (a directory where a file goes, a file where a directory goes), or a new file
    would land directly in an input directory, or a destination is or holds an input. `pairs`:
    (the new output, its destination)."""
    ins = _Inputs(inputs)
    for new, dest in pairs:
        new_is_dir = os.path.isdir(new) and not os.path.islink(new)
        if os.path.lexists(dest) and _is_dir(dest) != new_is_dir:
            raise _not_a_dir(dest, step) if new_is_dir else _a_dir(dest, step)
        _is_or_holds(step, ins, dest)
        if not new_is_dir:
            _in_input_dir(step, ins, dest)


def check_replaced_dir(step: str, path: str, names: Collection[str]) -> None:
    """A directory the run replaces whole: absent, or a directory holding nothing but `names`
    (the step's own earlier output; termeval's temporaries and lock aside). Anything else (a
    file, another directory: `prepare_kws data ~/work`) is refused, never replaced."""
    if not os.path.lexists(path):
        return
    if not _is_dir(path):
        raise _not_a_dir(path, step)
    try:
        found = os.listdir(path)
    except OSError as e:
        raise InputError(f"cannot list this directory ({e.strerror})", path) from None
    other = sorted(n for n in found if n not in names and not n.startswith(".termeval-tmp.")
                   and n != ".termeval.lock")
    if other:
        shown = ", ".join(other[:3]) + (", ..." if len(other) > 3 else "")
        raise InputError(f"exists and holds what {step} does not write ({shown}): it would be deleted "
                         "when the output is replaced; choose another output (or move it away)", path)
