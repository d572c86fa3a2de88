"""A well-formed class file parsed on the bytes of its chunks (numpy; classes.parse_class_file).

A benchmark's class file (x10 of the scale bench: 3.6 M fragment lines) is read the way
textio.read_table reads column files: token bounds per 4 MB chunk, the fragment times by
textfast.parse_floats (float() of the text, bit for bit), the file ids by a
textfast.Factoriser; headers (one per class) are read in Python. Only the plain case is done
here: `Class <id> [text]` headers with distinct ids, `<file> <onset> <offset>` lines inside a
class, blank lines, and every fragment known, finite and inside its file (at most clipped to
its end). Anything else -- another line shape, a fragment outside a class, a duplicate id,
an odd token or whitespace, a fragment to drop or truncate, a read error -- returns None and
parse_class_file takes its line-by-line path, which gives the message or the lenient counts.
The result equals that path's, value for value.
"""
from __future__ import annotations

import math
import os

import numpy as np

from termeval.core import textfast, textio
from termeval.classes.tokens import header_id, norm_id
from termeval.classes.records import PreparedClasses, RawClasses
from termeval.core.datadir import file_starts
from termeval.core.errors import InputError
from termeval.core.textio import fast_fmt_times

FAST = True   # False: zr2015.classfile.read_classfile reads line by line only (tests)
_CLASS = int.from_bytes(b"class", "little")     # the header keyword, lower case, as a word
_CASE = np.uint64(int.from_bytes(b"\x20" * 5, "little"))


class _Reader:
    """State carried from chunk to chunk."""

    def __init__(self, path: str, zr2015: bool = False) -> None:
        self.zr2015 = zr2015                 # the TDE15/17 reader's rules (zr2015/classfile.py)
        self.texts: list[str | None] = []    # (zr2015) header text after the id
        self.ids: list[str] = []             # raw class ids, file order
        self.id_line: list[int] = []
        self.seen: set = set()
        self.cur = -1                        # class of the last non-blank line (-1: none)
        self.last_line = 0
        self.files: dict[str, int] = {}
        self.factorise = textfast.Factoriser(self.files)
        guess = 1 << 16
        self.cols = {k: textfast.Column(t, guess) for k, t in
                     (("cls", np.int64), ("file", np.int64), ("on", np.float64), ("off", np.float64),
                      ("line", np.int64))}

    def chunk(self, piece: bytes, line_base: int) -> bool:
        """Add the chunk's classes and fragments; False when it is not plain."""
        if not textfast.plain_chunk(piece):
            return False
        b = np.frombuffer(piece, dtype=np.uint8)
        starts, ends = textfast.token_bounds(b)
        if not len(starts):
            return True
        first, ln = textfast.line_heads(b, starts)
        ln += line_base
        nf = np.diff(np.append(first, len(starts)))
        s0, e0 = starts[first], ends[first]
        word = textfast.token_words(b, s0, np.minimum(e0, s0 + 8), 1)[0]
        header = ((e0 - s0) == 5) & ((word | _CASE) == np.uint64(_CLASS))
        if not (header | (nf == 3)).all() or (nf[header] < 2).any():
            return False
        # a blank line (a gap in the line numbers) or a header starts a block; fragments
        # belong to the header that starts their block
        gap = np.diff(np.concatenate(([self.last_line], ln))) > 1
        block = np.maximum.accumulate(np.where(header | gap, np.arange(len(ln)), -1))
        hidx = np.cumsum(header) - 1 + len(self.ids)
        cls = np.where(block < 0, self.cur, np.where(header[np.maximum(block, 0)], hidx[np.maximum(block, 0)], -1))
        frag = ~header
        if (cls[frag] < 0).any():
            return False
        hrows = np.flatnonzero(header)
        if self.zr2015:   # a header must follow a blank line or a closed class
            before = np.concatenate(([self.cur], cls[:-1]))[hrows]
            if ((before >= 0) & ~gap[hrows]).any():
                return False
        for i, n in zip(hrows.tolist(), ln[header].tolist()):
            t = int(first[i]) + 1
            raw_id = header_id(["Class", piece[starts[t]:ends[t]].decode("utf-8")], "", n)
            if self.zr2015:
                if not (raw_id.isascii() and raw_id.isdigit()) or len(raw_id) >= 4000:
                    return False
                text = piece[starts[t + 1]:ends[t + nf[i] - 2]].decode("utf-8").strip() or None if nf[i] > 2 else None
                cid = (int(raw_id.lstrip("0") or "0"), text)
                self.texts.append(text)
            else:
                cid = norm_id(raw_id)
            if cid in self.seen:
                return False
            self.seen.add(cid)
            self.ids.append(raw_id)
            self.id_line.append(n)
        tok = first[frag]
        on = textfast.parse_floats(b, starts[tok + 1], ends[tok + 1])
        off = textfast.parse_floats(b, starts[tok + 2], ends[tok + 2]) if on is not None else None
        fcode = self.factorise(piece, b, starts[tok], ends[tok]) if off is not None else None
        if fcode is None:
            return False
        for k, v in (("cls", cls[frag]), ("file", fcode), ("on", on), ("off", off), ("line", ln[frag])):
            self.cols[k].add(v)
        self.cur = int(cls[-1])
        self.last_line = int(ln[-1])
        return True


