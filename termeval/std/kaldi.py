"""Kaldi plain-text KWS references (spec §1.6): `hitlist` (`KWID utt-int start-frame end-frame
score`), `utt.map` (`utt-name N`), optional `segments` (`utt reco start end`), `frame_length`,
and durations from `utt2dur`/`reco2dur` (or a single number in `trials`).
"""
from __future__ import annotations

import math
import os
from typing import Optional

import numpy as np

from termeval.errors import InputError
from termeval.std.detections import read_detections
from termeval.std.ecf import Ecf, ecf_from_durations, file_id, round4
from termeval.std.rttm import Occurrences, sort_occurrences
from termeval.std.termlist import TermList
from termeval.std.xmlsafe import clip
from termeval.textio import iter_lines, read_map


def read_utt_map(path: str) -> dict[str, str]:
    """utt.map (`utt-name N`) inverted: {'N': 'utt-name'}."""
    inv: dict[str, str] = {}
    for name, num in read_map(path).items():
        inv[num.split()[0]] = name
    return inv


def read_segments(path: str) -> dict[str, tuple[str, float]]:
    """Kaldi segments: {utt: (recording, start-offset)}."""
    out: dict[str, tuple[str, float]] = {}
    for lineno, line in iter_lines(path):
        f = line.split()
        if not f:
            continue
        if len(f) < 4:
            raise InputError("expected 'utt reco start end'", path, lineno)
        out[f[0]] = (f[1], _float(f[2], path, lineno))
    return out


def read_durations(path: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for lineno, line in iter_lines(path):
        f = line.split()
        if not f:
            continue
        if len(f) != 2:
            raise InputError("expected '<id> <duration>'", path, lineno)
        d = _float(f[1], path, lineno, "duration")
        if d < 0:
            raise InputError(f"negative duration {clip(f[1])}", path, lineno)
        out[f[0]] = d
    return out


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


def _float(text: str, path: str, line: int, what: str = "time") -> float:
    """A finite number; the message quotes at most ~200 characters of the text."""
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{what} '{clip(text)}' is not a number", path, line) from None
    if not math.isfinite(value):
        raise InputError(f"{what} '{clip(text)}' is not a finite number", path, line)
    return value
