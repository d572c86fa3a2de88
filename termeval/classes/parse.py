"""Discovered-class files (ZeroSpeech TDE format) and pairs files -> a prepared class dir.

Input, class format (what real submissions contain is accepted):

    Class <id>[:] [any text]        header; `Class 3:` and `Class 0 [i,j,E,O]` are fine
    <file> <onset> <offset>         one fragment, seconds, recording-relative
    <blank line>                    closes the class; any number of them; optional at the end

Fields may be separated by tabs or runs of spaces, lines may end in CRLF, and a header may
directly follow the previous class without a blank line. The header keyword is matched
case-insensitively. The class id is the token after `Class`, with a trailing ':' removed;
ids made of digits are compared as integers (`01` and `1` are the same id).

Input, pairs format (matching-only systems): `file1 on1 off1 file2 on2 off2 [score]`; each
line becomes a two-member class whose id is the line number (or, with `--pairs-clustering
components`, the pairs are merged into connected components: termeval/classes/components.py). The score is checked to be a
number and otherwise ignored. The format is detected from the first non-blank line (a
`Class` header -> class file, 6 or 7 fields -> pairs file) unless given explicitly.

Checks against the gold data dir's `reco2dur` (strict mode, the default, stops at the first
problem with a one-line error naming file and line; unknown file ids are all listed at once):

    problem                                  strict   lenient
    unknown file id                          error    drop          fragments_dropped_unknown_file
    onset >= offset, negative, NaN, inf      error    drop          fragments_dropped_bad_interval
    offset > file end + tolerance, but       clip     clip          fragments_clipped_to_end
      <= file end + end_tolerance (0.01 s)
      and onset < file end
    offset > file end + end_tolerance        error    truncate      fragments_truncated_beyond_end
      ... and onset >= file end              error    drop          fragments_dropped_beyond_end
    fragment line outside a class            error    drop          fragments_dropped_outside_class
    duplicate class id                       error    keep both     classes_duplicate_id
                                                      as separate classes (both blocks are
                                                      clusters the system output; merging
                                                      would invent pairs, dropping lose them)
    header with no fragment (empty class)    skip     skip          classes_empty
    class whose fragments were all dropped   -        skip          classes_emptied
    malformed line (field count, not a       error    error         (a syntax problem, not
      number, `Class` without an id)                                 data: fix the file)
    no fragment at all (empty file)          error    error

Kept fragment times are the exact parsed doubles, written with `fmt_time`, so nothing is
rounded. Truncated offsets become the reco2dur value. Fragments that repeat in a class and
singleton classes are kept (the metrics decide) and only counted.

Output (`<exp>/classes/`, format documented in termeval/core/datadir.py): `segments`, `utt2class`,
`class2utt`, `class_names`, `counts` (`<name> <int>` lines) and, in lenient mode, `discarded`
(`<line> dropped|truncated <reason> <file> <onset> <offset> [<new offset>]`). The directory
is built next to the target and swapped in only when complete.
"""
from __future__ import annotations

import itertools
import math
import os
import sys
from dataclasses import dataclass, field

import numpy as np

from termeval.classes.records import PreparedClasses
from termeval.classes.fast import parse_plain, write_fragment_files
from termeval.classes.tokens import HEADER_WORDS, class_file_tokens, detect_format, header_id, norm_id
from termeval.core.datadir import class_key, file_starts
from termeval.core import publish
from termeval.core.errors import InputError
from termeval.core.kaldi_files import read_durations
from termeval.core.textio import atomic_write, fmt_time

from termeval.classes.options import DEFAULT_END_TOLERANCE, DEFAULT_TOLERANCE  # noqa: E402,F401

# Order of the counts file and of the `prepare` score lines.
COUNT_NAMES = (
    "classes_read", "fragments_read", "classes_written", "fragments_written",
    "classes_empty", "classes_emptied", "classes_duplicate_id", "classes_singleton",
    "fragments_duplicate_in_class",
    "fragments_dropped_unknown_file", "fragments_dropped_bad_interval",
    "fragments_dropped_outside_class", "fragments_dropped_beyond_end",
    "fragments_truncated_beyond_end", "fragments_clipped_to_end",
)




