#!/usr/bin/env python3
"""Synthetic scale-up of a ZeroSpeech corpus and class file (benchmarks only).

Usage: local/make_scaleup.py [options] <phn> <wrd> <class-file> <factor> <out-dir>
 e.g.: local/make_scaleup.py --mode more downloads/zr17/mandarin.phn downloads/zr17/mandarin.wrd \
         downloads/zr17/kamper_mandarin.class 16 exp/bench/x16_more

Replicates every file <factor> times under new ids (<file>_r<k>, copy 0 keeps the original
id) and writes <out-dir>/{corpus.phn,corpus.wrd,corpus.class}. --mode more: every class is
replicated as a new class per copy (more clusters of the same size); --mode grow: class c
holds the fragments of all copies (clusters <factor> times larger).
"""
from __future__ import annotations

import os

from termeval.run.cli import make_parser, run
from termeval.tde.zrc2020.testing import parse_classes
from termeval.core.textio import atomic_write


def rename(name: str, k: int) -> str:
    return name if k == 0 else f"{name}_r{k}"


def main(argv):
    p = make_parser(__doc__)
    p.add_argument("--mode", choices=("more", "grow"), default="more")
    p.add_argument("phn")
    p.add_argument("wrd")
    p.add_argument("class_file")
    p.add_argument("factor", type=int)
    p.add_argument("out_dir")
    a = p.parse_args(argv)
    os.makedirs(a.out_dir, exist_ok=True)
    for src, dst in ((a.phn, "corpus.phn"), (a.wrd, "corpus.wrd")):
        rows = [ln.split(" ", 1) for ln in open(src, encoding="utf-8").read().split("\n") if ln]
        with atomic_write(os.path.join(a.out_dir, dst)) as f:
            for k in range(a.factor):
                f.write("".join(f"{rename(x, k)} {rest}\n" for x, rest in rows))
    classes = parse_classes(a.class_file)
    with atomic_write(os.path.join(a.out_dir, "corpus.class")) as f:
        n = 0
        if a.mode == "more":
            for k in range(a.factor):
                for _, frags in classes:
                    f.write(f"Class {n}\n" + "".join(f"{rename(x, k)} {s} {e}\n" for x, s, e in frags) + "\n")
                    n += 1
        else:
            for _, frags in classes:
                f.write(f"Class {n}\n" + "".join(f"{rename(x, k)} {s} {e}\n" for k in range(a.factor)
                                                 for x, s, e in frags) + "\n")
                n += 1


if __name__ == "__main__":
    run(main)
