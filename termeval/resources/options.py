"""The options of the processing-load figures (steps/score_resources.sh, termeval.score_resources)
and of their measurement (utils/measure_resources.sh)."""
from __future__ import annotations

from dataclasses import dataclass

from termeval.core.declaration import Table, measures

from termeval.core.options import (
    OptionError, ReportOptions, StepOptions, boolean, option, or_none, path_value, positive_real, probability, text_value)



@dataclass(frozen=True, kw_only=True)
class ResourcesOptions(ReportOptions):
    """Options of score_resources: ISF, SSF, PMU and PL (docs/std.md §5)."""
    TEXTGRIDS = False     # no recording tiers: --textgrids true is refused (core/options.py ReportOptions)
    lam: float | None = option(None, "default 0.1 (seed)", flag="--lambda", metavar="LAM",
                               check=or_none(probability))
    ssf_unit: str | None = option(None, "default hour (as the seed)", choices=("hour", "second"))
    resources_file: str = option("", "docs/std.md §5.2 key=value file", role="input", check=text_value)
    query_durations: str = option("", "`<example-id> <seconds>` file", role="input", check=text_value)
    query_duration: float | None = option(None, "T_query in seconds", check=or_none(positive_real))
    audio_duration: float | None = option(None, "T_audio in seconds (overrides)", check=or_none(positive_real))
    reference: str = option(doc="a kws dir (ecf.xml or *.ecf.xml), an ECF file, a data dir with reco2dur or a "
                                "reco2dur-style file: T_audio", positional=True, role="input", check=path_value,
                            metavar="reference")
    exp_dir: str | None = option(None, "holds resources/{index,search} (utils/measure_resources.sh); gets "
                                       "scores/resources",
                                 positional=True, role="output", metavar="exp_dir")


def command_words(value: object, text: str | None = None) -> None:
    """A command: a tuple of its words (a path for the program)."""
    if not isinstance(value, tuple) or not all(isinstance(x, str) for x in value):
        raise OptionError(f"expected the command's words, got {value!r}")


@dataclass(frozen=True, kw_only=True)
class MeasureOptions(StepOptions):
    """Options of measure_resources; `command` is what follows the first `--` of the command line
    (termeval/steps: Step.rest), run as it is."""
    interval: float = option(0.1, "seconds between /proc memory samples", check=positive_real)
    append: bool = option(False, "add this run to an existing file of the phase: times add up, peaks "
                                 "take the maximum (several steps of one phase)", check=boolean)
    wait_orphans: bool = option(True, "wait for processes the command left running, so their CPU time counts "
                                      "(false for a command that starts a daemon)", check=boolean)
    exp_dir: str = option(doc="gets resources/<phase>", positional=True, role="output", check=path_value,
                          metavar="exp_dir")
    phase: str = option(doc="index or search", positional=True, choices=("index", "search"), metavar="{index,search}")
    command: tuple = option((), "the command to run and measure (after --)", cli=False, check=command_words)


# ----------------------------------------------------------------------------- result tables

RESOURCES_TABLE = Table("resources", measures((
    "isf", "ssf", "ssf_per_hour", "ssf_per_second", "pmu_index_gb", "pmu_search_gb", "pl", "lambda", "t_audio_s",
    "t_query_s", "index_cpu_s", "index_wall_s", "search_cpu_s", "search_wall_s")), ("isf", "ssf", "pl"))
TABLES = (RESOURCES_TABLE,)
