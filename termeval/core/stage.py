"""The Stage protocol every scoring step implements (run by termeval/run/driver.py).

A step's stage is a class deriving from `Stage`:

  name                  the benchmark's name: the name of its logs (<exp>/log/<name>.log,
                        <name>.J.log, <name>.merge.log), shards (<exp>/jobs/<name>.J.npz)
  outputs               what the run owns under the exp dir (default scores, details, units;
                        also files inside them, "scores/std", or glob patterns): each is replaced
                        whole by a successful run, left as it was by a failed one
  updates               owned files the run updates rather than replaces ("scores/scores.json",
                        shared by stages): copied into `out` before report
  prepare(opts)         what the jobs share, done once before they start (default: nothing)
  load(opts)            read and check the inputs (InputError on bad input) -> a context
  identity(ctx)         what every shard must agree on (input sizes, options): JSON-able
  costs(ctx)            cost of each unit (class, term, query, utterance, fold): 1-D array
  compute(ctx, lo, hi)  statistics of the units lo..hi-1 -> Shard (additive over shards; an
                        empty range gives an empty shard)
  merge(ctx, shards)    the shards (in unit order) -> merged statistics
  report(ctx, merged, out) -> Report: write the result files into the fresh directory `out`
                        (laid out as an exp dir) and return the scores, the summary lines
                        printed on stdout and the warnings
  view(ctx, merged, report) -> View | None: what <exp>/report.html shows of the run besides its
                        score files, settings and warnings (tables, plots, the timeline of
                        recordings) and what --textgrids writes (termeval/report/; called by the
                        driver after `report`, only when --report or --textgrids asks for it;
                        default None: the score files, settings and warnings alone)

`opts` is the step's frozen Options dataclass (termeval/core/options.py), never argv.
"""
from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np

from termeval.core.errors import InputError

DEFAULT_OUTPUTS = ("scores", "details", "units")
# Set by the driver while a stage runs as job J ("job") or as the merge ("merge"): its `load`
# should then read only what every process needs (what keeps a job's memory to its share,
# issue 24); None: the whole run in one process.
_SHARE: contextvars.ContextVar[str | None] = contextvars.ContextVar("termeval_share", default=None)


def is_share() -> bool:
    """Whether the stage being run computes one job's share or the merge, not the whole in one
    process."""
    return _SHARE.get() is not None


def is_job() -> bool:
    """Whether the stage being run computes one job's share (not the merge)."""
    return _SHARE.get() == "job"


def is_merge() -> bool:
    """Whether the stage being run is the merge of the jobs' shards."""
    return _SHARE.get() == "merge"


@contextlib.contextmanager
def running_as(part: str | None) -> Iterator[None]:
    """The driver's side of is_share: the block runs a "job", the "merge" or (None) the whole."""
    if part not in (None, "job", "merge"):
        raise ValueError(part)
    token = _SHARE.set(part)
    try:
        yield
    finally:
        _SHARE.reset(token)


@dataclass
class Shard:
    """Statistics of one range of units: JSON-able `meta` and named numpy `arrays`."""
    meta: dict = field(default_factory=dict)
    arrays: dict[str, np.ndarray] = field(default_factory=dict)


@dataclass(frozen=True)
class Report:
    """What a stage's report gives back: the scores mapping (scores/scores.json), the summary
    printed on stdout at the end, and the warnings (printed on stderr as `<step>: warning: ...`
    when they arise, and kept under "warnings" in scores.json by the stage)."""
    scores: Mapping[str, Any]
    summary: str = ""
    warnings: tuple[str, ...] = ()


@dataclass
class View:
    """What report.html shows of a stage's run and what --textgrids writes, as plain data the
    stage already has (termeval/report/ draws and writes it; docs/architecture.md, the hook).

    title      the section's heading (default: the stage's name)
    tables     (title, path relative to the exp dir[, rows shown]) of details tables the run wrote
               (TSV with a header line, or a `# name ...` header); shown sortable and filterable,
               bounded (the first 1000 rows, or `rows shown`)
    plots      plot specs drawn as inline SVG from those tables, or from data given inline (bars,
               a heatmap: termeval/report/page.py _plot)
    timeline   recordings(limit): the first `limit` recordings (None: all) as
               termeval.report.timeline.Recording (tiers of intervals or points), or None
    textgrids  where --textgrids writes `<recording>.TextGrid`, relative to the exp dir (an
               output the stage owns)
    settings   the settings shown: a mapping, or Options whose fields are shown (default: the
               step's options, those that change no number left out)
    notes      lines shown under the heading (how to read the timeline, what was cut)"""
    title: str = ""
    tables: Sequence[tuple[str, str]] = ()
    plots: Sequence[Mapping[str, Any]] = ()
    timeline: Callable[[int | None], Iterable[Any]] | None = None
    textgrids: str = "details/textgrids"
    settings: Mapping[str, Any] | None = None
    notes: Sequence[str] = ()


def balanced_ranges(cost: np.ndarray, nj: int) -> list[tuple[int, int]]:
    """nj contiguous ranges [lo, hi) of the units 0..len(cost)-1 with about equal total cost
    (some ranges are empty when there are fewer units than jobs)."""
    if nj < 1:
        raise InputError(f"--nj must be >= 1, got {nj}")
    cost = np.asarray(cost, np.float64)
    n = len(cost)
    if n == 0:
        return [(0, 0)] * nj
    cum = np.cumsum(cost + 1.0)  # + 1: a unit costs something anyway
    cuts = np.searchsorted(cum, cum[-1] * np.arange(1, nj) / nj, side="left") + 1
    bounds = np.maximum.accumulate(np.r_[0, np.minimum(cuts, n), n].astype(np.int64))
    return [(int(lo), int(hi)) for lo, hi in zip(bounds[:-1], bounds[1:])]


class Stage:
    """Base of every stage: the protocol with its defaults (see the module docstring)."""
    name: str = ""
    outputs: Sequence[str] = DEFAULT_OUTPUTS
    updates: Sequence[str] = ()

    def prepare(self, opts: Any) -> None:
        """What the jobs share, done once before they start; by default nothing."""

    def load(self, opts: Any) -> Any:
        raise NotImplementedError

    def identity(self, ctx: Any) -> dict:
        return {}

    def costs(self, ctx: Any) -> np.ndarray:
        return np.ones(1)

    def compute(self, ctx: Any, lo: int, hi: int) -> Shard:
        raise NotImplementedError

    def merge(self, ctx: Any, shards: list[Shard]) -> Any:
        return shards

    def report(self, ctx: Any, merged: Any, out: str) -> Report:
        raise NotImplementedError

    def view(self, ctx: Any, merged: Any, report: Report) -> View | None:
        """report.html's tables, plots and timeline of this run (None: the scores alone)."""
        return None
