"""Fold files of the 2015/2017 challenges and the fold restrictions R1, R2, W(F) (spec §2.4, §4).

* `<prefix>.split`: `file onset offset` lines (VAD intervals), used for truncation (§3.3);
* `<prefix>.intervals.cross` / `.intervals.within`: blocks of such lines separated by exactly
  one blank line ("\\n\\n"); each block is one fold;
* `--folds none`: one cross fold = the whole corpus, one within fold per speaker (utt2spk),
  no split truncation.

A fragment or word is in fold F iff it lies fully inside one interval of F of the same file
(start >= interval start, end <= interval end) and has positive length (the original's
`IntervalDB.is_covered`, whose candidates need a positive raw overlap).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from termeval.core.errors import InputError
from termeval.core.textio import read_text
from termeval.core.intervals import last_le


@dataclass
class Intervals:
    """Per-file intervals sorted by (file, onset, offset); file indexes the gold file list."""
    file: np.ndarray
    onset: np.ndarray
    offset: np.ndarray
    nlines: int = 0                 # intervals in the fold file (what the original prints)
    unknown: int = 0                # intervals of files the gold does not know (ignored)
    whole_files: bool = False       # every interval is [0, inf): membership by file only

    def __len__(self) -> int:
        return len(self.onset)


@dataclass
class FoldSet:
    name: str                       # cross | within
    folds: list[Intervals] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)


def _intervals(rows: list[tuple[int, float, float]], nlines: int, unknown: int) -> Intervals:
    if rows:
        f, s, e = (np.array(x) for x in zip(*rows))
    else:
        f, s, e = np.zeros(0, np.int64), np.zeros(0), np.zeros(0)
    f = f.astype(np.int64)
    s = s.astype(np.float64)
    e = e.astype(np.float64)
    order = np.lexsort((e, s, f))
    return Intervals(f[order], s[order], e[order], nlines, unknown)


def _parse_block(text: str, path: str, first_line: int, file_index: dict[str, int]) -> Intervals:
    rows = []
    nlines = unknown = 0
    for k, line in enumerate(text.split("\n")):
        if line == "":
            continue
        parts = line.strip().split(" ")
        if len(parts) != 3:
            raise InputError("expected '<file> <onset> <offset>' (single spaces)", path, first_line + k)
        try:
            s, e = float(parts[1]), float(parts[2])
        except ValueError:
            raise InputError(f"bad times '{parts[1]} {parts[2]}'", path, first_line + k) from None
        if not (np.isfinite(s) and np.isfinite(e)) or e < s:
            raise InputError("invalid interval", path, first_line + k)
        nlines += 1
        f = file_index.get(parts[0], -1)
        if f < 0:
            unknown += 1
            continue
        rows.append((f, s, e))
    return _intervals(rows, nlines, unknown)


def read_split(path: str, file_index: dict[str, int]) -> Intervals:
    text = read_text(path).replace("\r\n", "\n")
    return _parse_block(text, path, 1, file_index)


def read_foldset(path: str, name: str, file_index: dict[str, int]) -> FoldSet:
    """Blocks separated by exactly '\\n\\n' (as the original's split); empty blocks are kept as
    empty folds (the original scores them as NaN folds)."""
    text = read_text(path).replace("\r\n", "\n")
    fs = FoldSet(name)
    line = 1
    for i, block in enumerate(text.split("\n\n")):
        if i == len(text.split("\n\n")) - 1 and block.strip() == "" and i > 0:
            break  # trailing blank line at end of file
        fs.folds.append(_parse_block(block, path, line, file_index))
        fs.labels.append(f"{name}{i}")
        line += block.count("\n") + 2
    return fs


def whole_corpus(nfiles: int) -> Intervals:
    f = np.arange(nfiles, dtype=np.int64)
    return Intervals(f, np.zeros(nfiles), np.full(nfiles, np.inf), nlines=nfiles, whole_files=True)


def per_speaker(speakers: list[str]) -> FoldSet:
    """--folds none, within: one fold per speaker (sorted), holding all files of the speaker."""
    fs = FoldSet("within")
    spk = np.array(speakers)
    for s in sorted(set(speakers)):
        f = np.flatnonzero(spk == s).astype(np.int64)
        fs.folds.append(Intervals(f, np.zeros(len(f)), np.full(len(f), np.inf), nlines=len(f),
                                  whole_files=True))
        fs.labels.append(s)
    return fs


def contained(fold: Intervals, qf, qs, qe) -> np.ndarray:
    """R1/W(F) membership: inside one interval of the fold (same file), positive length."""
    qf = np.asarray(qf, dtype=np.int64)
    qs = np.asarray(qs, dtype=np.float64)
    qe = np.asarray(qe, dtype=np.float64)
    if len(fold) == 0:
        return np.zeros(len(qf), dtype=bool)
    if fold.whole_files:
        member = np.zeros(max(int(fold.file.max()), int(qf.max()) if len(qf) else 0) + 1, dtype=bool)
        member[fold.file] = True
        return member[qf] & (qe > qs) & (qs >= 0)
    # only queries of the fold's files go through the sort (a fold is often a few files)
    member = np.zeros(max(int(fold.file.max()), int(qf.max()) if len(qf) else 0) + 1, dtype=bool)
    member[fold.file] = True
    sel = np.flatnonzero(member[qf])
    out = np.zeros(len(qf), dtype=bool)
    r = last_le(fold.file, fold.onset, qf[sel], qs[sel])   # last interval with start <= qs
    rr = np.where(r >= 0, r, 0)
    out[sel] = (r >= 0) & (fold.offset[rr] >= qe[sel]) & (qe[sel] > qs[sel])
    return out


FOLD_SUFFIXES = ("split", "intervals.cross", "intervals.within")


def resolve_auto(data_dir: str) -> tuple[str, str | None]:
    """--folds auto: (<data-dir>/folds, None) when the data dir holds the challenge's fold files,
    else ("none", note): the public data has no fold files, so the whole corpus is scored
    (steps/score_tde_folds.sh says it before any job; the merge records the note). Some fold
    files but not all is an error naming the first missing one."""
    prefix = os.path.join(data_dir, "folds")
    have = [os.path.isfile(f"{prefix}.{k}") for k in FOLD_SUFFIXES]
    if all(have):
        return prefix, None
    if any(have):
        missing = f"{prefix}.{FOLD_SUFFIXES[have.index(False)]}"
        raise InputError("--folds auto: the data dir has some fold files but not this one (needs "
                         "folds.split, folds.intervals.cross, folds.intervals.within)", missing)
    return "none", (f"--folds auto: no fold files in {data_dir} (folds.split, folds.intervals.cross, "
                    "folds.intervals.within; the public data has none): scoring the whole corpus as "
                    "--folds none (cross = one fold, within = one fold per speaker)")


def fold_prefix_files(prefix: str) -> dict[str, str]:
    files = {k: f"{prefix}.{k}" for k in ("split", "intervals.cross", "intervals.within")}
    for k, p in files.items():
        if not os.path.isfile(p):
            raise InputError(f"missing fold file {p} (--folds {prefix} names <prefix>.split, "
                             "<prefix>.intervals.cross and <prefix>.intervals.within)", p)
    cls = f"{prefix}.classes"
    if os.path.isfile(cls):
        files["classes"] = cls
    return files
