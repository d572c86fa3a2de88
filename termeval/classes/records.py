"""The two in-memory forms of a read class file, shared by its readers (classes/parse.py,
classes/fast.py, tde/zr2015/classfile.py): PreparedClasses (what the class preparation keeps) and
RawClasses (the zr2015/zr2017 reader's fragments in class order)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

@dataclass
class PreparedClasses:
    """Kept classes: fragments of class c are `starts[c]:starts[c+1]` (class-file order)."""
    names: list[str]
    starts: np.ndarray
    file: list[str]
    onset: np.ndarray
    offset: np.ndarray
    line: np.ndarray
    fmt: str
    counts: dict[str, int] = field(default_factory=dict)
    discarded: list[tuple[int, str, str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    file_codes: tuple[list[str], np.ndarray] | None = None   # `file` factorised, when the reader had it

    def __len__(self) -> int:
        return len(self.onset)


@dataclass
class RawClasses:
    """Fragments in class order: occurrence i is (file[i], onset[i], offset[i]) in class cls[i].
    file is an index into the gold file list, -1 for files the gold does not know."""
    names: list[str]
    cls: np.ndarray
    file: np.ndarray
    onset: np.ndarray
    offset: np.ndarray
    unknown_files: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
