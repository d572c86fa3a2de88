"""--compat harwath: the boundary scorer of jasonppy/syllable-discovery
`unit_analysis_boundary_only.py` (words, phones) and of its SD-HuBERT variant,
cheoljun95/sdhubert `utils/syllable.py` `BoundaryDetectionEvaluator` (syllables).

Per utterance, both sides are sorted distinct float times (np.unique):
  * word/phone: reference = every onset and offset of the gold intervals (the first onset and
    last offset included: the utterance's speech edges count), without the silence intervals
    (the stage hands every named scorer the gold without them, scorers.common.speech_only: the
    script's alignment strings leave silence out, so an utterance starting or ending in SIL
    has no boundary at 0 or at its end); prediction = every onset and offset of the predicted
    segments, as given (ends past the utterance kept). An utterance without gold interval is
    skipped (`if len(raw_ali) == 0: continue`): its predictions count nothing.
  * syllable: reference = every onset and offset of the gold syllables; prediction = the
    segments' onsets only (`np.unique(pred_segments[:, 0])`). Every utterance counts.
Two pointers walk both lists: a pair is a hit when `abs(g - p) <= tol` in float64 on the times
as parsed (so 2.00 - 1.98 = 0.020000000000000018 is a miss at 0.02), otherwise the smaller
one advances. That greedy walk finds a maximum matching (an exchange argument: the smallest
reference and prediction within the tolerance of each other can always be paired), so the
hits are counted with termeval.segmentation.matching.max_matching on ranges found with the
scripts' float test. P = matched predictions / predictions, R = matched references /
references, summed over utterances; F, OS, R-value as usual. No token score. The scripts'
shift search (the systematic shift of the predictions chosen on data: on a tenth of the test
set by R-value in the word script, on validation utterances in SD-HuBERT's) is not part of
the score: the shift is 0 (docs/segmentation.md).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from termeval.segmentation.inputs import Intervals, Utterances
from termeval.segmentation.matching import max_matching
from termeval.segmentation.scorers.common import distinct, float_ranges, per_utt


def score(ref: Intervals, pred: Intervals, utts: Utterances, p: Any, tokens: bool = False) -> dict:
    n = len(utts)
    gu, gt = distinct(np.concatenate((ref.utt, ref.utt)), np.concatenate((ref.onset, ref.offset)))
    if p.level == "syllable":
        scored = np.ones(n, dtype=bool)
        pu, pt = distinct(pred.utt, pred.onset)
    else:
        scored = np.bincount(ref.utt, minlength=n) > 0
        keep = scored[pred.utt]
        pu, pt = distinct(np.concatenate((pred.utt[keep], pred.utt[keep])),
                          np.concatenate((pred.onset[keep], pred.offset[keep])))
    lo, hi = float_ranges(gu, gt, pu, pt, float(p.tolerance))
    hit = max_matching(lo, hi)
    return {"boundary": per_utt(n, gu, pu, pu[hit]), "token": None, "scored": scored}


def definitions(p: Any) -> dict:
    syl = p.level == "syllable"
    return {
        "scorer": "harwath",
        "reproduces": ("cheoljun95/sdhubert utils/syllable.py BoundaryDetectionEvaluator" if syl else
                       "jasonppy/syllable-discovery unit_analysis_boundary_only.py find_boundary_matches"),
        "reference_boundaries": "distinct onsets and offsets of the gold intervals, speech edges included, "
                                "silence intervals left out",
        "predicted_boundaries": ("distinct onsets of the predicted segments" if syl else
                                 "distinct onsets and offsets of the predicted segments"),
        "matching": "two pointers over the sorted lists, hit if abs(g - p) <= tolerance in float64 seconds",
        "tolerance": float(p.tolerance),
        "formulas": "P = hits / #pred, R = hits / #ref (summed over utterances), F = 2PR/(P+R), "
                    "OS = R/P - 1, R-value (Räsänen 2009)",
        "utterances": ("every utterance" if syl else "utterances with a gold interval"),
        "shift": 0.0,
    }
