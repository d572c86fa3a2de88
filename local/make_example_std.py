#!/usr/bin/env python3
"""Generate the small synthetic spoken term detection task of the bundled example
(deterministic for a given --seed).

Usage: local/make_example_std.py [--seed 0] <out-dir>

Writes <out-dir>/kws/{ecf.xml,rttm,tlist.xml} (MediaEval/STD 2006 style: 6 audio documents
with durations, a word-level RTTM reference, 8 terms including two multi-word terms and one
term that never occurs) and a simulated system's detections, with LLR-like scores and YES/NO
decisions at the Bayes threshold of SWS 2013, both as <out-dir>/detections.stdlist.xml and
<out-dir>/detections.kwslist.xml (same content), plus <out-dir>/kws_kwlist/kwlist.xml for KWS
tools.
"""
from __future__ import annotations

import math
import os

import numpy as np

from termeval.run.cli import make_parser, run
from termeval.core.textio import atomic_write

VOCAB = ["the", "a", "of", "and", "to", "in", "is", "it", "that", "was", "for", "on", "are",
         "with", "as", "his", "they", "at", "be", "this", "from", "have", "or", "by", "one"]
TERMS = [("q001", "horse"), ("q002", "river"), ("q003", "white horse"), ("q004", "morning"),
         ("q005", "stone bridge"), ("q006", "lantern"), ("q007", "market"), ("q008", "unicorn")]
DOCS = [("doc01", 95.0), ("doc02", 120.0), ("doc03", 64.5), ("doc04", 88.25), ("doc05", 110.0),
        ("doc06", 72.0)]


def build(seed: int):
    rng = np.random.default_rng(seed)
    inject = [t for _, t in TERMS if t != "unicorn"]
    lex = []  # (file, tbeg, dur, word, speaker)
    for doc, dur in DOCS:
        t = 0.3
        spk = "spk1"
        while t < dur - 2.0:
            if rng.random() < 0.06:
                spk = "spk2" if spk == "spk1" else "spk1"
                t += rng.uniform(0.3, 1.0)
            if rng.random() < 0.07:
                words = rng.choice(inject).split()
            else:
                words = [VOCAB[rng.integers(len(VOCAB))]]
            for w in words:
                d = round(float(rng.uniform(0.25, 0.6)), 2)
                if t + d > dur - 0.5:
                    break
                lex.append((doc, round(t, 2), d, w, spk))
                t += d + round(float(rng.uniform(0.0, 0.15)), 2)
    return lex, rng


