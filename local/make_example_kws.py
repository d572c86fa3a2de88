#!/usr/bin/env python3
"""Keyword-search example on the bundled gold data dir (deterministic for a given --seed): a
keyword list, the kws dir steps/prepare_kws.sh makes from it, and a simulated Kaldi KWS
system's results (`kwid utt start-frame end-frame cost`, cost = -ln posterior, each keyword's
lines best first, as Kaldi's search writes kws_<LMWT>/results).

Usage: local/make_example_kws.py [--seed 1] <data-dir> <out-dir>
 e.g.: local/make_example_kws.py data/example data/example_kws

Writes <out-dir>/keywords.txt (the 6 most frequent words, the 3 most frequent word pairs that
F4DE counts as phrases, one word that never occurs), <out-dir>/lexicon.txt (one phone per
letter), <out-dir>/kws/ (steps/prepare_kws.sh --ecf-source-type cts, with categories from the
lexicon) and <out-dir>/results: 85% of the references found with a jitter of up to 3 frames and
a low cost, plus 8 false alarms per keyword with higher costs.
"""
from __future__ import annotations

import os
from collections import Counter

import numpy as np

from termeval.run.cli import make_parser, run
from termeval.core.textio import atomic_write


def main(argv=None) -> int:
    p = make_parser(__doc__)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("data_dir")
    p.add_argument("out_dir")
    args = p.parse_args(argv)
    from termeval.bin import prepare_kws
    words: dict[str, list] = {}
    with open(os.path.join(args.data_dir, "words"), encoding="utf-8") as f:
        for line in f:
            fid, on, off, w = line.split()
            words.setdefault(fid, []).append((float(on), float(off), w))
    uni = Counter(w for ws in words.values() for _, _, w in ws)
    bi = Counter(f"{a[2]} {b[2]}" for ws in words.values() for a, b in zip(ws, ws[1:]) if b[0] - a[1] <= 0.5)
    kws = [w for w, _ in uni.most_common(6)] + [b for b, _ in bi.most_common(3)] + ["zzyzx"]
    os.makedirs(args.out_dir, exist_ok=True)
    kw_path = os.path.join(args.out_dir, "keywords.txt")
    with atomic_write(kw_path) as f:
        f.writelines(f"KW-{i:02d} {k}\n" for i, k in enumerate(kws, 1))
    lex_path = os.path.join(args.out_dir, "lexicon.txt")
    with atomic_write(lex_path) as f:
        f.writelines(f"{w} {' '.join(w)}\n" for w in sorted(uni))
    kws_dir = os.path.join(args.out_dir, "kws")
    prepare_kws.main(["--keywords", kw_path, "--ecf-source-type", "cts", "--lexicon", lex_path,
                      args.data_dir, kws_dir])
    rng = np.random.default_rng(args.seed)
    n_utt = sum(1 for _ in open(os.path.join(kws_dir, "utt.map"), encoding="utf-8"))
    out: dict[str, list] = {f"KW-{i:02d}": [] for i in range(1, len(kws) + 1)}
    with open(os.path.join(kws_dir, "hitlist"), encoding="utf-8") as f:
        for line in f:
            k, u, s, e, _ = line.split()
            if rng.random() < 0.85:
                j = int(rng.integers(-3, 4))
                out[k].append((k, u, max(0, int(s) + j), int(e) + j, float(rng.exponential(0.7))))
    for k in out:
        for _ in range(8):
            s = int(rng.integers(0, 1000))
            out[k].append((k, str(int(rng.integers(1, n_utt + 1))), s, s + int(rng.integers(20, 60)),
                           float(rng.uniform(0.8, 6.0))))
    with atomic_write(os.path.join(args.out_dir, "results")) as f:
        for k in out:
            for r in sorted(out[k], key=lambda r: r[4]):
                f.write(f"{r[0]} {r[1]} {r[2]} {r[3]} {r[4]:.4f}\n")
    return 0


if __name__ == "__main__":
    run(main)
