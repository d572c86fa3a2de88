"""Inputs of QUESST-style per-document scoring: the reference (ECF + RTTM + term list, a
Kaldi kws dir, or the simple `documents`/`queries`/`targets` lists), the system's pair
scores (any STD detection format or `<query> <document> <score> [YES|NO]`), and their
mapping onto trial points (termeval.quesst.quesst.trials_from_pairs).
"""
from __future__ import annotations

import glob
import os
from dataclasses import dataclass, field

import numpy as np

from termeval.core.errors import InputError
from termeval.core.textio import iter_lines, parse_float, read_archive, read_text
from termeval.quesst.quesst import Trials, reduce_pairs, trials_from_pairs
from termeval.std import xmlsafe
from termeval.std.detections import YES, read_detections
from termeval.std.ecf import file_id
from termeval.std.kwsdir import load_kws_dir


# ----------------------------------------------------------------------------- inputs

@dataclass
class Reference:
    """Per-document ground truth: query ids, document ids, (query, document) target pairs."""
    query_ids: list[str]
    doc_ids: list[str]
    target_q: np.ndarray
    target_d: np.ndarray
    source: str = ""
    notes: list[str] = field(default_factory=list)
    query_texts: list[str] = field(default_factory=list)   # for breakdowns (ngram, oov)
    query_attrs: list[dict] = field(default_factory=list)  # term-list attributes, or {}

    def __post_init__(self) -> None:
        self.query_texts = self.query_texts or list(self.query_ids)
        self.query_attrs = self.query_attrs or [{} for _ in self.query_ids]


def _find(d: str, names: tuple[str, ...], suffixes: tuple[str, ...]) -> str | None:
    for n in names:
        p = os.path.join(d, n)
        if os.path.isfile(p):
            return p
    for s in suffixes:
        hits = sorted(glob.glob(os.path.join(d, "*" + s)))
        if len(hits) > 1:
            raise InputError(f"several *{s} files; keep one per directory", d)
        if hits:
            return hits[0]
    return None


def _read_id_list(path: str) -> list[str]:
    out, seen = [], set()
    for lineno, line in iter_lines(path):
        f = line.split()
        if not f:
            continue
        if f[0] in seen:
            raise InputError(f"duplicate id '{f[0]}'", path, lineno)
        seen.add(f[0])
        out.append(f[0])
    return out


def load_reference(kws_dir: str) -> Reference:
    """Ground truth from a kws data dir or a QUESST ground-truth dir, or the simple layout.

    1. ECF + RTTM + term list (`ecf.xml`|`*.ecf.xml`, `rttm`|`*.rttm`,
       `tlist.xml`|`kwlist.xml`|`*.tlist.xml`|`*.kwlist.xml`), or a Kaldi hitlist kws dir,
       read with termeval.std.kwsdir.load_kws_dir: documents = the ECF's files, a query is a
       target of a document iff the reference has an occurrence of it (F4DE term matching)
       in that file;
    2. simple lists: `documents` and `queries` (an id per line, extra fields ignored) and
       `targets` (`<query> <document>` per line).
    """
    if not os.path.isdir(kws_dir):
        raise InputError("not a directory", kws_dir)
    ecf_p = _find(kws_dir, ("ecf.xml", "ecf"), (".ecf.xml",))
    rttm_p = _find(kws_dir, ("rttm", "ref.rttm", "reference.rttm"), (".rttm",))
    tl_p = _find(kws_dir, ("tlist.xml", "kwlist.xml", "termlist.xml", "keywords.xml"),
                 (".tlist.xml", ".kwlist.xml"))
    if rttm_p is not None or os.path.isfile(os.path.join(kws_dir, "hitlist")):
        # the STD engineer's loader: ECF + RTTM + term list, or Kaldi hitlist + utt.map ...
        kws = load_kws_dir(kws_dir, ecf=ecf_p, rttm=rttm_p, termlist=tl_p)
        if kws.ecf is None:
            raise InputError("per-document scoring needs the list of documents: an ECF, or "
                             "utt2dur/reco2dur beside the hitlist", kws_dir)
        docs = list(dict.fromkeys(kws.ecf.file.tolist()))
        occ = kws.occ
        dindex = {d: i for i, d in enumerate(docs)}
        d = np.fromiter((dindex.get(f, -1) for f in occ.file), np.int64, len(occ))
        notes = []
        n_out = int((d < 0).sum())
        if n_out:
            notes.append(f"{n_out} reference occurrence(s) in files not in the ECF were ignored")
        ok = d >= 0
        return Reference(list(kws.terms.ids), docs, np.asarray(occ.term, np.int64)[ok], d[ok],
                         " ".join(x for x in (ecf_p, rttm_p, tl_p) if x), notes,
                         list(kws.terms.texts), [dict(x) for x in kws.terms.attrs])
    docs_p, q_p, t_p = (os.path.join(kws_dir, n) for n in ("documents", "queries", "targets"))
    if not all(os.path.isfile(p) for p in (docs_p, q_p, t_p)):
        raise InputError("expected an ECF + RTTM + term list, or the files documents, queries "
                         "and targets", kws_dir)
    docs = [file_id(x) for x in _read_id_list(docs_p)]
    queries = _read_id_list(q_p)
    dindex = {x: i for i, x in enumerate(docs)}
    qindex = {x: i for i, x in enumerate(queries)}
    tq, td = [], []
    for lineno, f in read_archive(t_p, min_fields=2):
        if f[0] not in qindex:
            raise InputError(f"unknown query '{f[0]}' (not in {q_p})", t_p, lineno)
        dd = file_id(f[1])
        if dd not in dindex:
            raise InputError(f"unknown document '{f[1]}' (not in {docs_p})", t_p, lineno)
        tq.append(qindex[f[0]])
        td.append(dindex[dd])
    return Reference(queries, docs, np.asarray(tq, np.int64), np.asarray(td, np.int64), kws_dir, [])


