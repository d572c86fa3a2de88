#!/usr/bin/env python3
"""A small synthetic query-by-example task and a toy QbE system, for the QUESST-style scoring
and the processing-load figures (deterministic, no downloads).

Usage: local/make_example_quesst.py [--seed N] reference <kws-dir>
       local/make_example_quesst.py [--seed N] index <kws-dir> <index.npz>
       local/make_example_quesst.py [--top K] search <kws-dir> <index.npz> <stdlist.xml>
 e.g.: local/make_example_quesst.py reference data/example_quesst/kws
       local/make_example_quesst.py index data/example_quesst/kws exp/example_quesst/index.npz
       local/make_example_quesst.py search data/example_quesst/kws exp/example_quesst/index.npz \\
           exp/example_quesst/quesst.stdlist.xml

reference: 40 documents (3-8 s) and 12 queries (0.5-1.2 s; two of them with a second
  example), written as a QUESST-style ground-truth dir: quesst.ecf.xml, quesst.rttm (one
  LEXEME per occurrence, orthography = query id), quesst.tlist.xml, and query2dur
  (`<example-id> <seconds>`, all examples). One query occurs nowhere (removed as unseen).
index: "features" of the documents (13-dim frames at 100 per second, the query patterns
  planted where the RTTM says, with noise) -> index.npz.
search: sliding-window distance of every query example against every document (numpy),
  the best match per (query, document) turned into an LLR-like score; only the top K
  documents per query are written (an incomplete STDLIST, so defaults matter); decision YES
  iff the score is above the QUESST Bayes threshold ln(12.49).
"""
from __future__ import annotations

import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from termeval.run.cli import make_parser, run  # noqa: E402
from termeval.core.errors import InputError  # noqa: E402
from termeval.core.textio import atomic_write  # noqa: E402

FPS = 100
DIM = 13
N_DOCS = 40
N_QUERIES = 12
CENTRE = 2.9  # distance at which the toy score is 0


def _plan(seed: int):
    rng = np.random.default_rng(seed)
    doc_frames = rng.integers(300, 801, N_DOCS)
    q_frames = rng.integers(50, 121, N_QUERIES)
    patterns = [rng.normal(size=(n, DIM)) for n in q_frames]
    occ = []  # (query, doc, start frame)
    for q in range(N_QUERIES - 1):  # the last query occurs nowhere
        for d in rng.choice(N_DOCS, size=int(rng.integers(1, 5)), replace=False):
            occ.append((q, int(d), int(rng.integers(0, doc_frames[d] - q_frames[q]))))
    extra = {2: int(rng.integers(50, 121)), 7: int(rng.integers(50, 121))}  # second examples
    return rng, doc_frames, q_frames, patterns, occ, extra


def docs_ids():
    return [f"doc_{i:03d}" for i in range(N_DOCS)]


def query_ids():
    return [f"qry_{i:03d}" for i in range(N_QUERIES)]


def write_reference(kws: str, seed: int) -> None:
    _, doc_frames, q_frames, _, occ, extra = _plan(seed)
    os.makedirs(kws, exist_ok=True)
    docs, qs = docs_ids(), query_ids()
    total = sum(int(n) for n in doc_frames) / FPS
    with atomic_write(os.path.join(kws, "quesst.ecf.xml")) as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        f.write(f'<ecf source_signal_duration="{total:.2f}" version="termeval-example-quesst">\n')
        for d, n in zip(docs, doc_frames):
            f.write(f'  <excerpt audio_filename="{d}.wav" channel="1" tbeg="0.000" dur="{n / FPS:.2f}" '
                    'language="multiple" source_type="read"/>\n')
        f.write("</ecf>\n")
    with atomic_write(os.path.join(kws, "quesst.tlist.xml")) as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        f.write('<termlist ecf_filename="quesst.ecf.xml" language="multiple" version="termeval-example-quesst">\n')
        for q in qs:
            f.write(f'  <term termid="{q}"><termtext>{q}</termtext></term>\n')
        f.write("</termlist>\n")
    with atomic_write(os.path.join(kws, "quesst.rttm")) as f:
        for d, n in zip(docs, doc_frames):
            f.write(f"SPEAKER {d} 1 0.00 {n / FPS:.2f} <NA> <NA> spk_{d} <NA>\n")
        for q, d, s in sorted(occ, key=lambda o: (o[1], o[2])):
            f.write(f"LEXEME {docs[d]} 1 {s / FPS:.2f} {q_frames[q] / FPS:.2f} {qs[q]} lex spk_{docs[d]} <NA>\n")
    with atomic_write(os.path.join(kws, "query2dur")) as f:
        for q, n in zip(qs, q_frames):
            f.write(f"{q} {n / FPS:.2f}\n")
        for q, n in sorted(extra.items()):
            f.write(f"{qs[q]}_02 {n / FPS:.2f}\n")


