#!/usr/bin/env python3
"""Discrete units for the bundled example (what local/report_gallery.py scores with
steps/score_units.sh and steps/score_discophon.sh): 50 Hz units that follow the example's gold
phones, each phone drawing among its own 4 of 128 units, 25 % drawn uniformly (seeded numpy).

Writes under <out-dir>:
  units.txt                 a Kaldi text archive `<file> u1 u2 ...` of the data dir's files
  discophon/dataset/alignment/alignment-eng-{dev,test}.txt
  discophon/predictions/units-eng-{dev,test}.jsonl
                            the same gold and units as a DiscoPhon dataset (the files split in two halves)

Usage: local/make_example_units.py [--seed 1] <data-dir> <out-dir>
 e.g.: local/make_example_units.py data/example data/local/example_units
"""
from __future__ import annotations

import argparse
import json
import os

import numpy as np

from termeval.units.frames import from_data_dir

N_UNITS = 128
PER_PHONE = 4
NOISE = 0.25
STEP = 2          # 10 ms gold frames per unit (20 ms units)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("data_dir")
    ap.add_argument("out_dir")
    a = ap.parse_args()
    gold = from_data_dir(a.data_dir, "centre")
    rnd = np.random.default_rng(a.seed)
    units = []
    for f in range(len(gold.files)):
        phone = gold.phone[gold.starts[f]:gold.starts[f + 1]]
        n = (len(phone) + STEP - 1) // STEP
        p = phone[np.minimum(np.arange(n) * STEP + rnd.integers(0, STEP, n), len(phone) - 1)].astype(np.int64)
        u = (p * PER_PHONE + rnd.integers(0, PER_PHONE, n)) % N_UNITS
        noisy = rnd.random(n) < NOISE
        u[noisy] = rnd.integers(0, N_UNITS, int(noisy.sum()))
        units.append(u)
    os.makedirs(a.out_dir, exist_ok=True)
    with open(os.path.join(a.out_dir, "units.txt"), "w", encoding="utf-8") as out:
        for name, u in zip(gold.files, units):
            out.write(name + " " + " ".join(map(str, u.tolist())) + "\n")
    half = (len(gold.files) + 1) // 2
    for split, files in (("dev", range(half)), ("test", range(half, len(gold.files)))):
        d = os.path.join(a.out_dir, "discophon")
        os.makedirs(os.path.join(d, "dataset", "alignment"), exist_ok=True)
        os.makedirs(os.path.join(d, "predictions"), exist_ok=True)
        with open(os.path.join(d, "dataset", "alignment", f"alignment-eng-{split}.txt"), "w", encoding="utf-8") as out:
            out.write("#file onset offset #phone\n")
            for f in files:
                phone = gold.phone[gold.starts[f]:gold.starts[f + 1]]
                cut = np.flatnonzero(np.r_[True, phone[1:] != phone[:-1]])
                for s, e in zip(cut.tolist(), cut[1:].tolist() + [len(phone)]):
                    out.write(f"{gold.files[f]} {s / 100:.2f} {e / 100:.2f} {gold.labels[phone[s]]}\n")
        with open(os.path.join(d, "predictions", f"units-eng-{split}.jsonl"), "w", encoding="utf-8") as out:
            for f in files:
                out.write(json.dumps({"file": gold.files[f], "units": units[f].tolist()}) + "\n")


if __name__ == "__main__":
    main()
