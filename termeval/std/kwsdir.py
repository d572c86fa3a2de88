"""Reading a kws data dir (docs/std.md §1): ECF + RTTM + term list (XML style), or a Kaldi kws dir
(hitlist + utt.map, segments, frame_length, utt2dur/reco2dur/trials, keywords.txt). Used by
STD scoring (score.py) and QUESST (quesst_io.py)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional

from termeval.core.errors import InputError
from termeval.std.ecf import Ecf, read_ecf
from termeval.std import textnorm
from termeval.std import kaldi_refs as kaldi
from termeval.std.rttm import Lexemes, Occurrences, find_occurrences, read_rttm
from termeval.std.termlist import TermList, read_keywords_txt, read_termlist


@dataclass
class KwsData:
    """The reference of a kws data dir: ECF (None when only a total duration is known),
    terms, occurrences (before ECF filtering)."""
    ecf: Optional[Ecf]
    terms: TermList
    occ: Occurrences
    t_audio: Optional[float] = None
    frame_length: float = 0.01
    utt_map: Optional[dict] = None
    segments: Optional[dict] = None
    kind: str = "xml"
    rttm_path: Optional[str] = None     # the RTTM read (segment alignment reads its SPEAKER turns)
    lexemes: Optional[Lexemes] = None   # its LEXEMEs (after --term-normalization)


def _first(d: str, names: list[str]) -> Optional[str]:
    for n in names:
        p = os.path.join(d, n)
        if os.path.exists(p):
            return p
    return None


def load_kws_dir(kws_dir: str, ecf: Optional[str] = None, rttm: Optional[str] = None,
                 termlist: Optional[str] = None, find_threshold: float = 0.5,
                 term_normalization: str = "") -> KwsData:
    """Load `<kws-data-dir>`: ecf.xml + rttm + tlist.xml|kwlist.xml (XML style), or Kaldi
    hitlist (+ utt.map, segments, frame_length, utt2dur/reco2dur/trials, keywords.txt or a
    term list). Explicit paths override the names in the directory. `term_normalization`:
    F4DE -x (termeval.std.textnorm), applied to the term texts and the RTTM LEXEMEs."""
    if not os.path.isdir(kws_dir):
        raise InputError("kws data dir not found", kws_dir)
    ecf = ecf or _first(kws_dir, ["ecf.xml", "ecf"])
    termlist = termlist or _first(kws_dir, ["tlist.xml", "kwlist.xml", "termlist.xml", "keywords.xml"])
    rttm = rttm or _first(kws_dir, ["rttm", "ref.rttm", "reference.rttm"])
    hitlist = _first(kws_dir, ["hitlist"])
    if rttm is None and hitlist is None:
        raise InputError("no reference: expected 'rttm' or a Kaldi 'hitlist'", kws_dir)
    if rttm is not None:
        if ecf is None:
            raise InputError("no ecf.xml", kws_dir)
        if termlist is None:
            raise InputError("no term list: expected tlist.xml or kwlist.xml", kws_dir)
        terms = read_termlist(termlist)
        lex = read_rttm(rttm)
        split, not_ascii, hyph = textnorm.parse_modes(term_normalization)
        if split:
            terms = textnorm.charsplit_terms(terms, not_ascii, hyph)
            lex = textnorm.charsplit_lexemes(lex, not_ascii, hyph)
        occ = find_occurrences(lex, terms, find_threshold)
        # a kws dir made by prepare_kws also holds utt.map/segments/frame_length: Kaldi results
        # (utterance numbers, frames) are then placed on the rttm's recordings
        um, seg = _first(kws_dir, ["utt.map"]), _first(kws_dir, ["segments"])
        return KwsData(read_ecf(ecf), terms, occ, None, kaldi.read_frame_length(kws_dir),
                       kaldi.read_utt_map(um) if um else None, kaldi.read_segments(seg) if seg else None,
                       rttm_path=rttm, lexemes=lex)
    if textnorm.parse_modes(term_normalization)[0]:
        raise InputError("--term-normalization charsplit needs an RTTM reference (a Kaldi hitlist "
                         "holds occurrences, not words)", kws_dir)
    fl = kaldi.read_frame_length(kws_dir)
    um = _first(kws_dir, ["utt.map"])
    utt_map = kaldi.read_utt_map(um) if um else None
    seg = _first(kws_dir, ["segments"])
    segments = kaldi.read_segments(seg) if seg else None
    if termlist is not None:
        terms = read_termlist(termlist)
    else:
        kw = _first(kws_dir, ["keywords.txt"])
        terms = read_keywords_txt(kw) if kw else None
    terms, occ = kaldi.read_hitlist(hitlist, terms, fl, utt_map, segments)
    if ecf is not None:
        e, t = read_ecf(ecf), None
    else:
        e, t = kaldi.kaldi_ecf(kws_dir, segments)
    return KwsData(e, terms, occ, t, fl, utt_map, segments, "kaldi")
