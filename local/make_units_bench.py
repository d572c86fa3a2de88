#!/usr/bin/env python3
"""The input of local/bench_units.sh: a DiscoPhon-shaped dataset of real phone alignments
(ZeroSpeech 2017/2015 .phn files) and synthetic 50 Hz units, 12 languages x `--hours` h each
(half dev, half test).

The recordings are cut into utterances of about 6 s at phone edges, the phone edges rounded to
the 10 ms grid (discophon's), files assigned to the languages in turn (the corpora are reused
under new ids when they run out); each language's labels are folded onto its DiscoPhon
inventory size (SIL kept). Units: 256 ids, each phone drawing among its own 5 units, 30 % drawn
uniformly (seeded numpy).

Usage: make_units_bench.py [--hours 10] [--seed 1] <out-dir> <corpus.phn>...
"""
from __future__ import annotations

import argparse
import json
import os

import numpy as np

N_PHONEMES = {"deu": 41, "swa": 29, "tam": 29, "tha": 40, "tur": 27, "ukr": 35, "cmn": 42, "eng": 39, "eus": 29,
              "fra": 34, "jpn": 42, "wol": 39}
CHUNK_FRAMES = 600


def utterances(path: str):
    """(id, [labels], [frames]) of ~6 s utterances of a .phn file, on the 10 ms grid."""
    cur, labels, edges = None, [], []

    def flush():
        if cur is None or not labels:
            return []
        out, lab, fr, start = [], [], [], edges[0]
        for lb, a, b in zip(labels, edges[:-1], edges[1:]):
            if b > a:
                lab.append(lb)
                fr.append(b - a)
            if sum(fr) >= CHUNK_FRAMES:
                out.append((f"{cur}_{len(out):04d}", lab, fr))
                lab, fr = [], []
        if fr:
            out.append((f"{cur}_{len(out):04d}", lab, fr))
        return out
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) != 4:
                continue
            fid, on, off, lab = parts
            if fid != cur:
                yield from flush()
                cur, labels, edges = fid, [], [0]
            labels.append(lab)
            edges.append(max(edges[-1], int(round(float(off) * 100))))
    yield from flush()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hours", type=float, default=10.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("out")
    p.add_argument("corpora", nargs="+")
    a = p.parse_args()
    rng = np.random.default_rng(a.seed)
    langs = list(N_PHONEMES)
    target = int(a.hours * 360000 / 2)          # frames per (language, split)
    os.makedirs(os.path.join(a.out, "dataset", "alignment"), exist_ok=True)
    os.makedirs(os.path.join(a.out, "predictions"), exist_ok=True)
    pairs = [(lang, split) for lang in langs for split in ("dev", "test")]
    got = {pr: 0 for pr in pairs}
    files = {pr: (open(os.path.join(a.out, "dataset", "alignment", f"alignment-{pr[0]}-{pr[1]}.txt"), "w"),
                  open(os.path.join(a.out, "predictions", f"units-{pr[0]}-{pr[1]}.jsonl"), "w")) for pr in pairs}
    for al, _ in files.values():
        al.write("#file onset offset #phone\n")
    k, rnd = 0, 0
    while any(v < target for v in got.values()):
        for corpus in a.corpora:
            for uid, labels, frames in utterances(corpus):
                open_pairs = [pr for pr in pairs if got[pr] < target]
                if not open_pairs:
                    break
                pr = open_pairs[k % len(open_pairs)]
                k += 1
                lang = pr[0]
                fid = f"{lang}{rnd}_{uid}"
                codes = np.array([0 if x == "SIL" else 1 + hash_label(x) % N_PHONEMES[lang] for x in labels])
                al, un = files[pr]
                t = 0
                rows = []
                for c, n in zip(codes.tolist(), frames):
                    rows.append(f"{fid} {t / 100:g} {(t + n) / 100:g} {'SIL' if c == 0 else f'{lang}{c}'}\n")
                    t += n
                al.write("".join(rows))
                per_frame = np.repeat(codes, frames)
                n_units = (len(per_frame) + 1) // 2
                base = per_frame[::2][:n_units] * 5 + rng.integers(0, 5, n_units)
                noise = rng.random(n_units) < 0.3
                units = np.where(noise, rng.integers(0, 256, n_units), base % 256)
                un.write(json.dumps({"file": fid, "units": units.tolist()}) + "\n")
                got[pr] += t
        rnd += 1
    for al, un in files.values():
        al.close()
        un.close()
    with open(os.path.join(a.out, "options.json"), "w") as f:
        json.dump({"kind": "many-to-one", "step_units": 20}, f)
    print(f"{a.out}: {len(pairs)} pairs, {sum(got.values()) / 360000:.1f} h")


def hash_label(x: str) -> int:
    """A stable label hash (Python's str hash changes per process)."""
    h = 0
    for ch in x.encode():
        h = (h * 131 + ch) % 1000003
    return h


if __name__ == "__main__":
    main()
