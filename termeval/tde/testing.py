"""Minimal writers of prepared inputs for tests and benchmarks (not for users).

`write_data_dir` turns .phn/.wrd alignments into a gold data dir without any checking or gap
filling (the zr17 files already label pauses SIL); `write_class_dir` turns a well-formed
class file into `<exp>/classes/`. Users run steps/prepare_gold.sh and
steps/prepare_classes.sh, which validate their input.
"""
from __future__ import annotations

import os

from termeval.data import class_key, fragment_id
from termeval.textio import atomic_write


def _sorted_lines(path: str) -> list[list[str]]:
    rows = [ln.split(" ") for ln in open(path, encoding="utf-8").read().split("\n") if ln.strip()]
    rows.sort(key=lambda r: (r[0].encode(), float(r[1]), float(r[2])))
    return rows


def write_data_dir(phn: str, wrd: str, out: str) -> str:
    os.makedirs(out, exist_ok=True)
    phones = _sorted_lines(phn)
    words = [r for r in _sorted_lines(wrd) if r[3] != "SIL"]
    end: dict[str, float] = {}
    text: dict[str, str] = {}
    for r in phones + words:
        if r[0] not in end or float(r[2]) > end[r[0]]:
            end[r[0]], text[r[0]] = float(r[2]), r[2]
    for name, rows in (("phones", phones), ("words", words)):
        with atomic_write(os.path.join(out, name)) as f:
            f.write("".join(" ".join(r) + "\n" for r in rows))
    files = sorted(end, key=lambda x: x.encode())
    with atomic_write(os.path.join(out, "reco2dur")) as f:
        f.write("".join(f"{x} {text[x]}\n" for x in files))
    with atomic_write(os.path.join(out, "utt2spk")) as f:
        f.write("".join(f"{x} {x}\n" for x in files))
    with atomic_write(os.path.join(out, "spk2utt")) as f:
        f.write("".join(f"{x} {x}\n" for x in files))
    return out


def parse_classes(path: str) -> list[tuple[str, list[tuple[str, str, str]]]]:
    classes: list = []
    cur = None
    for ln in open(path, encoding="utf-8").read().split("\n"):
        ln = ln.strip()
        if ln.startswith("Class"):
            cur = (ln.split(" ")[1], [])
            classes.append(cur)
        elif ln:
            fname, a, b = ln.split(" ")
            cur[1].append((fname, a, b))
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
