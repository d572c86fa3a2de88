"""The named boundary scorers of `--compat NAME` (steps/score_segmentation.sh), declared: one
`Scorer` record each (what it reproduces, which keys it writes, its usual tolerance and frame
shift) naming its module termeval.segmentation.scorers.<module>, which holds its rules (the
contract of a scorer module: termeval/segmentation/scorers/__init__.py). The registry imports
no scorer (the options take their `--compat` choices from it at --help time); `Scorer.impl()`
loads the module when scoring. It sits below the scorers: they import the segmentation
modules, the segmentation modules reach a scorer only through its record.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType

BOUNDARY_ALL = ("precision", "recall", "fscore", "os", "rvalue")
SCORERS_PACKAGE = "termeval.segmentation.scorers"


@dataclass(frozen=True)
class Scorer:
    name: str                       # the --compat value
    module: str                     # termeval.segmentation.scorers.<module>
    source: str                     # the code it reproduces
    users: str                      # who reports with it
    boundary: tuple[str, ...] = BOUNDARY_ALL    # boundary metrics it defines
    token: bool = False             # whether it scores tokens
    tolerance: dict[str, float] = field(default_factory=lambda: {"word": 0.02, "phone": 0.02, "syllable": 0.05})
    frame_shift: float | None = None    # seconds; None: the scorer works on times, not frames
    # how the segmentation is read (termeval.segmentation.inputs compat): `ends`, predicted ends
    # past the utterance end kept as the scripts keep them (a prediction a few frames longer than
    # the gold counts its boundaries there; cutting them would put one on the gold's last one)
    reading: str = "ends"
    syllable_clusters: bool = False     # at --level syllable, SD-HuBERT's syllable_purity, cluster_purity, snmi

    def impl(self) -> ModuleType:
        """The module with score(), definitions() and optionally values()."""
        return importlib.import_module(f"{SCORERS_PACKAGE}.{self.module}")  # why: numpy-heavy, not at --help time


SCORERS: dict[str, Scorer] = {s.name: s for s in (
    Scorer("harwath", "harwath",
           "jasonppy/syllable-discovery unit_analysis_boundary_only.py (word, phone); "
           "cheoljun95/sdhubert utils/syllable.py (syllable)",
           "Peng & Harwath VG-HuBERT (2022, 2023), SD-HuBERT (Cho et al. 2024), Sylber, SylReg",
           syllable_clusters=True),
    Scorer("rasanen", "rasanen", "CoML discophon 0.2.0 discophon/evaluate/segmentation.py",
           "Räsänen et al. (2009) search regions; discophon phoneme discovery benchmark (2025)"),
    Scorer("unsupseg", "unsupseg", "felixkreuk/UnsupSeg utils.py PrecisionRecallMetric",
           "Kreuk et al. (2020) self-supervised phoneme segmentation and its followers (phones)",
           boundary=("precision", "recall", "fscore", "rvalue"),
           tolerance={"word": 0.02, "phone": 0.02, "syllable": 0.02}, frame_shift=0.01),
    Scorer("malan-strict", "malan", "s-malan/evaluation boundary_word.py (strict)",
           "Malan, van Niekerk & Kamper (2024-2025) word segmentation (ES-KMeans+, prominence-based)",
           token=True, tolerance={"word": 0.02, "phone": 0.02, "syllable": 0.02}, frame_shift=0.02),
    Scorer("malan-lenient", "malan", "s-malan/evaluation boundary_word.py (--strict False)",
           "lenient hit counting of Peng & Harwath as s-malan/evaluation implements it",
           token=True, tolerance={"word": 0.02, "phone": 0.02, "syllable": 0.02}, frame_shift=0.02),
)}

# not scorers: the default definitions, vqwordseg's (termeval.segmentation.compat), and every
# scorer side by side
OTHER_MODES = ("none", "vqwordseg")
ALL = "all"


def compat_choices() -> tuple[str, ...]:
    """The values of --compat."""
    return OTHER_MODES + tuple(SCORERS) + (ALL,)


def get(name: str) -> Scorer | None:
    """The named scorer, None for the default and vqwordseg modes."""
    return SCORERS.get(name)