def main(argv) -> int:
    p = make_parser(__doc__)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("out_dir")
    args = p.parse_args(argv)
    from termeval.std.rttm import Lexemes, find_occurrences
    from termeval.std.ecf import round4
    from termeval.std.termlist import TermList
    lex, rng = build(args.seed)
    kws = os.path.join(args.out_dir, "kws")
    os.makedirs(kws, exist_ok=True)
    total = sum(d for _, d in DOCS)
    with atomic_write(os.path.join(kws, "ecf.xml")) as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        f.write(f'<ecf source_signal_duration="{total:.3f}" version="example-std-1">\n')
        for doc, dur in DOCS:
            f.write(f'  <excerpt audio_filename="{doc}.wav" channel="1" tbeg="0.000" dur="{dur:.3f}" '
                    'language="english" source_type="read"/>\n')
        f.write("</ecf>\n")
    with atomic_write(os.path.join(kws, "rttm")) as f:
        for doc, dur in DOCS:
            rows = [r for r in lex if r[0] == doc]
            f.write(f"SPEAKER {doc} 1 0.000 {dur:.3f} <NA> <NA> spk1 <NA>\n")
            for _, tb, d, w, spk in rows:
                f.write(f"LEXEME {doc} 1 {tb:.3f} {d:.3f} {w} lex {spk} <NA>\n")
    with atomic_write(os.path.join(kws, "tlist.xml")) as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        f.write('<termlist ecf_filename="ecf.xml" version="example-std-1" language="english" '
                'encoding="UTF-8" compareNormalize="lowercase">\n')
        for tid, text in TERMS:
            f.write(f'  <term termid="{tid}"><termtext>{text}</termtext>'
                    f'<terminfo><attr><name>NGram</name><value>{len(text.split())}</value></attr></terminfo></term>\n')
        f.write("</termlist>\n")
    kwl = os.path.join(args.out_dir, "kws_kwlist")
    os.makedirs(kwl, exist_ok=True)
    with atomic_write(os.path.join(kwl, "kwlist.xml")) as f:
        f.write('<kwlist ecf_filename="ecf.xml" version="example-std-1" language="english" '
                'encoding="UTF-8" compareNormalize="lowercase">\n')
        for tid, text in TERMS:
            f.write(f'  <kw kwid="{tid}"><kwtext>{text}</kwtext></kw>\n')
        f.write("</kwlist>\n")
    # the simulated system: finds ~75% of the true occurrences with jittered boundaries, and
    # false alarms anywhere; scores are LLR-like, YES iff score >= ln(beta_sws2013) = 4.1995
    arr = list(zip(*lex))
    tb = np.asarray(arr[1], dtype=float)
    L = Lexemes(np.asarray(arr[0], dtype=object), np.ones(len(lex), np.int32), tb,
                round4(tb + np.asarray(arr[2])), np.asarray(arr[3], dtype=object),
                np.asarray(["lex"] * len(lex), dtype=object), np.asarray(arr[4], dtype=object))
    tl = TermList([t for t, _ in TERMS], [x for _, x in TERMS], [{} for _ in TERMS], "lowercase")
    occ = find_occurrences(L, tl)
    thr = math.log(0.99985 / 0.015)  # beta of SWS 2013 = C_fa(1-P)/(C_miss P)
    dets = {tid: [] for tid, _ in TERMS}
    for q, f, b, e in zip(occ.term, occ.file, occ.beg, occ.end):
        if rng.random() < 0.75:
            jb = float(rng.normal(0, 0.12))
            je = float(rng.normal(0, 0.12))
            s = float(rng.normal(5.0, 2.0))
            dets[TERMS[q][0]].append((f, max(0.0, b + jb), max(0.05, e - b + je - jb), s))
    docdur = dict(DOCS)
    for tid, _ in TERMS:
        for _ in range(int(rng.integers(4, 12))):
            doc = DOCS[int(rng.integers(len(DOCS)))][0]
            st = float(rng.uniform(0, docdur[doc] - 1.0))
            dets[tid].append((doc, st, float(rng.uniform(0.3, 0.9)), float(rng.normal(-1.0, 2.5))))
    for kind in ("stdlist", "kwslist"):
        path = os.path.join(args.out_dir, f"detections.{kind}.xml")
        with atomic_write(path) as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
            if kind == "stdlist":
                f.write('<stdlist termlist_filename="tlist.xml" indexing_time="1.0" language="english" '
                        'index_size="1" system_id="example-std-system">\n')
            else:
                f.write('<kwslist kwlist_filename="kwlist.xml" language="english" system_id="example-std-system">\n')
            for tid, _ in TERMS:
                if kind == "stdlist":
                    f.write(f'  <detected_termlist termid="{tid}" term_search_time="0.1" oov_term_count="0">\n')
                else:
                    f.write(f'  <detected_kwlist kwid="{tid}" search_time="0.1" oov_count="0">\n')
                el = "term" if kind == "stdlist" else "kw"
                for doc, st, du, s in sorted(dets[tid], key=lambda r: -r[3]):
                    dec = "YES" if s >= thr else "NO"
                    f.write(f'    <{el} file="{doc}" channel="1" tbeg="{st:.3f}" dur="{du:.3f}" '
                            f'score="{s:.4f}" decision="{dec}"/>\n')
                f.write("  </detected_termlist>\n" if kind == "stdlist" else "  </detected_kwlist>\n")
            f.write("</stdlist>\n" if kind == "stdlist" else "</kwslist>\n")
    n = sum(len(v) for v in dets.values())
    print(f"{args.out_dir}: {len(DOCS)} documents ({total:g} s), {len(TERMS)} terms, "
          f"{len(occ)} reference occurrences, {n} detections")
    return 0


if __name__ == "__main__":
    run(main)
