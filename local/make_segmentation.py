#!/usr/bin/env python3
"""Generate segmentations for the benchmark and the vqwordseg comparison (not a test).

  make_segmentation.py jitter <words> <out> [--seed S] [--jitter SEC] [--noise P] [--split P] [--merge P]
      a full-coverage segmentation of every file of a ZeroSpeech .wrd file (or a data dir's
      `words`): segments between the word onsets/offsets (gaps become segments), each inner
      boundary moved by N(0, jitter), some segments split or merged; each segment labelled
      with the cluster of the word it overlaps most (one cluster per word type; a fraction
      --noise of the segments gets a random cluster). Written as `<file> <on> <off> <label>`
      rounded to 10 ms.
  make_segmentation.py vqwordseg <out-dir> [--seed S] [--utts N]
      a small random corpus in frames: <out-dir>/{gold.phn,gold.wrd,segments} (seconds), the
      prediction as an interval directory <out-dir>/intervals/, and the same data in the layout
      of kamperh/vqwordseg (data/synth/{word,phone}_intervals, exp/m/synth/val/seg/intervals),
      with the corner cases its rules treat specially (prediction longer or shorter than the
      reference, zero-length segments, a segment ending at frame 0, gaps between words).
"""
from __future__ import annotations

import argparse
import os

import numpy as np


def read_words(path: str):
    if os.path.isdir(path):
        path = os.path.join(path, "words")
    rows = [ln.split() for ln in open(path, encoding="utf-8") if ln.strip()]
    return rows


def jitter(args) -> None:
    rng = np.random.default_rng(args.seed)
    rows = read_words(args.words)
    types = {w: i for i, w in enumerate(sorted({r[3] for r in rows}))}
    by_file: dict[str, list] = {}
    for f, a, b, w in rows:
        by_file.setdefault(f, []).append((float(a), float(b), types[w]))
    out = []
    for f in sorted(by_file):
        ws = sorted(by_file[f])
        end = round(ws[-1][1], 2)
        pts = sorted({0.0, end} | {round(x, 2) for a, b, _ in ws for x in (a, b)})
        inner = np.array(pts[1:-1])
        inner = inner + rng.normal(0, args.jitter, len(inner))
        inner = inner[rng.random(len(inner)) >= args.merge]
        extra = []
        for a, b in zip(pts[:-1], pts[1:]):
            if rng.random() < args.split:
                extra.append(rng.uniform(a, b))
        b_all = np.unique(np.round(np.clip(np.concatenate((inner, extra)), 0.01, end - 0.01), 2))
        edges = np.concatenate(([0.0], b_all, [end]))
        won = np.array([w[0] for w in ws])
        woff = np.array([w[1] for w in ws])
        wty = np.array([w[2] for w in ws])
        for a, b in zip(edges[:-1], edges[1:]):
            ov = np.minimum(woff, b) - np.maximum(won, a)
            k = int(np.argmax(ov))
            lab = int(wty[k]) if ov[k] > 0 else len(types)
            if rng.random() < args.noise:
                lab = int(rng.integers(0, len(types) + 1))
            out.append(f"{f} {a:.2f} {b:.2f} {lab}\n")
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.writelines(out)


def vqwordseg(args) -> None:
    rng = np.random.default_rng(args.seed)
    d = args.out_dir
    ref_w = os.path.join(d, "vqwordseg", "data", "synth", "word_intervals")
    ref_p = os.path.join(d, "vqwordseg", "data", "synth", "phone_intervals")
    hyp_v = os.path.join(d, "vqwordseg", "exp", "m", "synth", "val", "seg", "intervals")
    hyp = os.path.join(d, "intervals")
    for x in (ref_w, ref_p, hyp_v, hyp):
        os.makedirs(x, exist_ok=True)
    phn, wrd, segs = [], [], []
    vocab = [f"w{i}" for i in range(12)]
    nfiles = 3
    cursor = {f"file{i}": 5 for i in range(nfiles)}
    for n in range(args.utts):
        f = f"file{n % nfiles}"
        u0 = cursor[f]
        utt = f"{f}_{n:03d}"
        t = 0
        words, phones = [], []
        for _ in range(int(rng.integers(1, 7))):
            if words and rng.random() < 0.25:            # a gap (SIL phone, no word)
                g = int(rng.integers(1, 6))
                phones.append((t, t + g, "SIL"))
                t += g
            w0 = t
            for _ in range(int(rng.integers(1, 4))):
                dl = int(rng.integers(2, 12))
                phones.append((t, t + dl, f"p{int(rng.integers(0, 8))}"))
                t += dl
            words.append((w0, t, vocab[int(rng.integers(0, len(vocab)))]))
        segs.append(f"{utt} {f} {u0 / 100:.2f} {(u0 + t) / 100:.2f}\n")
        for s, e, lab in phones:
            phn.append(f"{f} {(u0 + s) / 100:.2f} {(u0 + e) / 100:.2f} {lab}\n")
        for s, e, lab in words:
            wrd.append(f"{f} {(u0 + s) / 100:.2f} {(u0 + e) / 100:.2f} {lab}\n")
        cursor[f] = u0 + t + int(rng.integers(3, 20))
        with open(os.path.join(ref_w, utt + ".txt"), "w") as fh:
            fh.writelines(f"{s} {e} {lab}\n" for s, e, lab in words)
        with open(os.path.join(ref_p, utt + ".txt"), "w") as fh:
            fh.writelines(f"{s} {e} {lab}\n" for s, e, lab in phones)
        # prediction: contiguous segments from 0 to a length near t, boundaries jittered
        length = max(1, t + int(rng.integers(-4, 5)))
        cuts = sorted({int(x) for x in rng.integers(1, max(length, 2), int(rng.integers(0, 8)))} |
                      {e + int(rng.integers(-2, 3)) for _, e, _ in words if 0 < e + 2 < length})
        cuts = [c for c in cuts if 0 < c < length]
        edges = [0] + cuts + [length]
        pred = [(a, b) for a, b in zip(edges[:-1], edges[1:])]
        if n % 7 == 3:
            pred.insert(0, (0, 0))                     # ends at frame 0: marks the last frame
        if n % 5 == 2 and len(pred) > 1:
            a, b = pred[1]
            pred.insert(1, (a, a))                     # zero-length segment
        lines = [f"{a} {b} {int(rng.integers(0, 9))}_\n" for a, b in pred]
        if n == args.utts - 1:
            lines = []                                 # an empty prediction file
        for x in (hyp, hyp_v):
            with open(os.path.join(x, utt + ".txt"), "w") as fh:
                fh.writelines(lines)
    for name, rows in (("gold.phn", phn), ("gold.wrd", wrd), ("segments", segs)):
        with open(os.path.join(d, name), "w") as fh:
            fh.writelines(sorted(rows, key=lambda r: (r.split()[0], float(r.split()[1])))
                          if name != "segments" else rows)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    j = sub.add_parser("jitter")
    j.add_argument("words")
    j.add_argument("out")
    j.add_argument("--seed", type=int, default=0)
    j.add_argument("--jitter", type=float, default=0.015)
    j.add_argument("--noise", type=float, default=0.2)
    j.add_argument("--split", type=float, default=0.05)
    j.add_argument("--merge", type=float, default=0.05)
    v = sub.add_parser("vqwordseg")
    v.add_argument("out_dir")
    v.add_argument("--seed", type=int, default=0)
    v.add_argument("--utts", type=int, default=40)
    a = p.parse_args()
    jitter(a) if a.cmd == "jitter" else vqwordseg(a)


if __name__ == "__main__":
    main()
