"""Kaldi plain-text KWS results (`kwid utt start end score`, frames of `frame_length` seconds
relative to the utterance), as written by Kaldi's KWS search: the third detection format of
`termeval.std.detections.read_detections`, which calls it.
"""
from __future__ import annotations

import numpy as np

from termeval.core.errors import InputError
from termeval.core.textio import read_text
from termeval.std.detection_table import UNSET, Detections
from termeval.std.ecf import file_id
from termeval.std.xmlsafe import clip


def read_kaldi_results(path: str, frame_length: float, utt_map, segments) -> Detections:
    """`kwid utt start end score` lines (Kaldi results / hitlist style), frames -> seconds."""
    text = read_text(path)
    kw_map: dict[str, int] = {}
    utt_vocab: dict[str, int] = {}
    kw_codes: list[int] = []
    u_codes: list[int] = []
    nums: list[str] = []
    lines: list[int] = []
    for lineno, line in enumerate(text.split("\n"), 1):
        f = line.split()
        if not f:
            continue
        if len(f) != 5:
            raise InputError(f"expected 'kwid utt start end score' (5 fields), got {len(f)}", path, lineno)
        c = kw_map.get(f[0])
        if c is None:
            c = kw_map[f[0]] = len(kw_map)
        kw_codes.append(c)
        c = utt_vocab.get(f[1])
        if c is None:
            c = utt_vocab[f[1]] = len(utt_vocab)
        u_codes.append(c)
        nums.extend(f[2:5])
        lines.append(lineno)
    n = len(kw_codes)
    try:
        arr = np.asarray(nums, dtype=np.float64).reshape(n, 3) if n else np.zeros((0, 3))
    except ValueError:
        for k, v in enumerate(nums):
            try:
                float(v)
            except ValueError:
                raise InputError(f"'{clip(v)}' is not a number", path, lines[k // 3]) from None
        raise
    bad = np.flatnonzero(~np.isfinite(arr).all(axis=1))
    if len(bad):
        raise InputError("start/end/score must be finite numbers", path, lines[bad[0]])
    bad = np.flatnonzero(arr[:, 1] < arr[:, 0])
    if len(bad):
        raise InputError("end frame before start frame (negative duration)", path, lines[bad[0]])
    bad = np.flatnonzero(arr[:, 0] < 0)
    if len(bad):
        raise InputError("negative start frame", path, lines[bad[0]])
    # utterance -> (file, offset)
    uttnames = list(utt_vocab)
    files, offsets = [], np.zeros(len(uttnames))
    for i, u in enumerate(uttnames):
        name = utt_map.get(u, u) if utt_map else u
        if segments and name in segments:
            reco, off = segments[name]
            files.append(reco)
            offsets[i] = off
        else:
            files.append(name)
    fmap: dict[str, int] = {}
    fremap = np.empty(len(uttnames), dtype=np.int32)
    for i, f in enumerate(files):
        fremap[i] = fmap.setdefault(file_id(f), len(fmap))
    uc = np.asarray(u_codes, dtype=np.int64)
    tb = arr[:, 0] * frame_length + offsets[uc] if n else np.zeros(0)
    du = (arr[:, 1] - arr[:, 0]) * frame_length if n else np.zeros(0)
    return Detections(term_ids=list(kw_map), file_ids=list(fmap), term=np.asarray(kw_codes, np.int32),
                      file=fremap[uc] if n else np.zeros(0, np.int32), chan=np.ones(n, np.int32),
                      tbeg=tb, dur=du, score=arr[:, 2].copy(), decision=np.full(n, UNSET, np.int8),
                      fmt="kaldi", blocks=list(kw_map), path=path)
