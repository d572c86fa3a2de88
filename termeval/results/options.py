"""The options of the results summary (utils/summarize_scores.sh, termeval.summarize_scores)."""
from __future__ import annotations

import os
from dataclasses import dataclass

from termeval.core.options import OptionError, StepOptions, option, path_value


def _optional_path(value: object, text: str | None = None) -> None:
    if value is not None:
        path_value(value, text)


def _paths(value: object, text: str | None = None) -> None:
    if not isinstance(value, tuple):
        raise OptionError(f"expected a tuple of paths, got {type(value).__name__}")
    for x in value:
        path_value(x)


@dataclass(frozen=True, kw_only=True)
class SummarizeOptions(StepOptions):
    """Options of summarize_scores. `out` None (the Python API's default): nothing written."""
    out: str | None = option("RESULTS.md", "the Markdown file to write (in the current directory unless a path)",
                             aliases=("--output",), role="output", check=_optional_path)
    exp_root: str | None = option(None, "one exp root (the option before the positional exp roots)",
                                  hidden=True, check=_optional_path)
    exp_roots: tuple = option((), "directories to search (default: exp)", positional=True, many="*",
                              role="inputs", check=_paths, metavar="exp_roots")

    @property
    def roots(self) -> list[str]:
        """The directories searched: the exp roots given, else --exp-root, else exp."""
        if self.exp_roots:
            return [os.fspath(x) for x in self.exp_roots]
        return [os.fspath(self.exp_root)] if self.exp_root else ["exp"]