def read_reco2dur(data_dir: str) -> dict[str, float]:
    """File durations of a prepared gold data dir."""
    path = os.path.join(data_dir, "reco2dur")
    if not os.path.isfile(path):
        raise InputError("missing reco2dur: not a prepared gold data dir (see steps/prepare_gold.sh)", path)
    return read_durations(path)


def _to_float(values: list[str], lines: list[int], path: str, what: str) -> np.ndarray:
    """Vectorised float parse; on failure find the first bad line for the message."""
    try:
        return np.array(values, dtype=np.float64) if values else np.zeros(0)
    except ValueError:
        for v, n in zip(values, lines):
            try:
                float(v)
            except ValueError:
                raise InputError(f"{what} '{v}' is not a number", path, n) from None
        return np.array([float(v) for v in values], dtype=np.float64)  # numpy-only quirks


FAST_CLASSES = True   # False: the line-by-line reader only (the reference of the tests)


@dataclass
class _Lines:
    """The fragment lines of a class or pairs file, as text, in file order."""
    cls_ids: list[str] = field(default_factory=list)      # raw class ids, header lines
    cls_line: list[int] = field(default_factory=list)
    fr_cls: list[int] = field(default_factory=list)       # fragments by raw class index
    fr_file: list[str] = field(default_factory=list)
    fr_on: list[str] = field(default_factory=list)
    fr_off: list[str] = field(default_factory=list)
    fr_line: list[int] = field(default_factory=list)
    outside: list[tuple[int, str]] = field(default_factory=list)   # (line, text) outside any class
    duplicate_ids: int = 0
    nonblank: int = 0