def plain_syntax(path: str) -> bool:
    """Whether the file is a plain class file (see the module doc) with at least one class and
    every fragment's onset before its offset, read in bulk; False says nothing (the caller's
    line-by-line check then finds the line, if any, that is wrong)."""
    reader = _Reader(path)
    try:
        for piece, line_base in textio.iter_byte_chunks(path):
            if not reader.chunk(piece, line_base):
                return False
    except InputError:
        return False
    on, off = reader.cols["on"].done(), reader.cols["off"].done()
    return bool(reader.ids) and bool((on < off).all())


def parse_plain(path: str, durations: dict[str, float], tolerance: float, end_tolerance: float):
    """parse_class_file's result for a plain class file, or None (see the module doc)."""
    reader = _Reader(path)
    try:
        for piece, line_base in textio.iter_byte_chunks(path):
            if not reader.chunk(piece, line_base):
                return None
    except InputError:           # the line-by-line reader's own check gives its message
        return None
    c = {k: col.done() for k, col in reader.cols.items()}
    nfr = len(c["on"])
    if not nfr or reader.last_line == 0:
        return None
    names = list(reader.files)
    dur_of = np.array([durations.get(f, math.nan) for f in names], dtype=np.float64)
    dur = dur_of[c["file"]]
    on = c["on"] + 0.0                                      # -0 becomes 0
    off = c["off"]
    with np.errstate(invalid="ignore"):
        if np.isnan(dur_of).any() or not ((on >= 0) & (on < off)).all():
            return None
        over = off > dur + tolerance
        clip = over & (on < dur) & (off - dur <= end_tolerance + 1e-9)
    if (over & ~clip).any():
        return None
    off = np.where(clip, dur, off)
    ncls = len(reader.ids)
    cls = c["cls"]
    per = np.bincount(cls, minlength=ncls)
    written = np.flatnonzero(per > 0)
    remap = np.full(ncls, -1, dtype=np.int64)
    remap[written] = np.arange(len(written))
    new_cls = remap[cls]
    dup = 0
    if nfr > 1:
        order = np.lexsort((off, on, c["file"], new_cls))
        same = np.ones(nfr - 1, dtype=bool)
        for a in (new_cls[order], c["file"][order], on[order], off[order]):
            same &= a[1:] == a[:-1]
        dup = int(same.sum())
    counts = {   # the order of classes.parse_class_file's dict
        "classes_read": ncls, "fragments_read": nfr, "classes_written": int(len(written)),
        "fragments_written": nfr, "classes_empty": int((per == 0).sum()), "classes_emptied": 0,
        "classes_duplicate_id": 0, "classes_singleton": int((per == 1).sum()),
        "fragments_duplicate_in_class": dup, "fragments_dropped_unknown_file": 0,
        "fragments_dropped_bad_interval": 0, "fragments_dropped_outside_class": 0,
        "fragments_dropped_beyond_end": 0, "fragments_truncated_beyond_end": 0,
        "fragments_clipped_to_end": int(clip.sum()),
    }
    notes = []
    if counts["classes_empty"]:
        notes.append(f"skipped {counts['classes_empty']} empty classes (a header with no fragment, "
                     f"first at line {reader.id_line[int(np.flatnonzero(per == 0)[0])]})")
    if counts["fragments_clipped_to_end"]:
        notes.append(f"clipped {counts['fragments_clipped_to_end']} fragments that end at most "
                     f"{end_tolerance:g} s after the end of their file to that end "
                     f"(first at line {int(c['line'][int(np.flatnonzero(clip)[0])])})")
    return PreparedClasses(names=[reader.ids[k] for k in written.tolist()], starts=file_starts(new_cls, len(written)),
                           file=[names[k] for k in c["file"].tolist()], onset=on, offset=off, line=c["line"],
                           fmt="class", counts=counts, discarded=[], notes=notes, file_codes=(names, c["file"]))