def _need_reference(kws: str) -> None:
    path = os.path.join(kws, "quesst.ecf.xml")
    if not os.path.isfile(path):
        raise InputError("run the 'reference' step first", path)



def build_index(kws: str, out: str, seed: int) -> None:
    _need_reference(kws)
    rng, doc_frames, q_frames, patterns, occ, _ = _plan(seed)
    feats = [rng.normal(size=(int(n), DIM)) for n in doc_frames]
    for q, d, s in occ:
        feats[d][s:s + q_frames[q]] = patterns[q] + 1.1 * rng.normal(size=patterns[q].shape)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with atomic_write(out, "wb") as f:
        np.savez(f, *feats)


def _queries(seed: int):
    rng, _, q_frames, patterns, _, extra = _plan(seed)
    rng2 = np.random.default_rng(seed + 1000)
    out = []  # (query index, example features)
    for q, p in enumerate(patterns):
        out.append((q, p + 1.1 * rng2.normal(size=p.shape)))
        if q in extra:  # a second, time-stretched example
            idx = np.linspace(0, len(p) - 1, extra[q]).round().astype(int)
            out.append((q, p[idx] + 1.1 * rng2.normal(size=(extra[q], DIM))))
    return out


def search(kws: str, index: str, out: str, seed: int, top: int) -> None:
    _need_reference(kws)
    if not os.path.isfile(index):
        raise InputError("run the 'index' step first", index)
    with np.load(index) as z:
        feats = [z[f"arr_{i}"] for i in range(len(z.files))]
    docs, qs = docs_ids(), query_ids()
    best = np.full((N_QUERIES, len(feats)), -np.inf)
    where = np.zeros((N_QUERIES, len(feats), 2))
    for q, ex in _queries(seed):
        n = len(ex)
        for d, F in enumerate(feats):
            # mean squared distance of the example to every window of the document
            win = np.lib.stride_tricks.sliding_window_view(F, (n, DIM))[:, 0]
            dist = ((win - ex) ** 2).mean(axis=(1, 2))
            i = int(np.argmin(dist))
            score = 8.0 * (CENTRE - dist[i])  # ~LLR: negative for noise, positive for a match
            if score > best[q, d]:
                best[q, d] = score
                where[q, d] = (i / FPS, n / FPS)
    thr = math.log((1 - 0.0741290) / 0.0741290)
    with atomic_write(out) as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        f.write('<stdlist termlist_filename="quesst.tlist.xml" indexing_time="0" language="multiple" '
                'index_size="0" system_id="toy-qbe-dtw">\n')
        for q in range(N_QUERIES):
            f.write(f'  <detected_termlist termid="{qs[q]}" term_search_time="0" oov_term_count="0">\n')
            for d in np.argsort(-best[q], kind="stable")[:top]:
                s = best[q, d]
                f.write(f'    <term file="{docs[d]}" channel="1" tbeg="{where[q, d, 0]:.2f}" '
                        f'dur="{where[q, d, 1]:.2f}" score="{s:.4f}" decision="{"YES" if s >= thr else "NO"}"/>\n')
            f.write("  </detected_termlist>\n")
        f.write("</stdlist>\n")


def main(argv):
    p = make_parser(__doc__)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--top", type=int, default=10, help="documents written per query (default 10)")
    p.add_argument("step", choices=("reference", "index", "search"))
    p.add_argument("args", nargs="+")
    a = p.parse_args(argv)
    need = {"reference": 1, "index": 2, "search": 3}[a.step]
    if len(a.args) != need:
        raise InputError(f"step {a.step} takes {need} argument(s), got {len(a.args)}")
    if a.step == "reference":
        write_reference(a.args[0], a.seed)
    elif a.step == "index":
        build_index(a.args[0], a.args[1], a.seed)
    else:
        search(a.args[0], a.args[1], a.args[2], a.seed, a.top)
    return 0


if __name__ == "__main__":
    run(main)
