"""What report.html and --textgrids show of a --compat kaldi run of score_std: the tiers of
termeval/std/view.py (the reference words, each keyword's hits, false alarms and misses) from
compute-atwv's alignment (termeval/std/kaldi/atwv.py: the hitlist's occurrences, the scored
results, YES iff score >= the decision threshold), per recording (the kws dir's `segments`
place each utterance in its recording, else the utterance is the recording), times = frames x
its frame_length; the words are the kws dir's `rttm` LEXEMEs (read for the recordings shown;
none without an rttm). Loaded through the compat module (termeval/std/kaldi/report.py view),
only with --report/--textgrids.
"""
from __future__ import annotations

import os
from typing import Iterator

import numpy as np

from termeval.core.stage import View
from termeval.report.timeline import Recording, sorted_tier
from termeval.std import kaldi_refs
from termeval.std.kaldi import atwv
from termeval.std.rttm import read_rttm
from termeval.std.termlist import read_keywords_txt

TABLES = (("Alignment", "details/alignment.csv"),)
NOTES = ("Timeline: hits are results with score >= the decision threshold aligned to a hitlist occurrence by "
         "compute-atwv, false alarms such results aligned to none, misses occurrences no such result is "
         "aligned to; each is labelled with its keyword (keywords.txt). Times: the results' frames x the kws "
         "dir's frame_length (details/alignment.csv prints frames / 100, as compute-atwv does).",)


def _places(kws_dir: str, utts: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(recording names, recording index, start offset s) of compute-atwv's utterance numbers:
    utt.map's names, placed by the kws dir's segments when it has them."""
    um, seg = os.path.join(kws_dir, "utt.map"), os.path.join(kws_dir, "segments")
    names = {v: k for k, v in atwv.read_utt_ids(um).items()} if os.path.isfile(um) else {}
    where = kaldi_refs.read_segments(seg) if os.path.isfile(seg) else {}
    uniq, inv = np.unique(utts, return_inverse=True)
    place = [where.get(names.get(u, str(u)), (names.get(u, str(u)), 0.0)) for u in uniq.tolist()]
    recos = sorted({r for r, _ in place})
    code = {r: i for i, r in enumerate(recos)}
    reco = np.array([code[r] for r, _ in place], np.int64)[inv.ravel()] if len(uniq) else np.zeros(0, np.int64)
    start = np.array([s for _, s in place], np.float64)[inv.ravel()] if len(uniq) else np.zeros(0)
    return recos, reco, start


def _words(kws_dir: str, want: set[str]):
    """The RTTM LEXEMEs of the recordings `want` (None without an rttm)."""
    path = os.path.join(kws_dir, "rttm")
    if not os.path.isfile(path):
        return None
    lex = read_rttm(path)
    keep = np.flatnonzero(np.isin(np.asarray(lex.file, dtype=object).astype(str), list(want)))
    return np.asarray(lex.file, dtype=object)[keep], lex.tbeg[keep], lex.tend[keep], np.asarray(lex.token)[keep]


def recordings(args, run, limit: int | None) -> Iterator[Recording]:
    """--compat kaldi: the first `limit` recordings (None: all), sorted by name, with their words,
    hits, false alarms and misses (the module doc)."""
    ref, hyp, hr = run.ref, run.hyp, np.asarray(run.twv.hyp_ref, np.int64)
    fl = kaldi_refs.read_frame_length(args.kws_dir)
    kw_path = os.path.join(args.kws_dir, "keywords.txt")
    kw = read_keywords_txt(kw_path) if os.path.isfile(kw_path) else None
    texts = dict(zip(kw.ids, kw.texts)) if kw is not None else {}
    yes = hyp.score >= np.float32(args.decision_threshold)
    hit = yes & (hr >= 0)
    found = np.zeros(len(ref), bool)
    found[hr[hit]] = True
    recos, where, offset = _places(args.kws_dir, np.r_[ref.utt, hyp.utt])
    rreco, hreco = where[:len(ref)], where[len(ref):]
    rt = (offset[:len(ref)], ref.start * fl, ref.end * fl)
    ht = (offset[len(ref):], hyp.start * fl, hyp.end * fl)
    names = recos if limit is None else recos[:limit]
    words = _words(args.kws_dir, set(names))

    def label(ids: list[str], kw: np.ndarray) -> np.ndarray:
        return np.array([texts.get(ids[k], ids[k]) for k in kw.tolist()], dtype=object)
    for i, name in enumerate(names):
        tiers = []
        if words is not None:
            w = words[0] == name
            tiers.append(sorted_tier("words (reference)", words[1][w], words[2][w], words[3][w]))
        outcomes = (("hits", hit & (hreco == i), ht, hyp, "hit"),
                    ("false alarms", yes & (hr < 0) & (hreco == i), ht, hyp, "fa"),
                    ("misses", ~found & (rreco == i), rt, ref, "miss"))
        for tier, sel, (off, beg, end), terms, colour in outcomes:
            tiers.append(sorted_tier(tier, off[sel] + beg[sel], off[sel] + end[sel], label(terms.kw_ids, terms.kw[sel]),
                                     colour=colour))
        ends = [float(np.max(t.end)) for t in tiers if len(t)]
        yield Recording(name, 0.0, max(ends, default=0.0), tiers)


def view(opts, run) -> View:
    """The section of a --compat kaldi run (its RecipeRun)."""
    return View("Keyword search: Kaldi's compute-atwv (--compat kaldi)", TABLES,
                timeline=lambda limit: recordings(opts, run, limit), settings=opts, notes=NOTES)
