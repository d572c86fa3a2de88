#!/usr/bin/env python3
"""Figures of the Python API: 20 systems scored against the same gold in one process.

Usage: local/bench_api.py [--systems 20] [--work DIR]
 e.g.: local/bench_api.py --systems 20

Builds the bundled example (local/make_example.py) in a temporary work dir, then scores
--systems class files (the example's classes with a different share of the fragments each)
with termeval.score_tde against the example gold given as .phn/.wrd files (prepared once in
the process, parsed once), and prints the wall and CPU time of the whole loop. When
downloads/zr17 exists (./run.sh --corpus zr17-mandarin), the same for Kamper et al.'s Mandarin
submission against the Mandarin gold (the same class file --systems times). Also prints the
time of `import termeval` and of `python -m termeval --help` in fresh processes.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def timed(fn) -> tuple[float, float, object]:
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - w, time.process_time() - c, out


def fresh(args: list[str]) -> float:
    """Best of 3 wall times of a fresh Python process."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run([sys.executable, *args], check=True, stdout=subprocess.DEVNULL, env=env)
        best = min(best, time.perf_counter() - t)
    return best


def systems_of(class_file: str, n: int, work: str) -> list[str]:
    """n class files: the first k of every class's fragments, k varying by system."""
    blocks = open(class_file, encoding="utf-8").read().strip().split("\n\n")
    out = []
    for s in range(n):
        path = os.path.join(work, f"system{s}.class")
        with open(path, "w", encoding="utf-8") as f:
            for b in blocks:
                lines = b.strip().split("\n")
                keep = lines[:1] + lines[1:][: max(2, len(lines) - 1 - s % 3)]
                f.write("\n".join(keep) + "\n\n")
        out.append(path)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--systems", type=int, default=20)
    p.add_argument("--work", default=None)
    a = p.parse_args()
    print(f"import termeval (fresh process): {fresh(['-c', 'import termeval']):.3f} s wall")
    print(f"python -m termeval --help:        {fresh(['-m', 'termeval', '--help']):.3f} s wall")
    import termeval
    with tempfile.TemporaryDirectory() as tmp:
        work = a.work or tmp
        ex = os.path.join(work, "example")
        subprocess.run([sys.executable, os.path.join(ROOT, "local", "make_example.py"), ex], check=True,
                       stderr=subprocess.DEVNULL)
        gold = (os.path.join(ex, "zr", "example.phn"), os.path.join(ex, "zr", "example.wrd"))
        classes = systems_of(os.path.join(ex, "classes", "example.classes"), a.systems, work)
        w, c, res = timed(lambda: [termeval.score_tde(gold, x) for x in classes])
        print(f"example, {a.systems} systems, zrc2020, gold .phn/.wrd prepared once: {w:.2f} s wall, "
              f"{c:.2f} s CPU ({w / a.systems:.3f} s per system; ned {res[0]['ned']:.4f} .. {res[-1]['ned']:.4f})")
        zr17 = os.path.join(ROOT, "downloads", "zr17")
        if os.path.isfile(os.path.join(zr17, "kamper_mandarin.class")):
            mgold = termeval.prepare_gold(os.path.join(zr17, "mandarin.phn"), os.path.join(zr17, "mandarin.wrd"),
                                          sort=True)
            cls = os.path.join(zr17, "kamper_mandarin.class")
            w, c, res = timed(lambda: [termeval.score_tde(mgold, cls) for _ in range(a.systems)])
            print(f"Kamper Mandarin, {a.systems} x zrc2020, gold prepared once: {w:.2f} s wall, {c:.2f} s CPU "
                  f"({w / a.systems:.3f} s per system; ned {res[0]['ned']:.6f})")
        else:
            print(f"{zr17}: not there (./run.sh --corpus zr17-mandarin fetches it): Mandarin figure skipped")


if __name__ == "__main__":
    main()
