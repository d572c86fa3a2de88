"""Kaldi plain-text KWS references (docs/std.md §1.6): `hitlist` (`KWID utt-int start-frame end-frame
score`), `utt.map` (`utt-name N`), optional `segments` (`utt reco start end`), `frame_length`,
and durations from `utt2dur`/`reco2dur` (or a single number in `trials`).
"""
from __future__ import annotations

import os
from typing import Optional

import numpy as np

from termeval.core import kaldi_files
from termeval.core.errors import InputError
from termeval.std.detections import read_detections
from termeval.std.ecf import Ecf, ecf_from_durations, file_id, round4
from termeval.std.rttm import Occurrences, sort_occurrences
from termeval.std.termlist import TermList
from termeval.std.xmlsafe import clip
from termeval.core.textio import iter_lines, parse_float, read_map


def read_utt_map(path: str) -> dict[str, str]:
    """utt.map (`utt-name N`) inverted: {'N': 'utt-name'}."""
    inv: dict[str, str] = {}
    for name, num in read_map(path).items():
        inv[num.split()[0]] = name
    return inv


def read_segments(path: str) -> dict[str, tuple[str, float]]:
    """Kaldi segments: {utt: (recording, start-offset)} (strict reader: termeval.core.kaldi_files)."""
    return {u: (s.reco, s.start) for u, s in kaldi_files.read_segments(path).items()}


def read_durations(path: str) -> dict[str, float]:
    """utt2dur/reco2dur: {id: seconds >= 0} (strict reader: termeval.core.kaldi_files)."""
    return kaldi_files.read_durations(path, positive=False)


def read_frame_length(kws_dir: str) -> float:
    p = os.path.join(kws_dir, "frame_length")
    if not os.path.exists(p):
        return 0.01
    for lineno, line in iter_lines(p):
        if line.strip():
            return _float(line.strip(), p, lineno, "frame length")
    return 0.01


def read_hitlist(path: str, terms: Optional[TermList], frame_length: float,
                 utt_map: Optional[dict[str, str]], segments) -> tuple[TermList, Occurrences]:
    """Reference occurrences from a Kaldi hitlist. Without a term list the hitlist's keyword
    ids are the terms."""
    h = read_detections(path, fmt="kaldi", frame_length=frame_length, utt_map=utt_map, segments=segments)
    if terms is None:
        terms = TermList(list(h.term_ids), list(h.term_ids), [{} for _ in h.term_ids], "", "kaldi", "", path)
    idx = terms.index()
    codes = np.asarray([idx.get(t, -1) for t in h.term_ids], dtype=np.int64)
    t = codes[h.term] if len(h) else np.zeros(0, np.int64)
    if np.any(t < 0):
        bad = h.term_ids[int(h.term[np.flatnonzero(t < 0)[0]])]
        raise InputError(f"keyword '{clip(bad)}' of the hitlist is not in the keyword list", path)
    files = np.asarray(h.file_ids, dtype=object)[h.file] if len(h) else np.zeros(0, dtype=object)
    end = round4(h.tbeg + h.dur)
    occ = Occurrences(t.astype(np.int32), files, h.chan, h.tbeg, end, end)
    return terms, sort_occurrences(occ)


def kaldi_ecf(kws_dir: str, segments) -> tuple[Optional[Ecf], Optional[float]]:
    """ECF from reco2dur (with segments) or utt2dur, else (None, T) from the `trials` file."""
    for name in (["reco2dur", "utt2dur"] if segments else ["utt2dur", "reco2dur"]):
        p = os.path.join(kws_dir, name)
        if os.path.exists(p):
            return ecf_from_durations({file_id(k): v for k, v in read_durations(p).items()}, p), None
    p = os.path.join(kws_dir, "trials")
    if os.path.exists(p):
        for lineno, line in iter_lines(p):
            if line.strip():
                return None, _float(line.split()[0], p, lineno, "trials")
    raise InputError("Kaldi-style kws dir needs ecf.xml, utt2dur/reco2dur or trials", kws_dir)


_float = parse_float  # one finite-number parser for every text reader (termeval.core.textio)
