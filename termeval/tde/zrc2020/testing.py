"""Minimal writers of prepared inputs for tests and benchmarks (not for users).

`write_data_dir` prepares .phn/.wrd alignments with the real zr-format preparation (gaps kept,
sorted, one speaker per file); `write_class_dir` turns a well-formed class file into `<exp>/classes/`.
Users run steps/prepare_gold.sh and steps/prepare_classes.sh.
"""
from __future__ import annotations

import os

from termeval.classes.tokens import class_file_tokens, header_id, is_header
from termeval.core.datadir import class_key, fragment_id
from termeval.core.errors import InputError
from termeval.gold import Options, prepare_zr
from termeval.core.textio import atomic_write


def write_data_dir(phn: str, wrd: str, out: str) -> str:
    """The gold data dir of .phn/.wrd files as steps/prepare_gold.sh --format zr writes it, with
    gaps kept as gaps (the reference reads the raw files), intervals sorted (the 2015 sample
    files are out of order) and one speaker per file."""
    prepare_zr(phn, wrd, out, Options(fill_gaps=False, sort=True), spk_rule="whole")
    return out


def parse_classes(path: str) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """(class id, fragments as text) of a well-formed class file, through the shared tokenizer."""
    classes: list = []
    cur = None
    for n, _, parts in class_file_tokens(path):
        if is_header(parts):
            cur = (header_id(parts, path, n), [])
            classes.append(cur)
        elif parts:
            if len(parts) != 3 or cur is None:
                raise InputError("expected '<file> <onset> <offset>' inside a class", path, n)
            cur[1].append((parts[0], parts[1], parts[2]))
    return [c for c in classes if c[1]]


def write_class_dir(class_file: str, exp_dir: str) -> str:
    out = os.path.join(exp_dir, "classes")
    os.makedirs(out, exist_ok=True)
    classes = parse_classes(class_file)
    seg, u2c, c2u, names = [], [], [], []
    for i, (name, frags) in enumerate(classes):
        ids = [fragment_id(i, j) for j in range(len(frags))]
        for fid, (fname, a, b) in zip(ids, frags):
            seg.append(f"{fid} {fname} {a} {b}\n")
            u2c.append(f"{fid} {class_key(i)}\n")
        c2u.append(f"{class_key(i)} {' '.join(ids)}\n")
        names.append(f"{class_key(i)} {name}\n")
    for fn, lines in (("segments", seg), ("utt2class", u2c), ("class2utt", c2u), ("class_names", names)):
        with atomic_write(os.path.join(out, fn)) as f:
            f.write("".join(lines))
    return out
