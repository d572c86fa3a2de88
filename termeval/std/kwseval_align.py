"""KWSEval's alignment.csv (`-c`) as F4DE 3.5.0's KWSAlignment::csv_write_align_str writes it, from
the alignment the reports count (the engine's `res.ali`): one line per trial,

  language,file,channel,termid,term,ref_bt,ref_et,sys_bt,sys_et,sys_score,sys_decision,alignment

- the values as F4DE holds them: `ref_bt` the first word's begin time as the RTTM wrote it (a
  word split by `-x charsplit`: `%.3f` of its share), `ref_et` `%.4f` of the last word's end
  (RTTMRecord), `sys_bt`, `sys_score` and `sys_decision` as the KWSLIST wrote them, `sys_et` the
  Perl number tbeg + dur; the term text is the term list's (split by `-x charsplit`);
- alignment CORR (a YES aligned to a reference), MISS (a NO aligned, or a reference no
  detection took: its sys_ fields empty), FA (a YES unaligned), CORR!DET (a NO unaligned);
- the terms in F4DE's processing order (termeval.std.kwseval_order: the system's blocks in file
  order, then the terms without a block in Perl's hash order, not with `-j`). Within a term
  F4DE's lines follow Perl hash orders of memory addresses (they change from one run to the
  next); here: the term's scored detections in file order, then its missed references in time
  order.
"""
from __future__ import annotations

import re

import numpy as np

from termeval.std import textnorm
from termeval.std.f4de_reports import perl_num
from termeval.std.kwseval_order import processing_order

