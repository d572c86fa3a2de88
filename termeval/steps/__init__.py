"""Every step of the recipe, declared once (termeval/core/declaration.py Step): one record each,
from which its entry point (termeval/bin/<name>.py), its `termeval <step>` command, its Python
API function (termeval/api.py), its job plan and its RESULTS.md tables follow; its shell step's
defaults and header are checked against it (tests/recipe/test_declared_faces.py).

A new step is one record in one of these modules (and its kernel); a new benchmark of an
existing step is one record of its package (termeval/tde/benchmarks.py, the tables of
termeval/<package>/options.py).
"""
from __future__ import annotations

from termeval.core.declaration import Step, by_name
from termeval.steps.gold import EXPORT_ZR, PREPARE_GOLD, VALIDATE_ALIGNMENT_DIR
from termeval.steps.results import COMPARE_SYSTEMS, SUMMARIZE_SCORES
from termeval.steps.segmentation import (CONVERT_SEGMENTS, EXPORT_TEXT, SCORE_SEGMENTATION, SCORE_TEXT_SEGMENTATION,
                                         TEXT_TO_TIMES)
from termeval.steps.std import KWSEVAL, MEASURE_RESOURCES, PREPARE_KWS, SCORE_QUESST, SCORE_RESOURCES, SCORE_STD
from termeval.steps.tde import PREPARE_CLASSES, SCORE_TDE
from termeval.steps.units import SCORE_DISCOPHON, SCORE_UNITS
from termeval.steps.zrc import SCORE_ZRC_SUBMISSION

STEPS: dict[str, Step] = dict(sorted(by_name((
    SCORE_TDE, PREPARE_CLASSES, SCORE_STD, KWSEVAL, SCORE_QUESST, SCORE_RESOURCES, MEASURE_RESOURCES, PREPARE_KWS,
    SCORE_SEGMENTATION, CONVERT_SEGMENTS, SCORE_TEXT_SEGMENTATION, EXPORT_TEXT, TEXT_TO_TIMES, PREPARE_GOLD,
    VALIDATE_ALIGNMENT_DIR, EXPORT_ZR, SUMMARIZE_SCORES, COMPARE_SYSTEMS, SCORE_ZRC_SUBMISSION, SCORE_UNITS,
    SCORE_DISCOPHON)).items()))


def step(name: str) -> Step:
    """The step named `name` (score_tde) or `score-tde` (its command)."""
    return STEPS[name.replace("-", "_")]


def commands() -> dict[str, str]:
    """{command: one-line summary} of every step, for `termeval --help`."""
    return {s.command: s.summary for s in STEPS.values()}
