"""Token counts per utterance: a predicted segment is a hit when its start and its end both lie
within the tolerance of the start and end of a reference token not used by another hit
(maximum one-to-one matching, termeval.segmentation.matching)."""
from __future__ import annotations

import numpy as np

from termeval.segmentation.matching import interval_ranges, keys, max_matching


def token_counts(ref_utt: np.ndarray, ref_start: np.ndarray, ref_end: np.ndarray,
                 pred_utt: np.ndarray, pred_start: np.ndarray, pred_end: np.ndarray,
                 tol: int, n_utt: int) -> np.ndarray:
    """Per utterance [n_ref, n_pred, hits]. Reference tokens must be sorted and disjoint within
    an utterance (their starts and ends are then both sorted); integer units."""
    rs, re = keys(ref_utt, ref_start), keys(ref_utt, ref_end)
    if len(rs) > 1 and (np.any(np.diff(rs) < 0) or np.any(np.diff(re) < 0)):
        raise ValueError("reference tokens must be sorted and disjoint")
    lo, hi = interval_ranges(rs, re, keys(pred_utt, pred_start), keys(pred_utt, pred_end), tol)
    hit = max_matching(lo, hi)
    return np.stack((np.bincount(ref_utt, minlength=n_utt),
                     np.bincount(pred_utt, minlength=n_utt),
                     np.bincount(pred_utt[hit], minlength=n_utt)), axis=1).astype(np.int64)