def parse_class_file(path: str, durations: dict[str, float], lenient: bool = False,
                     fmt: str = "auto", tolerance: float = DEFAULT_TOLERANCE,
                     end_tolerance: float = DEFAULT_END_TOLERANCE) -> PreparedClasses:
    """Parse and check a class or pairs file against the file durations (see module doc)."""
    if fmt in ("auto", "class") and FAST_CLASSES:   # a plain class file: on its bytes (classfast)
        prep = parse_plain(path, durations, tolerance, end_tolerance)
        if prep is not None:
            return prep
    tokens = class_file_tokens(path)
    head = []  # lines up to the first non-blank one, which decides the format
    for item in tokens:
        head.append(item)
        if item[2]:
            break
    if fmt == "auto":
        fmt = detect_format(parts for _, _, parts in head)
    tokens = itertools.chain(head, tokens)
    if fmt not in ("class", "pairs"):
        raise ValueError(f"unknown format {fmt!r}")
    r = _class_lines(tokens, path, lenient) if fmt == "class" else _pair_lines(tokens, path)
    if r.nonblank == 0:
        raise InputError("empty class file (no 'Class' header and no fragment)", path)
    del tokens
    fr_file, fr_on, fr_off, outside = r.fr_file, r.fr_on, r.fr_off, r.outside
    line = np.array(r.fr_line, dtype=np.int64)
    on = _to_float(fr_on, r.fr_line, path, "onset") + 0.0     # + 0.0: -0 becomes 0
    off = _to_float(fr_off, r.fr_line, path, "offset")
    cls = np.array(r.fr_cls, dtype=np.int64)
    nfr = len(on)

    # Per-fragment checks, vectorised. dur = NaN for unknown files.
    dur_get = durations.get
    dur = np.array([dur_get(f, math.nan) for f in fr_file], dtype=np.float64) if nfr else np.zeros(0)
    unknown = np.isnan(dur)
    with np.errstate(invalid="ignore"):
        bad = ~unknown & ~(np.isfinite(on) & np.isfinite(off) & (on >= 0) & (on < off))
        over = ~unknown & ~bad & (off > dur + tolerance)
        # submissions write 3 decimals, gold ends have 4: a fragment ending at most one frame
        # after its file's end is clipped to the end (1e-9: decimal text vs binary sums)
        clip = over & (on < dur) & (off - dur <= end_tolerance + 1e-9)
        beyond = over & ~clip
        beyond_all = beyond & (on >= dur)
    if not lenient:
        _strict_checks(r, line, on, off, dur, unknown, bad, beyond, end_tolerance, path)

    drop = unknown | bad | beyond_all
    trunc = beyond & ~beyond_all
    discarded = _discarded(r, line, dur, (("unknown_file", unknown), ("bad_interval", bad),
                                          ("beyond_end", beyond_all)), trunc)
    off = np.where(trunc | clip, dur, off)
    keep = ~drop
    kcls = cls[keep]
    ncls = len(r.cls_ids)
    per_raw = np.bincount(cls, minlength=ncls)
    per_kept = np.bincount(kcls, minlength=ncls)
    written = np.flatnonzero(per_kept > 0)
    # Renumber kept classes 0..K-1 in file order; kept fragments are already grouped in order.
    remap = np.full(ncls, -1, dtype=np.int64)
    remap[written] = np.arange(len(written))
    new_cls = remap[kcls]
    starts = file_starts(new_cls, len(written))
    kidx = np.flatnonzero(keep)
    kfile = [fr_file[i] for i in kidx.tolist()]
    kon = on[keep]
    koff = off[keep]

    counts = {
        "classes_read": ncls,
        "fragments_read": nfr + len(outside),
        "classes_written": int(len(written)),
        "fragments_written": int(keep.sum()),
        "classes_empty": int((per_raw == 0).sum()),
        "classes_emptied": int(((per_raw > 0) & (per_kept == 0)).sum()),
        "classes_duplicate_id": r.duplicate_ids,
        "classes_singleton": int((per_kept == 1).sum()),
        "fragments_duplicate_in_class": _repeated_in_class(new_cls, kfile, kon, koff),
        "fragments_dropped_unknown_file": int(unknown.sum()),
        "fragments_dropped_bad_interval": int(bad.sum()),
        "fragments_dropped_outside_class": len(outside),
        "fragments_dropped_beyond_end": int(beyond_all.sum()),
        "fragments_truncated_beyond_end": int(trunc.sum()),
        "fragments_clipped_to_end": int(clip.sum()),
    }
    notes = _notes(counts, r, per_raw, line, clip, end_tolerance)
    if counts["fragments_written"] == 0:
        raise InputError("no fragment left to evaluate" + (
            f" (read {nfr + len(outside)}, all dropped; see the counts above)" if nfr + len(outside) else ""), path)
    return PreparedClasses(names=[r.cls_ids[c] for c in written.tolist()], starts=starts, file=kfile,
                           onset=kon, offset=koff, line=line[keep], fmt=fmt, counts=counts,
                           discarded=discarded, notes=notes)


def _class_lines(tokens, path: str, lenient: bool) -> _Lines:
    """The lines of a class file (headers, fragments, blank lines closing a class)."""
    r = _Lines()
    cls_ids, cls_line, outside = r.cls_ids, r.cls_line, r.outside
    fr_cls, fr_file, fr_on, fr_off, fr_line = r.fr_cls, r.fr_file, r.fr_on, r.fr_off, r.fr_line
    seen: dict[str, int] = {}
    cur = -1
    headers = HEADER_WORDS
    intern = sys.intern
    for n, raw, parts in tokens:
        if len(parts) == 3 and parts[0] not in headers and cur >= 0:   # the common case
            fr_file.append(intern(parts[0]))   # one string object per file id
            fr_on.append(parts[1])
            fr_off.append(parts[2])
            fr_cls.append(cur)
            fr_line.append(n)
            continue
        if not parts:
            cur = -1
            continue
        p0 = parts[0]
        if p0 in headers:
            raw_id = header_id(parts, path, n)
            cid = norm_id(raw_id)
            if cid in seen:
                if not lenient:
                    raise InputError(f"duplicate class id '{parts[1]}' (first at line {seen[cid]}); "
                                     "use --lenient true to keep both as separate classes", path, n)
                r.duplicate_ids += 1
            else:
                seen[cid] = n
            cur = len(cls_ids)
            cls_ids.append(raw_id)
            cls_line.append(n)
            continue
        if len(parts) != 3:
            raise InputError(f"expected 'Class <id>' or '<file> <onset> <offset>', got {len(parts)} "
                             f"fields: '{raw.strip()}'", path, n)
        # a fragment line outside a class
        if not lenient:
            where = "before any 'Class' header" if not cls_ids else \
                "outside a class (after a blank line, before the next 'Class' header)"
            raise InputError(f"fragment line {where}", path, n)
        outside.append((n, " ".join(parts)))
    r.nonblank = len(fr_file) + len(cls_ids) + len(outside)
    return r


