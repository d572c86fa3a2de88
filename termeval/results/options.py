"""The options of the results summary (utils/summarize_scores.sh, termeval.summarize_scores,
termeval.results_table, termeval.load_results)."""
from __future__ import annotations

import os
from dataclasses import dataclass

from termeval.core.options import OptionError, StepOptions, int_between, option, or_none, path_value, text_value
from termeval.results.declared import is_percent

FORMATS = ("md", "csv", "tsv", "latex", "json", "html")


def _optional_path(value: object, text: str | None = None) -> None:
    if value is not None:
        path_value(value, text)


def _paths(value: object, text: str | None = None) -> None:
    if not isinstance(value, tuple):
        raise OptionError(f"expected a tuple of paths, got {type(value).__name__}")
    for x in value:
        path_value(x)


def _metric_list(value: object, text: str | None = None) -> None:
    if value is None:
        return
    text_value(value, text)
    if not [x for x in str(value).replace(" ", ",").split(",") if x]:
        raise OptionError(f"expected comma-separated metric names, got '{value}'")


@dataclass(frozen=True, kw_only=True)
class SummarizeOptions(StepOptions):
    """Options of summarize_scores. `out` None: RESULTS.md for --format md, stdout for the
    other formats (the Python API: nothing written)."""
    out: str | None = option(None, "the file to write (default: RESULTS.md in the current directory with "
                             "--format md, RESULTS.html with --format html, stdout with the other formats)",
                             aliases=("--output",), role="output", check=_optional_path)
    format: str = option("md", "md (RESULTS.md), csv or tsv (pandas: one row per table and system, one column "
                         "per metric, intervals as <metric>_lo/<metric>_hi), latex (booktabs tabulars), "
                         "json (table -> system -> metrics), html (one page: best values marked, intervals "
                         "drawn, each system linking to its report.html)", choices=FORMATS)
    percent: bool = option(False, "true: F-scores, precisions, recalls, coverage and NED (and their _std) "
                           "times 100; counts, TWV, Cnxe and every other metric as they are")
    digits: int | None = option(None, "decimals of every value (default in md and latex: 4, 1 for a value in "
                                "percent; csv, tsv and json keep every digit)", check=or_none(int_between(0, 12)))
    metrics: str | None = option(None, "comma-separated metrics to show, in this order, in every table that has "
                                 "them (any metric of scores.json; default: each table's headline metrics)",
                                 check=_metric_list)
    bold_best: bool = option(False, "true: the best value of each column in bold (latex, md; the lowest where "
                             "the benchmark declares lower is better: NED, Cnxe, the costs, PER; counts and _std never)")
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

    def metric_list(self) -> list[str] | None:
        """--metrics as a list (None: the headline metrics)."""
        if not self.metrics:
            return None
        return list(dict.fromkeys(x for x in self.metrics.replace(" ", ",").split(",") if x))

    def places(self, metric: str) -> int:
        """Decimals of a metric's values in md and latex: --digits, else 1 for a value in percent, else 4."""
        if self.digits is not None:
            return self.digits
        return 1 if self.percent and is_percent(metric) else 4
