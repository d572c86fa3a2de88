"""What report.html and --textgrids show of a term detection run: per file, the reference
words (the RTTM's LEXEMEs), and each keyword's outcome as the alignment scored it
(termeval/std/score.py `ali`): hits (YES detections aligned to an occurrence), false alarms
(YES detections aligned to none) and misses (occurrences no YES detection is aligned to),
labelled with the keyword's text. --compat kaldi's: termeval/std/kaldi/view.py.
"""
from __future__ import annotations

from typing import Iterator

import numpy as np

from termeval.report.timeline import Recording, sorted_tier

TABLES = (("Per term", "details/per_term.tsv"), ("Ranked retrieval per term", "details/ranking_per_term.tsv"),
          ("Breakdown", "details/breakdown_*.tsv"), ("DET points", "details/det_points.tsv"),
          ("Alignment of detections and occurrences", "details/alignment.csv"))
PLOTS = ({"kind": "det", "table": "details/det_points.tsv", "x": "mean_pfa", "y": ["mean_pmiss"],
          "title": "DET curve (term-weighted, probit axes)", "xlabel": "P(false alarm) (%)", "ylabel": "P(miss) (%)"},
         {"kind": "lines", "table": "details/det_points.tsv", "x": "threshold", "y": ["twv"],
          "title": "TWV against the decision threshold", "xlabel": "threshold", "ylabel": "TWV"},
         {"kind": "bars", "table": "details/per_term.tsv", "label": "termid", "values": ["twv", "otwv"],
          "title": "TWV per term", "ylabel": "TWV"})
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
