"""The one warning helper: `warn(step, message, sink)` prints `<step>: warning: <message>` on
stderr and appends the message to `sink` (the list a stage keeps under "warnings" in
scores.json: termeval/core/scores.py write_scores(..., warnings=...)). `note(step, message)`
prints `<step>: note: <message>`: something about the installation, not about the scores (plots
skipped without matplotlib), so it is never kept in scores.json, whose bytes stay the same."""
from __future__ import annotations

import sys
from typing import IO, MutableSequence

from termeval.core.face import step_name  # noqa: F401  (the name heading a step's lines)


def warn(step: str | None, message: str, sink: MutableSequence[str] | None = None,
         stream: IO | None = None) -> None:
    """Print `<step>: warning: <message>` on stderr (step None: the program's name) and append
    `message` to `sink` when given."""
    print(f"{step or step_name()}: warning: {message}", file=stream or sys.stderr)
    if sink is not None:
        sink.append(message)


def note(step: str | None, message: str, stream: IO | None = None) -> None:
    """Print `<step>: note: <message>` on stderr (step None: the program's name); not a warning
    about the inputs or the scores, so nothing is recorded."""
    print(f"{step or step_name()}: note: {message}", file=stream or sys.stderr)
