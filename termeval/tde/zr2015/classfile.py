"""The TDE15/TDE17 class-file reader (spec §2.2), with every silent behaviour counted.

Lines are split by the one class-file tokenizer of termeval.classes.parse (tabs, runs of spaces,
CRLF, a BOM and `Class 3:` headers are accepted, as for every benchmark); the rules of the
2015/2017 tools are applied on top of it. Reproduced (compat): a header is `Class <digits>[
<text>]` and the class key is (id, text); a second class with the same key replaces the
first; fragment lines before a header join the next class; blank lines close a class; extra
columns are ignored; unknown files are dropped later, at annotation. Errors the original
raises (a header inside an open class, fewer than 3 fields, bad numbers, offset < onset,
negative times) are InputErrors naming file and line. Deviation: CRLF line endings are
accepted (the original crashes on them).
"""
from __future__ import annotations


import numpy as np

from termeval.classes import fast as classfast
from termeval.classes.tokens import class_file_tokens, header_id, header_text, is_header
from termeval.classes.records import RawClasses
from termeval.core.datadir import load_classes
from termeval.core.errors import InputError




def read_classfile(path: str, file_index: dict[str, int]) -> RawClasses:
    plain = classfast.read_zr2015_plain(path, file_index) if classfast.FAST else None   # numpy, same result
    if plain is not None:
        return plain
    classes: dict[tuple[int, str | None], list[tuple[str, float, float, int]]] = {}
    order: list[tuple[int, str | None]] = []
    curr: list[tuple[str, float, float, int]] = []
    curr_class = None
    counts = {"duplicate_class_ids": 0, "fragments_before_header": 0, "extra_columns": 0,
              "fragments_after_last_class": 0}

    def close(cid, members) -> None:      # a duplicate id replaces the earlier class, counted
        if cid in classes:
            counts["duplicate_class_ids"] += 1
        else:
            order.append(cid)
        classes[cid] = members

    for n, raw, parts in class_file_tokens(path):
        if is_header(parts):
            cid = header_id(parts, path, n)
            if not (cid.isascii() and cid.isdigit()):
                raise InputError(f"class id '{cid}' is not a number (the zr2015/zr2017 tools number "
                                 "their classes)", path, n)
            if curr_class is not None:
                raise InputError("new 'Class' header while a class is open (a blank line must "
                                 "end each class)", path, n)
            curr_class = (int(cid.lstrip("0") or "0") if len(cid) < 4000 else cid, header_text(raw))
            if curr:
                counts["fragments_before_header"] += len(curr)
            continue
        if parts:
            if len(parts) < 3:
                raise InputError("expected '<file> <onset> <offset>'", path, n)
            if len(parts) > 3:
                counts["extra_columns"] += 1
            try:
                s, e = float(parts[1]), float(parts[2])
            except ValueError:
                raise InputError(f"bad times '{parts[1]} {parts[2]}'", path, n) from None
            if not (np.isfinite(s) and np.isfinite(e)):
                raise InputError("times must be finite", path, n)
            if e < s:
                raise InputError("offset < onset", path, n)
            if s < 0:
                raise InputError("negative time", path, n)
            curr.append((parts[0], s, e, n))
        elif curr_class is not None:
            close(curr_class, curr)
            curr, curr_class = [], None
    if curr_class is not None:
        close(curr_class, curr)
    elif curr:
        counts["fragments_after_last_class"] += len(curr)
    names, cls, files, on, off = [], [], [], [], []
    unknown: dict[str, int] = {}
    for c, key in enumerate(order):
        names.append(str(key[0]) if key[1] is None else f"{key[0]} {key[1]}")
        for fname, s, e, _ in classes[key]:
            f = file_index.get(fname, -1)
            if f < 0:
                unknown[fname] = unknown.get(fname, 0) + 1
            cls.append(c)
            files.append(f)
            on.append(s)
            off.append(e)
    counts["unknown_file_fragments"] = sum(unknown.values())
    return RawClasses(names=names, cls=np.array(cls, dtype=np.int64),
                      file=np.array(files, dtype=np.int64), onset=np.array(on, dtype=np.float64),
                      offset=np.array(off, dtype=np.float64), unknown_files=sorted(unknown),
                      counts=counts)


def from_prepared(class_dir: str, gold) -> RawClasses:
    """A class dir prepared by steps/prepare_classes.sh, as RawClasses."""
    c = load_classes(class_dir, gold)
    return RawClasses(names=list(c.names), cls=c.cls.astype(np.int64), file=c.file.astype(np.int64),
                      onset=c.onset, offset=c.offset, counts={})