@dataclass
class PairScores:
    """System output as (query id, document id) codes + score + YES decision."""
    query_ids: list[str]
    doc_ids: list[str]
    query: np.ndarray
    doc: np.ndarray
    score: np.ndarray
    decision: np.ndarray | None
    fmt: str
    path: str | None = None  # the detection file, named by errors about its content


def _read_pairs_text(path: str) -> PairScores:
    """`<query> <document> <score> [YES|NO]` lines (the per-document plain-text layout)."""
    # fast path: three fields on every line, all scores finite numbers
    text = read_text(path)
    tok = text.split()
    nlines = sum(1 for line in text.splitlines() if line.strip())
    if len(tok) == 3 * nlines and nlines:
        try:
            sc = np.asarray(tok[2::3], dtype=np.float64)
        except ValueError:
            sc = None
        if sc is not None and np.isfinite(sc).all():
            qmap: dict[str, int] = {}
            dmap: dict[str, int] = {}
            qc = np.fromiter((qmap.setdefault(x, len(qmap)) for x in tok[0::3]), np.int64, nlines)
            draw: dict[str, int] = {}
            dc = np.fromiter((draw.setdefault(x, len(draw)) for x in tok[1::3]), np.int64, nlines)
            remap = np.array([dmap.setdefault(file_id(x), len(dmap)) for x in draw], np.int64)
            return PairScores(list(qmap), list(dmap), qc, remap[dc], sc, None, "pairs")
    del text, tok
    qmap: dict[str, int] = {}
    dmap: dict[str, int] = {}
    q, d, s, dec = [], [], [], []
    has_dec = None
    for lineno, line in iter_lines(path):
        f = line.split()
        if not f:
            continue
        if len(f) not in (3, 4):
            raise InputError(f"expected '<query> <document> <score> [YES|NO]', got {len(f)} fields",
                             path, lineno)
        if has_dec is None:
            has_dec = len(f) == 4
        elif has_dec != (len(f) == 4):
            raise InputError("either every line or no line has a YES/NO decision", path, lineno)
        q.append(qmap.setdefault(f[0], len(qmap)))
        d.append(dmap.setdefault(file_id(f[1]), len(dmap)))
        s.append(parse_float(f[2], path, lineno, "score"))
        if has_dec:
            v = f[3].upper()
            if v not in ("YES", "NO"):
                raise InputError(f"decision '{f[3]}' is neither YES nor NO", path, lineno)
            dec.append(v == "YES")
    return PairScores(list(qmap), list(dmap), np.asarray(q, np.int64), np.asarray(d, np.int64),
                      np.asarray(s, np.float64), np.asarray(dec, bool) if has_dec else None, "pairs")


