"""The options of the paired comparison of scored systems (steps/compare_systems.sh,
termeval.compare_systems)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from termeval.core.options import (
    MAX_RESAMPLES, BootstrapOptions, OptionError, ReportOptions, option, path_value, resamples)


def _paths(value: Any, text: str | None = None) -> None:
    if not isinstance(value, tuple):
        raise OptionError(f"expected a sequence of paths, got {type(value).__name__}")
    for x in value:
        path_value(x)


def _out_dir(value: Any, text: str | None = None) -> None:
    if value is not None:
        path_value(value, text)


@dataclass(frozen=True, kw_only=True)
class CompareOptions(BootstrapOptions, ReportOptions):
    """Options of compare_systems: every system against the first (docs/uncertainty.md)."""
    TEXTGRIDS = False     # a comparison has no recordings (core/options.py ReportOptions)
    NO_TEXTGRIDS = "a comparison has no recordings to write as TextGrids"
    bootstrap: int = option(1000, f"resamples of the shared units for confidence intervals and p-values "
                                  f"(at least 1; at most {MAX_RESAMPLES})", check=resamples)
    test: str = option("bootstrap", "p-value: paired bootstrap or approximate randomization",
                       choices=("bootstrap", "permutation"))
    plot: str = option("true", "forest plot", choices=("true", "false"))
    systems: tuple = option((), "the scored exp dirs; the first is the baseline", role="inputs", cli=False,
                            check=_paths)
    out_dir: str | None = option(None, "gets scores/compare, scores/compare.json, RESULTS.compare.md, the "
                                       "forest plot and report.html", role="output", cli=False, check=_out_dir)
    # the command line's `<exp-dir-A> <exp-dir-B> [...] <out-dir>` (termeval.bootstrap.compare.from_command_line)
    dirs: tuple = option((), "the scored exp dirs (the first is the baseline), then the output dir",
                         positional=True, many=True, metavar="dir", check=_paths)

    def systems_and_out(self) -> tuple[list[str], str | None]:
        return [os.fspath(x) for x in self.systems], None if self.out_dir is None else os.fspath(self.out_dir)
