#!/usr/bin/env python3
"""Write the class file of a perfect full-coverage word segmenter: one class per gold word type,
holding every token of that word (benchmark input; deterministic, nothing downloaded).

Usage: local/make_word_classes.py [--copies 1] <words-file> <class-file>

<words-file> is a ZeroSpeech .wrd file (`file onset offset word`). Classes come in sorted word
order, tokens in file order. --copies K replicates the corpus K times: copy k > 0 renames every
file <f> to <f>_c<k> (use local/make_word_classes.py --replicate-alignment to write the matching
.phn/.wrd copies), so a class holds K times the tokens.

       local/make_word_classes.py --replicate-alignment K <in.phn> <out.phn>
writes the K-times replicated alignment (files <f>, <f>_c1, ..., <f>_c(K-1)). Copy k shifts
every time by k * 100000 s and renames every label <l> to <l>_c<k> (phones; words keep their
label) except the non-speech labels SIL and SPN (a renamed SIL would no longer be dropped as
silence: the copies' segments would run across pauses and hold more repeated n-grams), so
copies neither overlap under the file-blind test nor create new repeated n-grams: the gold
n-gram classes grow exactly K times, the word classes hold K times the tokens.
"""
from __future__ import annotations

import argparse
import sys

from termeval.core.textio import atomic_write


def suffix(k: int) -> str:
    return "" if k == 0 else f"_c{k}"


SHIFT = 100000.0
KEEP_LABELS = ("SIL", "SPN")   # non-speech labels: never renamed (prepare_gold drops SIL)


def replicate(src: str, dst: str, copies: int, relabel: bool = True) -> None:
    with open(src, encoding="utf-8") as f:
        lines = [ln.split() for ln in f if ln.strip()]
    out = []
    for k in range(copies):
        sh = k * SHIFT
        lab = suffix(k) if relabel else ""
        out.extend(f"{p[0]}{suffix(k)} {float(p[1]) + sh:.4f} {float(p[2]) + sh:.4f} "
                   f"{p[3]}{'' if p[3] in KEEP_LABELS else lab}\n"
                   for p in lines)
    with atomic_write(dst) as f:
        f.writelines(out)


def classes(src: str, dst: str, copies: int) -> None:
    by_word: dict[str, list[tuple[str, str, str]]] = {}
    with open(src, encoding="utf-8") as f:
        for ln in f:
            p = ln.split()
            if p:
                by_word.setdefault(p[3], []).append((p[0], p[1], p[2]))
    with atomic_write(dst) as f:
        for c, w in enumerate(sorted(by_word), start=1):
            f.write(f"Class {c}\n")
            for k in range(copies):
                s = suffix(k)
                sh = k * SHIFT
                f.writelines(f"{fi}{s} {float(on) + sh:.4f} {float(off) + sh:.4f}\n"
                             for fi, on, off in by_word[w])
            f.write("\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="make_word_classes.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--copies", type=int, default=1)
    ap.add_argument("--replicate-alignment", type=int, default=0, metavar="K")
    ap.add_argument("--relabel", default="true", choices=["true", "false"],
                    help="rename the labels of copies (true for .phn, false for .wrd)")
    ap.add_argument("src")
    ap.add_argument("dst")
    a = ap.parse_args(argv)
    if a.replicate_alignment:
        replicate(a.src, a.dst, a.replicate_alignment, a.relabel == "true")
    else:
        classes(a.src, a.dst, a.copies)
    return 0


if __name__ == "__main__":
    sys.exit(main())
