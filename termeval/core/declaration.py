"""What a step and a benchmark are, declared once: every face of a step follows from its record.

A **Step** is one record per step of the recipe (termeval/steps.py lists them all): its name
(`score_tde`: termeval/bin/score_tde.py, steps/score_tde.sh, `termeval score-tde`,
`termeval.score_tde`), its Options dataclass (termeval/core/options.py: the options, their
defaults, checks and one-line docs), what runs it (a scoring `stage` run by the one driver
and the one N-job plan, or a one-shot `task`), its one-line summary and its --help text.
The entry point's parser and main, the API function's signature and docstring, the `termeval`
command's list and the job plan are built from it (termeval/run/cli.py, termeval/run/plan.py,
termeval/api.py); the shell step's defaults and header are checked against it
(tests/recipe/test_declared_faces.py).

A **Table** is a benchmark's table of RESULTS.md and its metrics: per **Measure** whether it is
a headline column, whether lower is better (--bold-best) and whether --percent shows it in
percent. termeval/results reads them; a new benchmark or measure is one record plus its kernel.

Records are plain data: a stage or task is named as "module:attribute" and imported only when
the step runs, so `--help`, `termeval --help` and `import termeval` load no numpy.
"""
from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence


# ----------------------------------------------------------------------------- metrics

@dataclass(frozen=True)
class Measure:
    """A metric as the result tables show it."""
    name: str
    headline: bool = False          # a column of the benchmark's RESULTS.md table
    lower_is_better: bool = False   # --bold-best marks the lowest value (NED, Cnxe, costs)
    percent: bool = False           # --percent shows it times 100 (F-scores, precisions, ...)


def measures(names: Iterable[str], **flags: bool) -> tuple[Measure, ...]:
    """One Measure per name, all with the same flags."""
    return tuple(Measure(n, **flags) for n in names)


def prf(prefix: str, headline: Sequence[str] = (), suffixes: Sequence[str] = ("",)) -> tuple[Measure, ...]:
    """`<prefix>_precision`, `_recall`, `_fscore` (each with `suffixes`, e.g. "_std"): fractions,
    shown in percent; `headline` names the ones (without suffix) that are columns."""
    out = []
    for m in ("precision", "recall", "fscore"):
        for s in suffixes:
            name = f"{prefix}_{m}"
            out.append(Measure(name + s, headline=s == "" and name in headline, percent=s in ("", "_std")))
    return tuple(out)


@dataclass(frozen=True)
class Table:
    """A table of RESULTS.md (one per benchmark family: `family` is the stage or benchmark
    name the scores.json stages carry) and the metrics it knows. `headline` lists its columns
    in order (at most ten are shown); a metric not declared is shown plain (not in percent,
    higher is better)."""
    family: str
    measures: tuple[Measure, ...]
    headline: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        names = [m.name for m in self.measures]
        if len(set(names)) != len(names):
            raise ValueError(f"table {self.family}: a measure declared twice")
        unknown = [h for h in self.headline if h not in names]
        if unknown:
            raise ValueError(f"table {self.family}: headline {unknown} not declared")

    def measure(self, name: str) -> Measure | None:
        return self._index().get(name)

    def _index(self) -> dict[str, Measure]:
        index = self.__dict__.get("_by_name")
        if index is None:
            index = {m.name: m for m in self.measures}
            object.__setattr__(self, "_by_name", index)
        return index

    def columns(self) -> list[str]:
        """The headline columns, in order: `headline`, else the measures flagged headline."""
        return list(self.headline) or [m.name for m in self.measures if m.headline]


def table(family: str, groups: Iterable[Iterable[Measure]], headline: Sequence[str] = ()) -> Table:
    """A Table of the measures of `groups` (flattened, in order)."""
    return Table(family, tuple(m for g in groups for m in g), tuple(headline))


# ----------------------------------------------------------------------------- steps

def load(ref: str) -> Any:
    """The object a "module:attribute" reference names (imported now)."""
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


@dataclass(frozen=True)
class Step:
    """One step of the recipe: every face of it follows from this record (module docstring).

    name        score_tde: bin/score_tde.py, the shell script `shell`, `termeval score-tde`,
                `termeval.score_tde`
    options     its Options dataclass (termeval/core/options.py)
    summary     one line: `termeval --help`, the first line of the API function's doc
    description the --help text after the usage line (what it reads and writes; no usage line:
                each face prints its own)
    stage       "module:factory": factory(opts) -> the Stage the driver runs (scoring steps)
    stage_name  the name of its logs and shards: a fixed name, or "module:function" of the
                Options (it depends on them: score_tde's benchmark, score_segmentation's level)
    task        "module:function": function(opts, run_task) -> result dict, a one-shot step
                (preparations, exports, summaries) writing through the driver's run_task
    show        "module:function": function(opts, result) prints what the command line shows
                after a task (the API returns the result instead); returns the exit status
                (None: 0)
    from_command_line  "module:function": opts -> opts, what the command line means that
                the API says otherwise (summarize_scores writes RESULTS.md by default)
    rest        the Options field that takes what follows the first `--` (measure_resources'
                command)
    jobs        what --nj splits (classes, terms, queries, utterances); "" : no --nj
    shell       its shell face, steps/<name>.sh or utils/<name>.sh (None: none)
    tables      the RESULTS.md tables it writes (termeval/results)
    api         whether termeval.<name> exists (the API function in termeval/api.py)
    own_cli     its entry point parses its own command line (KWSEval's Getopt::Long rules):
                neither stage nor task, the options are those of the engine it drives
    """
    name: str
    options: type
    summary: str
    description: str = ""
    stage: str | None = None
    stage_name: str = ""
    task: str | None = None
    show: str | None = None
    from_command_line: str | None = None
    rest: str | None = None
    jobs: str = ""
    shell: str | None = None
    tables: tuple[Table, ...] = ()
    api: bool = True
    own_cli: bool = False

    def __post_init__(self) -> None:
        if sum(x for x in (self.stage is not None, self.task is not None, self.own_cli)) != 1:
            raise ValueError(f"step {self.name}: exactly one of stage, task and own_cli")

    @property
    def command(self) -> str:
        """Its name under the `termeval` command."""
        return self.name.replace("_", "-")

    @property
    def scoring(self) -> bool:
        """A scoring step: a stage run by the driver (jobs, merge, scores.json)."""
        return self.stage is not None

    def stage_of(self, opts: Any) -> Any:
        """The Stage of these options (its module imported now)."""
        return load(self.stage)(opts)

    def name_of(self, opts: Any) -> str:
        """The stage's name for these options (logs <name>.log, shards jobs/<name>.J.npz),
        without building the stage (no numpy)."""
        if ":" in self.stage_name:
            return load(self.stage_name)(opts)
        return self.stage_name or self.name

    def fields(self) -> list[dataclasses.Field]:
        return list(dataclasses.fields(self.options))


def option_default(step: Step, name: str) -> Any:
    """The declared default of one option of a step."""
    for f in step.fields():
        if f.name == name:
            return f.default
    raise KeyError(name)


def by_name(steps: Iterable[Step]) -> Mapping[str, Step]:
    """{name: step}; a name declared twice is an error (a face would be ambiguous)."""
    out: dict[str, Step] = {}
    for s in steps:
        if s.name in out:
            raise ValueError(f"step {s.name} declared twice")
        out[s.name] = s
    return out
