#!/usr/bin/env python3
"""A simulated text segmenter's output for benchmarks and examples: from a gold text and its
prepared text (utils/export_text.sh), keep each gold boundary with probability 1 - --drop and add
one at each other unit edge with probability --add (seeded).

Usage: local/make_text_segmentation.py [--drop 0.3] [--add 0.1] [--seed 7] <gold.txt> <prepared.txt> <out.txt>
"""
from __future__ import annotations

import argparse
import random


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold")
    p.add_argument("prepared")
    p.add_argument("out")
    p.add_argument("--drop", type=float, default=0.3)
    p.add_argument("--add", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=7)
    a = p.parse_args()
    rng = random.Random(a.seed)
    with open(a.gold, encoding="utf-8") as g, open(a.prepared, encoding="utf-8") as q, \
            open(a.out, "w", encoding="utf-8") as out:
        for gline, qline in zip(g, q):
            units, words = qline.split(), gline.split()
            edges, k = set(), 0
            for w in words:
                acc = ""
                while len(acc) < len(w):
                    acc += units[k]
                    k += 1
                edges.add(k)
            cut = {e for e in edges if rng.random() >= a.drop}
            cut |= {i for i in range(1, len(units)) if i not in edges and rng.random() < a.add}
            cut.add(len(units))
            seg, cur = [], ""
            for i, u in enumerate(units, 1):
                cur += u
                if i in cut:
                    seg.append(cur)
                    cur = ""
            out.write(" ".join(seg) + "\n")


if __name__ == "__main__":
    main()
