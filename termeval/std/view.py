"""What report.html and --textgrids show of a term detection run: per file, the reference
words (the RTTM's LEXEMEs), and each keyword's outcome as the alignment scored it
(termeval/std/score.py `ali`): hits (YES detections aligned to an occurrence), false alarms
(YES detections aligned to none) and misses (occurrences no YES detection is aligned to),
labelled with the keyword's text.

--compat kaldi (`kaldi_recordings`): the same tiers from compute-atwv's alignment
(termeval/std/kaldi: the hitlist's occurrences, the scored results, YES iff score >= the
decision threshold), per recording (the kws dir's `segments` place each utterance in its
recording, else the utterance is the recording), times = frames x its frame_length; the words
are the kws dir's `rttm` LEXEMEs (read for the recordings shown; none without an rttm).
"""
from __future__ import annotations

import os
from typing import Iterator

import numpy as np

from termeval.report.timeline import Recording, Tier, sorted_tier
from termeval.std.termlist import read_keywords_txt

TABLES = (("Per term", "details/per_term.tsv"), ("Ranked retrieval per term", "details/ranking_per_term.tsv"),
          ("Breakdown", "details/breakdown_*.tsv"), ("DET points", "details/det_points.tsv"),
          ("Alignment of detections and occurrences", "details/alignment.csv"))
PLOTS = ({"kind": "det", "table": "details/det_points.tsv", "x": "mean_pfa", "y": ["mean_pmiss"],
          "title": "DET curve (term-weighted, probit axes)", "xlabel": "P(false alarm) (%)", "ylabel": "P(miss) (%)"},
         {"kind": "lines", "table": "details/det_points.tsv", "x": "threshold", "y": ["twv"],
          "title": "TWV against the decision threshold", "xlabel": "threshold", "ylabel": "TWV"},
         {"kind": "bars", "table": "details/per_term.tsv", "label": "termid", "values": ["twv", "otwv"],
          "title": "TWV per term", "ylabel": "TWV"})
KALDI_TABLES = (("Alignment", "details/alignment.csv"),)
KALDI_NOTES = ("Timeline: hits are results with score >= the decision threshold aligned to a hitlist occurrence by "
               "compute-atwv, false alarms such results aligned to none, misses occurrences no such result is "
               "aligned to; each is labelled with its keyword (keywords.txt). Times: the results' frames x the kws "
               "dir's frame_length (details/alignment.csv prints frames / 100, as compute-atwv does).",)
NOTES = ("Timeline: hits are YES detections aligned to a reference occurrence, false alarms YES detections "
         "aligned to none, misses occurrences no YES detection is aligned to (termeval's alignment, "
         "details/alignment.csv); each is labelled with its keyword.",)


def _files(kws, dets) -> tuple[list[str], dict[str, tuple[float, float]]]:
    """The recordings in the ECF's order (else those of the references and detections, sorted)
    and the span of each."""
    spans: dict[str, tuple[float, float]] = {}
    if kws.ecf is not None and len(kws.ecf):
        for f, b, e in zip(kws.ecf.file.tolist(), kws.ecf.tbeg.tolist(), kws.ecf.tend.tolist()):
            lo, hi = spans.get(f, (b, e))
            spans[f] = (min(lo, b), max(hi, e))
        return list(spans), spans
    names = sorted(set(np.asarray(kws.occ.file).tolist()) | set(dets.file_ids))
    return names, {f: (0.0, 0.0) for f in names}


