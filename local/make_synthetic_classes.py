#!/usr/bin/env python3
"""Write a deterministic synthetic class file of N fragments from the gold words of a data dir
(benchmark input for steps/score_tde_folds.sh; no randomness, same output every run).

Usage: local/make_synthetic_classes.py [--n 100000] [--class-size 5] <data-dir> <class-file>

Word types with >= 2 tokens, in C order of the label; each type's tokens (by file, onset) are
cut into classes of --class-size (a last singleton joins the previous class); every edge is
moved by a deterministic offset in [-20, +20] ms, so transcriptions and substring completions
are realistic but not exact.
"""
from __future__ import annotations

import numpy as np

from termeval.run.cli import make_parser, run
from termeval.core.datadir import load_gold
from termeval.core.textio import atomic_write


def main(argv) -> int:
    ap = make_parser(__doc__)
    ap.add_argument("--n", type=int, default=100000)
    ap.add_argument("--class-size", type=int, default=5)
    ap.add_argument("data_dir")
    ap.add_argument("class_file")
    a = ap.parse_args(argv)
    g = load_gold(a.data_dir)
    w = g.words
    order = np.lexsort((w.onset, w.file, w.label))
    lab = w.label[order]
    starts = np.flatnonzero(np.r_[True, lab[1:] != lab[:-1]])
    sizes = np.diff(np.r_[starts, len(lab)])
    k = 0
    cls = 0
    with atomic_write(a.class_file) as f:
        for s, n in zip(starts.tolist(), sizes.tolist()):
            if n < 2 or k >= a.n:
                continue
            toks = order[s:s + min(n, a.n - k)].tolist()
            if len(toks) < 2:
                break
            chunks = [toks[i:i + a.class_size] for i in range(0, len(toks), a.class_size)]
            if len(chunks) > 1 and len(chunks[-1]) == 1:
                last = chunks.pop()
                chunks[-1] += last
            for ch in chunks:
                f.write(f"Class {cls}\n")
                for t in ch:
                    on = max(0.0, w.onset[t] + ((k * 7919) % 41 - 20) / 1000)
                    off = max(on + 0.01, w.offset[t] + ((k * 104729) % 41 - 20) / 1000)
                    f.write(f"{g.files[w.file[t]]} {on:.3f} {off:.3f}\n")
                    k += 1
                f.write("\n")
                cls += 1
    print(f"{a.class_file}: {cls} classes, {k} fragments")
    return 0


if __name__ == "__main__":
    run(main)