HEADER = "language,file,channel,termid,term,ref_bt,ref_et,sys_bt,sys_et,sys_score,sys_decision,alignment\n"
_KW = re.compile(rb"<kw\s([^>]*)>")
_ATTR = re.compile(rb"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def kwslist_texts(path: str, n: int) -> dict[str, list[str]] | None:
    """The `tbeg`, `dur`, `score` and `decision` attribute texts of each `<kw>` of a KWSLIST in
    file order; None when the count is not the reader's `n` (the numbers are then printed)."""
    with open(path, "rb") as f:
        data = f.read()
    out: dict[str, list[str]] = {k: [] for k in ("tbeg", "dur", "score", "decision")}
    for m in _KW.finditer(data):
        attrs = {a.decode(): (b if b is not None else c).decode("utf-8", "replace")
                 for a, b, c in _ATTR.findall(m.group(1))}
        for k in out:
            out[k].append(attrs.get(k, ""))
    return out if len(out["tbeg"]) == n else None


def lexeme_begin_texts(rttm: str, lex, split: tuple[bool, bool, bool]) -> list[str]:
    """The begin time text of each LEXEME of the run (after -x charsplit): the RTTM field, or
    for a word split in n > 1 tokens `%.3f` of the token's begin (RTTMList::loadSSVFile)."""
    raw = []
    with open(rttm, encoding="utf-8", errors="replace") as f:
        for line in f:
            fields = line.split(";;", 1)[0].split()
            if fields and fields[0] == "LEXEME" and len(fields) >= 5:
                raw.append((fields[3], fields[5] if len(fields) > 5 else ""))
    if not split[0]:
        return [b for b, _ in raw]
    out = []
    for b, tok in raw:
        n = len(textnorm.charsplit_text(tok, split[1], split[2]).split(" "))
        out += [b] if n <= 1 else ["%.3f" % lex.tbeg[len(out) + k] for k in range(n)]
    return out


def segment_begin_texts(kws, ecf_path: str) -> list[str]:
    """The begin text of each segment reference (segment alignment, RTTMList::
    segmentsFromTimeframe): a speech segment begins at its SPEAKER turn's begin as the RTTM wrote
    it; a non-speech one at its excerpt's `tbeg` as the ECF wrote it when it opens the excerpt,
    else at the previous segment's end (`%.4f`). A segment is taken as speech when a turn of its
    file and channel begins where it begins."""
    from termeval.std.ecf import file_id    # the ids the segments carry
    spk: dict = {}
    with open(kws.rttm_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            x = line.split(";;", 1)[0].split()
            if len(x) >= 5 and x[0] == "SPEAKER":
                spk.setdefault((file_id(x[1]), x[2], _num(x[3])), x[3])
    ecf: dict = {}
    with open(ecf_path, "rb") as f:
        for m in re.finditer(rb"<excerpt\s([^>]*)>", f.read()):
            a = {k.decode(): (b if b is not None else c).decode("utf-8", "replace")
                 for k, b, c in _ATTR.findall(m.group(1))}
            if "audio_filename" in a:
                ecf.setdefault((file_id(a["audio_filename"]), a.get("channel", "1"), _num(a.get("tbeg", "0"))),
                               a.get("tbeg", "0"))
    occ = kws.occ
    keys = [(f, str(int(c)), float(b)) for f, c, b in zip(occ.file, occ.chan, occ.beg)]
    return [spk.get(k) or ecf.get(k) or "%.4f" % k[2] for k in keys]


def term_order(res, dets) -> list[int]:
    """F4DE's term order (termeval.std.kwseval_order.processing_order)."""
    pos = {t: i for i, t in enumerate(res.terms.ids)}
    segment = res.extra.get("alignment") == "segment"
    return [pos[t] for t in processing_order(res.terms.ids, dets.blocks, res.system_terms is not None and not segment)]


def alignment_csv(res, kws, dets, sys_texts: dict | None, ref_texts: list[str] | None) -> str:
    """The CSV text of the run's alignment (module doc)."""
    a = res.ali
    di = np.asarray(a["det_index"], np.int64)
    dref = np.asarray(a["det_ref"], np.int64)
    dterm = np.asarray(a["det_term"], np.int64)
    ri = np.asarray(a["ref_index"], np.int64)
    rdet = np.asarray(a["ref_det"], np.int64)
    occ = kws.occ
    lang = kws.terms.language or ""
    yes = np.asarray(a["yes"])
    rows: dict[int, list[tuple[int, str]]] = {}      # term -> (detection or -1, line)

    def ref_cells(r: int) -> tuple[str, str, str, str]:
        if ref_texts is None:
            bt = perl_num(occ.beg[r])
        else:
            bt = ref_texts[occ.lex[r]] if occ.lex is not None else ref_texts[r]
        return occ.file[r], str(int(occ.chan[r])), bt, "%.4f" % occ.end[r]

    for k in range(len(di)):
        d = int(di[k])
        q = int(dterm[k])
        if sys_texts is not None:
            bt, score, dec = sys_texts["tbeg"][d], sys_texts["score"][d], sys_texts["decision"][d]
            et = perl_num(_num(bt) + _num(sys_texts["dur"][d]))
        else:
            bt, score = perl_num(dets.tbeg[d]), perl_num(dets.score[d])
            et, dec = perl_num(dets.tbeg[d] + dets.dur[d]), "YES" if yes[d] else "NO"
        is_yes = dec == "YES"
        if dref[k] >= 0:
            f, c, rb, re_ = ref_cells(int(dref[k]))
            result = "CORR" if is_yes else "MISS"
        else:
            f, c, rb, re_ = dets.file_ids[int(dets.file[d])], str(int(dets.chan[d])), "", ""
            result = "FA" if is_yes else "CORR!DET"
        rows.setdefault(q, []).append((d, ",".join((lang, f, c, res.terms.ids[q], res.terms.texts[q], rb, re_,
                                                    bt, et, score, dec, result))))
    for r in ri[rdet < 0].tolist():
        q = int(occ.term[r])
        f, c, rb, re_ = ref_cells(r)
        rows.setdefault(q, []).append((-1, ",".join((lang, f, c, res.terms.ids[q], res.terms.texts[q], rb, re_,
                                                     "", "", "", "", "MISS"))))
    order = term_order(res, dets)
    stop = res.extra.get("kwseval_stop")
    if stop and stop[0]:        # (a segment alignment's death comes after every line)
        order = _until(order, rows, stop, res, occ, dets)
    return HEADER + "".join(line + "\n" for q in order for _, line in rows.get(q, ()))


def _until(order: list[int], rows: dict, stop: tuple, res, occ, dets) -> list[int]:
    """The terms F4DE wrote before dying at a detection (kwseval_groups.zero_group_offender):
    those before its term, and of its term the lines of its occurrences' file/channels and the
    detections it met until then."""
    q = res.terms.ids.index(stop[0])
    fc = {(f, int(c)) for f, c, t in zip(occ.file.tolist(), occ.chan.tolist(), occ.term.tolist()) if int(t) == q}
    met = set(stop[1])
    rows[q] = [(d, line) for d, line in rows.get(q, [])
               if d < 0 or d in met or (dets.file_ids[int(dets.file[d])], int(dets.chan[d])) in fc]
    return order[:order.index(q) + 1]


def _num(text: str) -> float:
    """A Perl string's numeric value: its leading number, 0 if none."""
    m = re.match(r"\s*[-+]?(\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)", text)
    return float(m.group(0)) if m else 0.0