def _pair_lines(tokens, path: str) -> _Lines:
    """The lines of a pairs file: each a two-member class named by its line number."""
    r = _Lines()
    cls_ids, cls_line = r.cls_ids, r.cls_line
    fr_cls, fr_file, fr_on, fr_off, fr_line = r.fr_cls, r.fr_file, r.fr_on, r.fr_off, r.fr_line
    sc: list[str] = []
    sc_line: list[int] = []
    nonblank = 0
    for n, _, parts in tokens:
        if not parts:
            continue
        nonblank += 1
        if len(parts) not in (6, 7):
            raise InputError(f"expected 'file1 on1 off1 file2 on2 off2 [score]', got {len(parts)} "
                             f"fields", path, n)
        c = len(cls_ids)
        cls_ids.append(str(n))
        cls_line.append(n)
        fr_cls += [c, c]
        fr_file += [parts[0], parts[3]]
        fr_on += [parts[1], parts[4]]
        fr_off += [parts[2], parts[5]]
        fr_line += [n, n]
        if len(parts) == 7:
            sc.append(parts[6])
            sc_line.append(n)
    _to_float(sc, sc_line, path, "score")
    r.nonblank = nonblank
    return r


def _strict_checks(r: _Lines, line: np.ndarray, on: np.ndarray, off: np.ndarray, dur: np.ndarray,
                   unknown: np.ndarray, bad: np.ndarray, beyond: np.ndarray, end_tolerance: float,
                   path: str) -> None:
    """Strict mode: the first problem as one error (every unknown file id listed)."""
    fr_file, fr_on, fr_off = r.fr_file, r.fr_on, r.fr_off
    if unknown.any():
        idx = np.flatnonzero(unknown)
        first: dict[str, int] = {}
        cnt: dict[str, int] = {}
        for i in idx.tolist():
            f = fr_file[i]
            if f not in first:
                first[f] = int(line[i])
            cnt[f] = cnt.get(f, 0) + 1
        desc = ", ".join(f"{f} ({cnt[f]} fragment{'s' if cnt[f] > 1 else ''}, first at line {first[f]})"
                         for f in first)
        hint = " (none of the file ids is known: wrong data dir?)" if len(idx) == len(on) else ""
        raise InputError(f"{len(idx)} fragments with {len(first)} unknown file ids{hint}, not in "
                         f"reco2dur: {desc}; use --lenient true to drop them",
                         path, int(line[idx[0]]))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        a, b = fr_on[i], fr_off[i]
        why = ("onset >= offset" if np.isfinite(on[i]) and np.isfinite(off[i]) and on[i] >= 0
               else "times must be finite and non-negative")
        raise InputError(f"bad fragment '{fr_file[i]} {a} {b}': {why}; use --lenient true to drop it",
                         path, int(line[i]))
    if beyond.any():
        i = int(np.flatnonzero(beyond)[0])
        raise InputError(f"fragment '{fr_file[i]} {fr_on[i]} {fr_off[i]}' ends after the end of "
                         f"file {fr_file[i]} ({fmt_time(dur[i])} s in reco2dur) by more than "
                         f"--end-tolerance {end_tolerance:g} s; use --lenient true to truncate it",
                         path, int(line[i]))


