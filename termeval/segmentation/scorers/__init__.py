"""The named boundary scorers of `--compat NAME` (steps/score_segmentation.sh): the registry.

Each published scorer is one `Scorer` entry below (what it reproduces, which keys it writes,
its usual tolerance and frame shift) and one module termeval.segmentation.scorers.<module>
holding its rules. The registry itself imports nothing heavy (the options take their
`--compat` choices from it at --help time); `Scorer.impl()` loads the module when scoring.

A scorer module defines
  score(ref, pred, utts, p, tokens) -> dict   ref, pred: termeval.segmentation.inputs.Intervals
      of the job's utterances (sorted by utterance, then onset; times in file-relative seconds
      as parsed; ref without its silence intervals, scorers.common.speech_only; pred read with
      the scorer's `reading`), utts: Utterances, p: anything with .tolerance (seconds), .frame_shift
      (seconds), .level (word, phone or syllable); tokens: whether token counts are wanted.
      Returns per utterance (arrays of len(utts) rows): "boundary" int64 [n_ref, n_pred, hits]
      or, for a scorer whose matching is not one-to-one, [n_ref, n_pred, hits, reference hits]
      (recall from the last), "token" [n_ref, n_pred, hits] or None (no token score), "scored"
      bool (an utterance the scorer skips counts nothing and is reported as skipped).
  definitions(p) -> dict                    the rule and its parameters, for scores.json
  values(c) -> dict (optional)              metric name (precision, recall, fscore, os, rvalue)
      -> value from summed counts c = [n_ref, n_pred, hits]; default: P = hits/n_pred,
      R = hits/n_ref, F = 2PR/(P+R), OS = R/P - 1, R-value (termeval.segmentation.rvalue).
  check(p) (optional)                       InputError for settings the scorer cannot take
  warnings(utts, p) -> list[str] (optional) where the run departs from the scorer's code
The counts are additive over utterances (jobs of --nj merge exactly); the stage
(termeval.segmentation.stats, .report) writes `<level>_boundary_<m>` for m in `boundary` and
`<level>_token_{precision,recall,fscore}` when `token`, and at --level syllable, when
`syllable_clusters` and the segments carry labels, SD-HuBERT's cluster metrics
(termeval.segmentation.syllables); nothing else.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType

BOUNDARY_ALL = ("precision", "recall", "fscore", "os", "rvalue")


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
        return importlib.import_module(f"{__name__}.{self.module}")  # why: numpy-heavy, not at --help time


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