def read_pair_scores(path: str, fmt: str = "auto") -> PairScores:
    """Detections in any STD format (STDLIST, KWSLIST, Kaldi `kwid utt start end score`) or
    the 3/4-column `<query> <document> <score> [YES|NO]` layout; times are not used."""
    if fmt == "auto":
        if xmlsafe.sniff_root(path) is None:
            nf = next((len(line.split()) for _, line in iter_lines(path) if line.split()), 3)
            fmt = "pairs" if nf in (3, 4) else "kaldi"
        else:
            fmt = "xml"
    if fmt == "pairs":
        out = _read_pairs_text(path)
        out.path = path
        return out
    det = read_detections(path, "auto" if fmt == "xml" else fmt)
    dec = None
    if len(det) and (det.decision >= 0).all():
        dec = det.decision == YES
    return PairScores(list(det.term_ids), list(det.file_ids), np.asarray(det.term, np.int64),
                      np.asarray(det.file, np.int64), det.score, dec, det.fmt, path)


@dataclass
class Mapped:
    """The system's detections on the reference's query/document indices (outside ones dropped)."""
    query: np.ndarray
    doc: np.ndarray
    score: np.ndarray
    decision: np.ndarray | None
    n_outside: int
    default: float
    warnings: list[str]


def map_detections(ref: Reference, hyp: PairScores, default_score: float | str = "min") -> Mapped:
    """Map the system's ids onto the reference. Unknown query ids are an error (as in F4DE);
    detections in documents outside the reference are dropped, counted and reported.
    default_score 'min' = the minimum submitted score (seed eq. 42)."""
    warnings = list(ref.notes)
    qindex = {q: i for i, q in enumerate(ref.query_ids)}
    dindex = {d: i for i, d in enumerate(ref.doc_ids)}
    qmap = np.array([qindex.get(q, -1) for q in hyp.query_ids], np.int64)
    unknown = [q for q, m in zip(hyp.query_ids, qmap) if m < 0]
    if unknown:
        raise InputError(f"{len(unknown)} query id(s) of the system output are not in the "
                         f"reference term list, e.g. '{unknown[0]}'", hyp.path)
    dmap = np.array([dindex.get(d, -1) for d in hyp.doc_ids], np.int64)
    q = qmap[hyp.query] if len(hyp.query) else np.zeros(0, np.int64)
    d = dmap[hyp.doc] if len(hyp.doc) else np.zeros(0, np.int64)
    out = d < 0
    if out.any():
        ex = hyp.doc_ids[int(hyp.doc[np.flatnonzero(out)[0]])]
        warnings.append(f"{int(out.sum())} detection(s) in documents not in the reference "
                        f"(e.g. '{ex}') were dropped")
    keep = ~out
    if default_score == "min":
        if not keep.any():
            raise InputError("no detections: give --default-score explicitly")
        default = float(hyp.score[keep].min())
    else:
        default = float(default_score)
    dec = hyp.decision[keep] if hyp.decision is not None else None
    return Mapped(q[keep], d[keep], hyp.score[keep], dec, int(out.sum()), default, warnings)


def reduce_queries(m: Mapped, n_docs: int, lo: int = 0, hi: int | None = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """reduce_pairs on the detections of the reference queries lo <= q < hi."""
    sel = (m.query >= lo) & (m.query < (np.iinfo(np.int64).max if hi is None else hi))
    return reduce_pairs(m.query[sel], m.doc[sel], m.score[sel],
                        None if m.decision is None else m.decision[sel], n_docs)


def trials_from_inputs(ref: Reference, hyp: PairScores, default_score: float | str = "min"
                       ) -> tuple[Trials, list[str]]:
    """Map the system's ids onto the reference and build the trial points: (trials, warnings)."""
    return trials_from_mapped(ref, map_detections(ref, hyp, default_score))


def trials_from_mapped(ref: Reference, m: Mapped,
                       pairs: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
                       ) -> tuple[Trials, list[str]]:
    """The trial points of mapped detections; `pairs`: their reduced pairs when jobs computed
    them (termeval.quesst.stage), else reduced here. Returns (trials, warnings)."""
    warnings = list(m.warnings)
    keys, sc, dc = pairs if pairs is not None else reduce_queries(m, len(ref.doc_ids))
    tr = trials_from_pairs(ref.query_ids, len(ref.doc_ids), ref.target_q, ref.target_d,
                           keys, sc, dc, len(m.query), m.default)
    tr.counts["default_score"] = m.default
    tr.counts["n_outside_documents"] = m.n_outside
    if tr.counts["n_duplicates"]:
        warnings.append(f"{len(m.query)} detections reduced to {tr.counts['n_given'] + tr.counts['n_unseen_query_trials']} "
                        "(query, document) trials: the maximum score of each pair was kept")
    if tr.counts["n_unseen_queries"]:
        warnings.append(f"Removing unseen models: {tr.counts['n_unseen_queries']} query(ies) "
                        "with no occurrence in any document")
    return tr, warnings