def _discarded(r: _Lines, line: np.ndarray, dur: np.ndarray, dropped: tuple, trunc: np.ndarray) -> list:
    """The `discarded` records (line, dropped|truncated, reason, text), by line: the lines
    outside a class, the fragments of each (reason, mask) of `dropped`, the truncated ones."""
    discarded: list[tuple[int, str, str, str]] = []
    for n, txt in r.outside:
        discarded.append((n, "dropped", "outside_class", txt))
    for reason, mask in dropped + (("beyond_end", trunc),):
        for i in np.flatnonzero(mask).tolist():
            txt = f"{r.fr_file[i]} {r.fr_on[i]} {r.fr_off[i]}"
            if mask is trunc:
                discarded.append((int(line[i]), "truncated", reason, f"{txt} {fmt_time(dur[i])}"))
            else:
                discarded.append((int(line[i]), "dropped", reason, txt))
    discarded.sort(key=lambda x: x[0])
    return discarded


def _repeated_in_class(new_cls: np.ndarray, kfile: list[str], kon: np.ndarray, koff: np.ndarray) -> int:
    """Kept fragments repeating another of their class (informational): sorted by (class, file,
    on, off)."""
    if len(kfile) <= 1:
        return 0
    codes: dict[str, int] = {}
    fcode = np.array([codes.setdefault(f, len(codes)) for f in kfile], dtype=np.int64)
    order = np.lexsort((koff, kon, fcode, new_cls))
    s = (new_cls[order], fcode[order], kon[order], koff[order])
    same = np.ones(len(order) - 1, dtype=bool)
    for a in s:
        same &= a[1:] == a[:-1]
    return int(same.sum())


def _notes(counts: dict, r: _Lines, per_raw: np.ndarray, line: np.ndarray, clip: np.ndarray,
           end_tolerance: float) -> list[str]:
    notes = []
    if counts["classes_empty"]:
        first_empty = r.cls_line[int(np.flatnonzero(per_raw == 0)[0])]
        notes.append(f"skipped {counts['classes_empty']} empty classes (a header with no fragment, "
                     f"first at line {first_empty})")
    if counts["fragments_clipped_to_end"]:
        first_clip = int(line[int(np.flatnonzero(clip)[0])])
        notes.append(f"clipped {counts['fragments_clipped_to_end']} fragments that end at most "
                     f"{end_tolerance:g} s after the end of their file to that end (first at line {first_clip})")
    return notes


def write_class_dir(prep: PreparedClasses, class_dir: str, lenient: bool = False) -> None:
    """Write the prepared class dir; built in a temp dir beside it and swapped in at the end."""
    with publish.output_dir(class_dir) as tmp:
        keys = [class_key(c) for c in range(len(prep.names))]
        write_fragment_files(prep, tmp, keys, FAST_CLASSES)   # segments, utt2class, class2utt
        with atomic_write(os.path.join(tmp, "class_names")) as f:
            f.write("".join(f"{k} {n}\n" for k, n in zip(keys, prep.names)))
        with atomic_write(os.path.join(tmp, "counts")) as f:
            f.write("".join(f"{k} {prep.counts[k]}\n" for k in COUNT_NAMES))
        if lenient:
            with atomic_write(os.path.join(tmp, "discarded")) as f:
                f.write("".join(f"{n} {a} {r} {t}\n" for n, a, r, t in prep.discarded))


def summary(prep: PreparedClasses) -> str:
    return summary_of(prep.counts, prep.fmt)


def summary_of(c: dict, fmt: str) -> str:
    """One line: what was written and read, and what was changed (dropped, truncated, ...)."""
    s = (f"{c['fragments_written']} fragments in {c['classes_written']} classes "
         f"(read {c['fragments_read']} fragments, {c['classes_read']} classes, {fmt} format)")
    changed = {k: v for k, v in c.items() if v and (k.startswith("fragments_dropped")
               or k.startswith(("fragments_truncated", "fragments_clipped")) or k in ("classes_emptied", "classes_duplicate_id"))}
    if changed:
        s += "; " + ", ".join(f"{k} {v}" for k, v in changed.items())
    return s
