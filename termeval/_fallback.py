"""FALLBACK until h20b's steps (score_std, score_quesst, score_segmentation, score_resources)
are on main with stage_of(): delete this module and its call site (termeval.api.run_step)
then.

A step without stage_of() is run through its main() into a temporary exp dir (or the given
one) and the scores.json it wrote is read back.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from typing import Any


def run_in_process(mod: Any, argv: list[str], exp: str | None) -> dict:
    """mod.main(argv) into `exp` (or a temporary exp dir replacing the last argument); the
    scores.json it wrote (its stdout dropped; stderr: api._quiet)."""
    with tempfile.TemporaryDirectory(prefix="termeval-exp-") as tmp:
        d = exp if exp is not None else tmp
        with contextlib.redirect_stdout(io.StringIO()):
            mod.main(argv[:-1] + [d])
        with open(os.path.join(d, "scores", "scores.json"), encoding="utf-8") as f:
            return json.load(f)
