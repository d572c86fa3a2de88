"""Coverage (tdev2, tde-spec §4.2): distinct covered phone tokens / all phone tokens,
both without SIL and SPN. Units are phone tokens of the whole corpus, not seconds."""
from __future__ import annotations

import numpy as np

from termeval.tde.zrc2020.transcribe import NON_SPEECH_COVERAGE, Phones


def covered_mask(n_phones: int, k0: np.ndarray, k1: np.ndarray) -> np.ndarray:
    """Phones inside at least one kept range [k0, k1) (ranges may repeat or overlap).
    The ranges are merged into disjoint runs first, so the only per-phone arrays are two of
    one byte (a difference array of per-phone counts would take 8 bytes a phone, twice)."""
    k0, k1 = np.asarray(k0, np.int64), np.asarray(k1, np.int64)
    keep = k1 > k0
    if not keep.all():
        k0, k1 = k0[keep], k1[keep]
    d = np.zeros(n_phones + 1, dtype=np.int8)
    if len(k0):
        order = np.argsort(k0, kind="stable")
        a, b = k0[order], k1[order]
        del order
        reach = np.maximum.accumulate(b)
        # a run starts where a range begins past the reach of every earlier one
        start = np.r_[True, a[1:] > reach[:-1]]
        end = np.r_[start[1:], True]        # the last range of each run
        d[a[start]] = 1
        d[reach[end]] = -1                  # a run ends at its reach (runs do not touch)
    return np.cumsum(d[:n_phones], dtype=np.int8) > 0


def speech_mask(ph: Phones) -> np.ndarray:
    """Phones that count for coverage (not SIL or SPN)."""
    speech = np.ones(len(ph), dtype=bool)
    for name in NON_SPEECH_COVERAGE:
        if name in ph.labels:
            speech &= ph.label != ph.labels.index(name)
    return speech


def coverage(ph: Phones, k0: np.ndarray, k1: np.ndarray) -> tuple[float | None, int, int]:
    """(coverage, covered phones, phones); None when the corpus has no speech phone."""
    speech = speech_mask(ph)
    covered = int((covered_mask(len(ph), k0, k1) & speech).sum())
    total = int(speech.sum())
    return (covered / total if total else None), covered, total