def write_fragment_files(prep, tmp: str, keys: list[str], fast: bool = True) -> None:
    """segments, utt2class and class2utt of a class dir (classes.write_class_dir; keys: the
    class keys), built with numpy (termeval.core.textwrite) a block of fragments at a time when
    every class has a fragment, else line by line: the same bytes."""
    from termeval.core.textwrite import int_field, join_lines, literal, table_field, time_field  # not for prepare_classes --help
    nfr = len(prep)
    if not (fast and nfr and np.all(np.diff(prep.starts) > 0)):
        return _write_fragment_lines(prep, tmp, keys)
    cls_of = np.repeat(np.arange(len(prep.names), dtype=np.int64), np.diff(prep.starts))
    pos = np.arange(nfr, dtype=np.int64) - prep.starts[cls_of]
    if prep.file_codes is not None and len(prep.file_codes[1]) == nfr:
        ftab, fcode = prep.file_codes
    else:
        files: dict[str, int] = {}
        fcode = np.fromiter((files.setdefault(f, len(files)) for f in prep.file), dtype=np.int64, count=nfr)
        ftab = list(files)
    first = np.zeros(nfr, dtype=bool)
    first[prep.starts[:-1]] = True
    last = np.zeros(nfr, dtype=bool)
    last[prep.starts[1:] - 1] = True
    names = ("segments", "utt2class", "class2utt")
    with textio.atomic_write(os.path.join(tmp, names[0]), "wb") as seg, \
            textio.atomic_write(os.path.join(tmp, names[1]), "wb") as u2c, \
            textio.atomic_write(os.path.join(tmp, names[2]), "wb") as c2u:
        for lo in range(0, nfr, 1 << 17):
            hi = min(nfr, lo + (1 << 17))
            n = hi - lo
            key = [literal("c", n), int_field(cls_of[lo:hi], 7)]          # class_key
            frag = key + [literal("-", n), int_field(pos[lo:hi], 7)]     # fragment id
            sp, nl = literal(" ", n), literal("\n", n)
            seg.write(join_lines(frag + [sp, table_field(ftab, fcode[lo:hi]), sp,
                                         time_field(prep.onset[lo:hi], fast_fmt_times), sp,
                                         time_field(prep.offset[lo:hi], fast_fmt_times), nl]))
            u2c.write(join_lines(frag + [sp] + key + [nl]))
            head = [literal("c", n), int_field(cls_of[lo:hi], 7)]         # the key on a class's first row
            for h in head:
                h.length = np.where(first[lo:hi], h.length, 0)
            end = literal("\n", n)
            end.length = np.where(last[lo:hi], 1, 0)
            c2u.write(join_lines(head + [sp] + frag + [end]))


def read_zr2015_plain(path: str, file_index: dict[str, int]):
    """zr2015.classfile.read_classfile's RawClasses for a plain class file (headers
    `Class <digits> [text]` with distinct keys, each class closed by a blank line before the
    next header, every fragment line `<file> <onset> <offset>` inside a class, times finite,
    onset >= 0, offset >= onset); None for anything else (that reader then runs)."""
    reader = _Reader(path, zr2015=True)
    try:
        for piece, line_base in textio.iter_byte_chunks(path):
            if not reader.chunk(piece, line_base):
                return None
    except InputError:
        return None
    c = {k: col.done() for k, col in reader.cols.items()}
    on, off = c["on"], c["off"]
    if not ((on >= 0) & (off >= on)).all():
        return None
    code = np.array([file_index.get(f, -1) for f in reader.files], dtype=np.int64)
    file = code[c["file"]] if len(code) else c["file"]
    counts = np.bincount(c["file"], minlength=len(code))
    unknown = {f: int(counts[j]) for j, f in enumerate(reader.files) if code[j] < 0}
    names = [str(int(i.lstrip("0") or "0")) if t is None else f"{int(i.lstrip('0') or '0')} {t}"
             for i, t in zip(reader.ids, reader.texts)]
    return RawClasses(names=names, cls=c["cls"], file=file, onset=on, offset=off, unknown_files=sorted(unknown),
                      counts={"duplicate_class_ids": 0, "fragments_before_header": 0, "extra_columns": 0,
                              "fragments_after_last_class": 0, "unknown_file_fragments": sum(unknown.values())})


def _write_fragment_lines(prep, tmp: str, keys: list[str]) -> None:
    """segments, utt2class, class2utt, line by line."""
    nclass = len(keys)
    sizes = np.diff(prep.starts)
    cls_of = np.repeat(np.arange(nclass), sizes)
    pos = np.arange(len(prep)) - prep.starts[cls_of]
    frag_ids = [f"{keys[c]}-{p:07d}" for c, p in zip(cls_of.tolist(), pos.tolist())]
    on_txt = fast_fmt_times(prep.onset)
    off_txt = fast_fmt_times(prep.offset)
    with textio.atomic_write(os.path.join(tmp, "segments")) as f:
        f.writelines(f"{i} {fl} {a} {b}\n" for i, fl, a, b in zip(frag_ids, prep.file, on_txt, off_txt))
    with textio.atomic_write(os.path.join(tmp, "utt2class")) as f:
        f.writelines(f"{i} {keys[c]}\n" for i, c in zip(frag_ids, cls_of.tolist()))
    st = prep.starts.tolist()
    with textio.atomic_write(os.path.join(tmp, "class2utt")) as f:
        f.writelines(f"{keys[c]} {' '.join(frag_ids[st[c]:st[c + 1]])}\n" for c in range(nclass))
