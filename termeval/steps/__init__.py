"""Every step of the recipe, declared once (termeval/core/declaration.py Step): one record each,
from which its entry point (termeval/bin/<name>.py), its `termeval <step>` command, its Python
API function (termeval/api.py), its job plan and its RESULTS.md tables follow; its shell step's
defaults and header are checked against it (tests/recipe/test_declared_faces.py).

A new step is one record in one of these modules (and its kernel); a new benchmark of an
existing step is one record of its package (termeval/tde/benchmarks.py, the tables of
termeval/<package>/options.py).
"""
from __future__ import annotations

import importlib

from termeval.core.declaration import Step, by_name

# each record's module: a step's entry point imports its own record only (the other steps'
# options and tables cost about 0.15 CPU-s of imports at every start of a step's process)
_MODULE = {
    "SCORE_TDE": "tde", "PREPARE_CLASSES": "tde",
    "SCORE_STD": "std", "KWSEVAL": "std", "SCORE_QUESST": "std", "SCORE_RESOURCES": "std",
    "MEASURE_RESOURCES": "std", "PREPARE_KWS": "std",
    "SCORE_SEGMENTATION": "segmentation", "CONVERT_SEGMENTS": "segmentation",
    "SCORE_TEXT_SEGMENTATION": "segmentation", "EXPORT_TEXT": "segmentation", "TEXT_TO_TIMES": "segmentation",
    "PREPARE_GOLD": "gold", "VALIDATE_ALIGNMENT_DIR": "gold", "EXPORT_ZR": "gold",
    "SUMMARIZE_SCORES": "results", "COMPARE_SYSTEMS": "results",
    "SCORE_ZRC_SUBMISSION": "zrc", "SCORE_UNITS": "units", "SCORE_DISCOPHON": "units",
}
_steps: dict[str, Step] = {}


def __getattr__(name: str):
    """A step's record (SCORE_TDE, ...) from its own module, or STEPS: every record by name."""
    if name in _MODULE:
        return getattr(importlib.import_module(f"termeval.steps.{_MODULE[name]}"), name)
    if name == "STEPS":
        if not _steps:
            _steps.update(sorted(by_name(tuple(__getattr__(n) for n in _MODULE)).items()))
        return _steps
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def step(name: str) -> Step:
    """The step named `name` (score_tde) or `score-tde` (its command)."""
    return __getattr__("STEPS")[name.replace("-", "_")]


def commands() -> dict[str, str]:
    """{command: one-line summary} of every step, for `termeval --help`."""
    return {s.command: s.summary for s in __getattr__("STEPS").values()}
