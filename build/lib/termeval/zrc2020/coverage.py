"""Coverage (tdev2, tde-spec §4.2): distinct covered phone tokens / all phone tokens,
both without SIL and SPN. Units are phone tokens of the whole corpus, not seconds."""
from __future__ import annotations

import numpy as np

from termeval.zrc2020.transcribe import NON_SPEECH_COVERAGE, Phones


def covered_mask(n_phones: int, k0: np.ndarray, k1: np.ndarray) -> np.ndarray:
    """Phones inside at least one kept range [k0, k1) (ranges may repeat or overlap)."""
    d = np.bincount(k0, minlength=n_phones + 1)[:n_phones + 1] - np.bincount(k1, minlength=n_phones + 1)[:n_phones + 1]
    return np.cumsum(d)[:n_phones] > 0


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
