"""The --compat modes of score_std whose scoring lives in a sub-folder, named here and loaded
when scoring: kaldi (termeval/std/kaldi: compute-atwv and the files of Kaldi's
local/kws/score.sh). The stage reaches a sub-folder only through this table (as the TDE
benchmarks and the segmentation scorers are reached through their records), so std/kaldi
builds on std's readers and kernels without a cycle, and the F4DE runs never load it."""
from __future__ import annotations

import importlib
from types import ModuleType

COMPAT_MODULES = {"kaldi": "termeval.std.kaldi.report"}


def compat_module(mode: str) -> ModuleType:
    """The module scoring --compat `mode` (check, compute, write_into)."""
    return importlib.import_module(COMPAT_MODULES[mode])  # why: loaded only for its mode