def _grouped(file: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(the items of files 0..n-1 ordered by file, the start of each file's run in that order)."""
    keep = np.flatnonzero(file >= 0)
    order = keep[np.argsort(file[keep], kind="stable")]
    return order, np.searchsorted(file[order], np.arange(n + 1))


def recordings(kws, dets, res, limit: int | None) -> Iterator[Recording]:
    """The first `limit` files (None: all) with their words, hits, false alarms and misses."""
    names, spans = _files(kws, dets)
    names = names if limit is None else names[:limit]
    n = len(names)
    code = {f: i for i, f in enumerate(names)}
    texts = list(kws.terms.texts)
    a = res.ali
    di, dref, dterm = (np.asarray(a[k], np.int64) for k in ("det_index", "det_ref", "det_term"))
    yes = np.asarray(a["yes"], bool)[di] if len(di) else np.zeros(0, bool)
    di, dref, dterm = di[yes], dref[yes], dterm[yes]          # the YES detections: hits and false alarms
    fcode = np.array([code.get(f, -1) for f in dets.file_ids], dtype=np.int64)
    dfile = fcode[np.asarray(dets.file)[di]] if len(di) else np.zeros(0, np.int64)
    occ = kws.occ
    ri = np.asarray(a["ref_index"], np.int64)
    found = np.zeros(len(occ), dtype=bool)                # occurrences a YES detection is aligned to
    found[dref[dref >= 0]] = True
    missed = ri[~found[ri]]
    mfile = np.array([code.get(f, -1) for f in np.asarray(occ.file)[missed].tolist()], dtype=np.int64)
    lex = kws.lexemes
    lfile = (np.array([code.get(f, -1) for f in np.asarray(lex.file).tolist()], dtype=np.int64)
             if lex is not None else np.zeros(0, np.int64))
    (dord, dst), (mord, mst), (lord, lst) = _grouped(dfile, n), _grouped(mfile, n), _grouped(lfile, n)
    for i, name in enumerate(names):
        k = dord[dst[i]:dst[i + 1]]
        d, hit = di[k], dref[k] >= 0
        beg, end = np.asarray(dets.tbeg)[d], np.asarray(dets.tbeg)[d] + np.asarray(dets.dur)[d]
        lab = np.array([texts[t] for t in dterm[k].tolist()], dtype=object)
        m = missed[mord[mst[i]:mst[i + 1]]]
        tiers = []
        if lex is not None:
            w = lord[lst[i]:lst[i + 1]]
            tiers.append(sorted_tier("words (reference)", lex.tbeg[w], lex.tend[w], np.asarray(lex.token)[w]))
        tiers += [sorted_tier("hits", beg[hit], end[hit], lab[hit], colour="hit"),
                  sorted_tier("false alarms", beg[~hit], end[~hit], lab[~hit], colour="fa"),
                  sorted_tier("misses", occ.beg[m], occ.end[m],
                              np.array([texts[t] for t in occ.term[m].tolist()], dtype=object), colour="miss")]
        lo, hi = spans[name]
        ends = [float(np.max(t.end)) for t in tiers if len(t)]
        starts = [float(np.min(t.start)) for t in tiers if len(t)]
        if ends:
            lo, hi = (min([lo] + starts), max([hi] + ends)) if hi > lo else (min(starts), max(ends))
        yield Recording(name, float(lo), float(hi), tiers)


def _kaldi_places(kws_dir: str, utts: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(recording names, recording index, start offset s) of compute-atwv's utterance numbers:
    utt.map's names, placed by the kws dir's segments when it has them."""
    from termeval.std.kaldi import atwv, refs    # --compat kaldi only: kept out of the F4DE runs' report
    um, seg = os.path.join(kws_dir, "utt.map"), os.path.join(kws_dir, "segments")
    names = {v: k for k, v in atwv.read_utt_ids(um).items()} if os.path.isfile(um) else {}
    where = refs.read_segments(seg) if os.path.isfile(seg) else {}
    uniq, inv = np.unique(utts, return_inverse=True)
    place = [where.get(names.get(u, str(u)), (names.get(u, str(u)), 0.0)) for u in uniq.tolist()]
    recos = sorted({r for r, _ in place})
    code = {r: i for i, r in enumerate(recos)}
    reco = np.array([code[r] for r, _ in place], np.int64)[inv.ravel()] if len(uniq) else np.zeros(0, np.int64)
    start = np.array([s for _, s in place], np.float64)[inv.ravel()] if len(uniq) else np.zeros(0)
    return recos, reco, start


def _words(kws_dir: str, want: set[str]):
    """The RTTM LEXEMEs of the recordings `want` (None without an rttm)."""
    from termeval.std.rttm import read_rttm    # --compat kaldi only: its runs read no RTTM otherwise
    path = os.path.join(kws_dir, "rttm")
    if not os.path.isfile(path):
        return None
    lex = read_rttm(path)
    keep = np.flatnonzero(np.isin(np.asarray(lex.file, dtype=object).astype(str), list(want)))
    return np.asarray(lex.file, dtype=object)[keep], lex.tbeg[keep], lex.tend[keep], np.asarray(lex.token)[keep]


def kaldi_recordings(args, run, limit: int | None) -> Iterator[Recording]:
    """--compat kaldi: the first `limit` recordings (None: all), sorted by name, with their words,
    hits, false alarms and misses (the module doc)."""
    from termeval.std.kaldi import refs    # --compat kaldi only: kept out of the F4DE runs' report
    ref, hyp, hr = run.ref, run.hyp, np.asarray(run.twv.hyp_ref, np.int64)
    fl = refs.read_frame_length(args.kws_dir)
    kw_path = os.path.join(args.kws_dir, "keywords.txt")
    kw = read_keywords_txt(kw_path) if os.path.isfile(kw_path) else None
    texts = dict(zip(kw.ids, kw.texts)) if kw is not None else {}
    yes = hyp.score >= np.float32(args.decision_threshold)
    hit = yes & (hr >= 0)
    found = np.zeros(len(ref), bool)
    found[hr[hit]] = True
    recos, where, offset = _kaldi_places(args.kws_dir, np.r_[ref.utt, hyp.utt])
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
