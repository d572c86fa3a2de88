"""The detections of a system as parallel arrays (what every detection reader returns:
std/detections.py for STDLIST/KWSLIST, std/kaldi_results.py for Kaldi text)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import numpy as np

YES, NO, UNSET = 1, 0, -1


@dataclass
class Detections:
    """Detections as parallel arrays, in input order.

    term: int32 codes into `term_ids`; file: int32 codes into `file_ids` (normalised file
    ids); chan: int32; tbeg, dur, score: float64 (seconds, score larger = more likely);
    decision: int8 (1 YES, 0 NO, -1 not given, e.g. Kaldi text); blocks: the term ids that
    had a detected_kwlist/detected_termlist block, in file order (possibly empty blocks);
    min_score/max_score: the KWSLIST header values if given; fmt: 'stdlist', 'kwslist' or
    'kaldi'.
    """
    term_ids: list[str]
    file_ids: list[str]
    term: np.ndarray
    file: np.ndarray
    chan: np.ndarray
    tbeg: np.ndarray
    dur: np.ndarray
    score: np.ndarray
    decision: np.ndarray
    fmt: str
    blocks: list[str] = field(default_factory=list)
    min_score: Optional[float] = None
    max_score: Optional[float] = None
    system_id: str = ""
    path: str = ""

    def __len__(self) -> int:
        return len(self.term)

    @property
    def end(self) -> np.ndarray:
        return self.tbeg + self.dur

    @property
    def mid(self) -> np.ndarray:
        return self.tbeg + self.dur / 2
