"""Typed options of a step: one frozen dataclass per step, its fields declared with `option()`.

    @dataclass(frozen=True)
    class Options(StepOptions):
        data_dir: str = option(doc="prepared gold data dir", positional=True, role="input")
        nj: int = option(1, "number of jobs", check=positive)
        exp_dir: str = option(doc="experiment dir", positional=True, role="output")

Each field carries its one-line doc, an optional value check, its choices and its role ("input"
or "output" path: the output guard refuses an output that is, holds or lies inside an input).
`validate()` runs every field's check and the step's own combination checks
(`check_combination`), raising InputError with the line a step prints:
`argument --nj: must be a positive integer, got '0'`. The library builds Options directly (the
Python API) and never sees argv; the CLI layer (termeval/run/cli.py) builds a step's argparse
parser from the same fields, so the two cannot drift apart.

Checks take the typed value (and the text it was parsed from, when there is one, so that a
message quotes what the user typed) and raise OptionError with what is wrong.
"""
from __future__ import annotations

import dataclasses
import math
import os
from typing import Any, Callable, Mapping, Sequence

from termeval.core.errors import InputError
from termeval.core.face import argument

MISSING = dataclasses.MISSING
# The largest --bootstrap (resamples or permutations) a step accepts: every replicate of every
# metric is kept until its percentiles are taken (8 bytes each), and the time grows with
# resamples x units; 100,000 gives a 0.95 interval's ends to about +-0.001 of their
# probability, far below any reported difference (docs/uncertainty.md).
MAX_RESAMPLES = 100_000
# The largest --nj of any step (and njobs of a zrc params.yaml): a launcher builds one job per
# unit of N, so 99999999999 would build 1e11 of them (issue 40.8); it is refused with the other
# options, before any job.
MAX_JOBS = 1024


class OptionError(ValueError):
    """What is wrong with one option value (the CLI turns it into argparse's one line)."""


def _shown(value: Any, text: str | None) -> str:
    if text is not None:
        return text
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# ----------------------------------------------------------------------------- value checks

def _real(value: Any, text: str | None, integer: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (integer and not isinstance(value, int)):
        kind = "an integer" if integer else "a number"
        raise OptionError(f"expected {kind}, got '{_shown(value, text)}'")
    if not integer and not math.isfinite(value):
        raise OptionError(f"expected a finite number, got '{_shown(value, text)}'")
    return value


def positive(value: Any, text: str | None = None) -> None:
    """An integer >= 1 (job counts, worker counts)."""
    if _real(value, text, True) < 1:
        raise OptionError(f"must be a positive integer, got '{_shown(value, text)}'")


def job_count(value: Any, text: str | None = None) -> None:
    """--nj: 1 to MAX_JOBS (a launcher builds one job per unit of N)."""
    positive(value, text)
    if value > MAX_JOBS:
        raise OptionError(f"at most {MAX_JOBS} jobs, got '{_shown(value, text)}'")


def nonneg(value: Any, text: str | None = None) -> None:
    if _real(value, text, True) < 0:
        raise OptionError(f"must be an integer >= 0, got '{_shown(value, text)}'")


def finite(value: Any, text: str | None = None) -> None:
    _real(value, text)


def nonneg_real(value: Any, text: str | None = None) -> None:
    if _real(value, text) < 0:
        raise OptionError(f"must be >= 0, got '{_shown(value, text)}'")


def positive_real(value: Any, text: str | None = None) -> None:
    if not _real(value, text) > 0:
        raise OptionError(f"must be > 0, got '{_shown(value, text)}'")


def probability(value: Any, text: str | None = None) -> None:
    """A probability or weight in [0, 1]."""
    if not 0.0 <= _real(value, text) <= 1.0:
        raise OptionError(f"must lie in [0, 1], got '{_shown(value, text)}'")


def open_probability(value: Any, text: str | None = None) -> None:
    """A probability strictly between 0 and 1 (a prior, a confidence level)."""
    if not 0.0 < _real(value, text) < 1.0:
        raise OptionError(f"must lie strictly between 0 and 1, got '{_shown(value, text)}'")


def seconds_up_to(hi: float) -> Callable[..., None]:
    """A duration in seconds in (0, hi] (a frame shift: 1e300 would put every hit on frame 0)."""
    def check(value: Any, text: str | None = None) -> None:
        if not 0 < _real(value, text) <= hi:
            raise OptionError(f"expected seconds in (0, {hi:g}], got '{_shown(value, text)}'")
    check.__name__ = f"seconds_up_to_{hi:g}"
    return check


def int_between(lo: int, hi: int) -> Callable[..., None]:
    def check(value: Any, text: str | None = None) -> None:
        if not lo <= _real(value, text, True) <= hi:
            raise OptionError(f"must be an integer from {lo} to {hi}, got '{_shown(value, text)}'")
    check.__name__ = f"int_{lo}_{hi}"
    return check


def resamples(value: Any, text: str | None = None) -> None:
    """--bootstrap: 0 (off) to MAX_RESAMPLES; more cannot finish in memory."""
    nonneg(value, text)
    if value > MAX_RESAMPLES:
        raise OptionError(f"at most {MAX_RESAMPLES} resamples (docs/uncertainty.md), got '{_shown(value, text)}'")


def number_or(*words: str) -> Callable[..., None]:
    """A finite number or one of `words` (e.g. 'min', 'bayes')."""
    def check(value: Any, text: str | None = None) -> None:
        if isinstance(value, str) and value in words:
            return
        try:
            _real(value, text)
        except OptionError:
            raise OptionError(f"expected a finite number or {' or '.join(repr(w) for w in words)}, "
                              f"got '{_shown(value, text)}'") from None
    check.__name__ = "number_or_" + "_".join(words)
    return check


def number_list(lo: float, hi: float | None = None, integer: bool = False) -> Callable[..., None]:
    """A comma list of finite numbers in [lo, hi] (whole numbers with integer=True), or '' for
    none. 2.5 as a rank would silently become 2, inf as FA/hour would name a column 'inf'."""
    def check(value: Any, text: str | None = None) -> None:
        if not isinstance(value, str):
            raise OptionError(f"expected a comma list as a string, got {value!r}")
        items = [x.strip() for x in value.split(",")]
        if items == [""]:
            return
        for x in items:
            if not x:
                raise OptionError(f"expected a comma list without empty items, got '{value}'")
            try:
                v = int(x) if integer else float(x)
                if not math.isfinite(v):
                    raise ValueError
            except ValueError:
                kind = "whole numbers" if integer else "finite numbers"
                raise OptionError(f"expected a comma list of {kind}, got '{x}'") from None
            if v < lo or (hi is not None and v > hi):
                where = f">= {lo:g}" if hi is None else f"in [{lo:g}, {hi:g}]"
                raise OptionError(f"every value must be {where}, got '{x}'")
    check.__name__ = "number_list"
    return check


def boolean(value: Any, text: str | None = None) -> None:
    if not isinstance(value, bool):
        raise OptionError(f"expected true or false, got '{_shown(value, text)}'")


def text_value(value: Any, text: str | None = None) -> None:
    if not isinstance(value, str):
        raise OptionError(f"expected a string, got {type(value).__name__} {value!r}")


def path_value(value: Any, text: str | None = None) -> None:
    if not isinstance(value, (str, os.PathLike)):
        raise OptionError(f"expected a path (str or os.PathLike), got {type(value).__name__} {value!r}")
    if not os.fspath(value):
        raise OptionError("expected a path, got ''")


def or_none(check: Callable[..., None]) -> Callable[..., None]:
    """`check`, with None (the option not given) accepted."""
    def checked(value: Any, text: str | None = None) -> None:
        if value is not None:
            check(value, text)
    checked.__name__ = f"{check.__name__}_or_none"
    return checked


# ----------------------------------------------------------------------------- fields

def option(default: Any = MISSING, doc: str = "", *, check: Callable[..., None] | None = None,
           choices: Sequence[Any] | None = None, flag: str | None = None, positional: bool = False,
           role: str | None = None, metavar: str | None = None, cli: bool = True,
           parse: Callable[[str], Any] | None = None, many: bool | str = False, aliases: Sequence[str] = (),
           hidden: bool = False, api: bool = True) -> Any:
    """A field of a step's Options.

    default: the default value (none for a required positional); doc: the one-line help;
    check(value, text=None): raises OptionError when the value is wrong; choices: the allowed
    values; flag: the option's name on the command line (default --<field-name with ->);
    positional: a positional argument of the step; role: "input" or "output" for paths the
    output guard checks; cli=False: not on the command line (set by the driver or the API);
    parse(text) -> value: how the CLI turns the text into the value (default: by the field's type).
    many: a positional taking several values, a tuple of them: True (or "+") one or more, "*"
    none or more (then the field's default); "?": an optional positional, its one value or
    the field's default (not a tuple);
    aliases: more names of the option on the command line (an old name: ("--output",));
    hidden: on the command line but not in its --help nor in the Python API (a legacy name);
    api=False: on the command line only (the API has no such call: score_zrc_submission's --init).
    """
    if role not in (None, "input", "output", "inputs"):
        raise ValueError(f"role must be input, inputs or output, got {role!r}")
    if many not in (False, True, "+", "*", "?") or (many and not positional):
        raise ValueError(f"many must be True, '+', '*' or '?', of a positional field, got {many!r}")
    meta = {"doc": doc, "check": check, "choices": tuple(choices) if choices is not None else None,
            "flag": flag, "positional": positional, "role": role, "metavar": metavar, "cli": cli,
            "parse": parse, "many": many, "aliases": tuple(aliases), "hidden": hidden,
            "api": api}
    return dataclasses.field(default=default, metadata=meta)


def optional_input(doc: str) -> Any:
    """An optional input file (None: not given), checked by the output guard like any input."""
    return option(None, doc, role="input", check=or_none(path_value))


def flag_of(f: dataclasses.Field) -> str:
    return f.metadata.get("flag") or "--" + f.name.replace("_", "-")


def where_of(f: dataclasses.Field) -> str:
    """How an error names the field: `argument --nj` or `argument data_dir` on the command line,
    `nj` in the Python API (termeval.core.face)."""
    return argument(f.name, f.name if f.metadata.get("positional") else flag_of(f))


class StepOptions:
    """Base of every step's frozen Options dataclass: field checks and combination checks."""

    def validate(self) -> "StepOptions":
        """Check every field, then the combinations; InputError with the step's one line."""
        for f in dataclasses.fields(self):   # type: ignore[arg-type]
            value = getattr(self, f.name)
            choices = f.metadata.get("choices")
            check = f.metadata.get("check")
            try:
                # a None value of a field whose default is None is "not given", not a choice
                if choices is not None and value not in choices and not (value is None and f.default is None):
                    shown = ", ".join(repr(c) for c in choices)
                    raise OptionError(f"invalid choice: {value!r} (choose from {shown})")
                if check is not None:
                    check(value)
            except OptionError as e:
                raise InputError(f"{where_of(f)}: {e}") from None
        message = self.check_combination()
        if message:
            raise InputError(message)
        return self

    def check_combination(self) -> str | None:
        """A step's checks across options: an error message naming the options, or None."""
        return None

    def replace(self, **changes: Any) -> "StepOptions":
        return dataclasses.replace(self, **changes)   # type: ignore[type-var]

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]   # type: ignore[arg-type]

    @classmethod
    def build(cls, values: Mapping[str, Any], where: str) -> "StepOptions":
        """Options from keyword values (the API): unknown names refused, then validated."""
        known = {f.name for f in dataclasses.fields(cls)}   # type: ignore[arg-type]
        unknown = sorted(set(values) - known)
        if unknown:
            raise InputError(f"{where}: unknown option {unknown[0]!r} (options: {', '.join(sorted(known))})")
        fields = {f.name: f for f in dataclasses.fields(cls)}   # type: ignore[arg-type]
        return cls(**{k: _coerce(fields[k], v) for k, v in values.items()}).validate()   # type: ignore[call-arg]

    def paths(self, role: str) -> list[str]:
        """The values of the fields with this role ("input" or "output"), as paths."""
        out: list[str] = []
        for f in dataclasses.fields(self):   # type: ignore[arg-type]
            r = f.metadata.get("role")
            v = getattr(self, f.name)
            if v is None or v == "" or v == "-":
                continue
            if r == role:
                out.append(os.fspath(v))
            elif r == "inputs" and role == "input":
                out += [os.fspath(x) for x in v]
        return out


def _coerce(f: dataclasses.Field, value: Any) -> Any:
    """An int given for a float field is that float (as the command line's text would parse):
    the options recorded with the scores are then the same from the API and the CLI."""
    if str(f.type).replace(" ", "").startswith("float") and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def split_number_list(value: str, integer: bool = False) -> list:
    """The numbers of a comma list ('' -> [])."""
    return [int(x) if integer else float(x) for x in value.split(",") if x.strip()]


# ----------------------------------------------------------------------------- shared groups

@dataclasses.dataclass(frozen=True, kw_only=True)
class BootstrapOptions(StepOptions):
    """--bootstrap/--seed/--ci, the same on every scoring step (docs/uncertainty.md)."""
    bootstrap: int = option(0, f"resamples for confidence intervals (0 = off; at most {MAX_RESAMPLES})",
                            check=resamples)
    seed: int = option(777, "seed of the resampling", check=nonneg)
    ci: float = option(0.95, "confidence level of the intervals", check=open_probability)


@dataclasses.dataclass(frozen=True, kw_only=True)
class JobOptions(StepOptions):
    """--nj of a scoring step: the units are split into N jobs of about equal cost (the one
    driver, termeval/run/driver.py); the result is the same for any N."""
    nj: int = option(1, f"number of jobs (1: one process; at most {MAX_JOBS})", check=job_count)


# The recordings report.html's timeline holds by default: enough to look at, few enough that
# the page stays small on any corpus (docs/report.md).
REPORT_FILES = 20


@dataclasses.dataclass(frozen=True, kw_only=True)
class ReportOptions(StepOptions):
    """--report/--report-files/--textgrids, the same on every scoring step (docs/report.md):
    what the step writes for a person to look at. None of them changes a number, so none is
    recorded with the scores. A step that has no tiers to write (TEXTGRIDS = False) refuses
    --textgrids true, saying why (NO_TEXTGRIDS)."""
    TEXTGRIDS = True
    NO_TEXTGRIDS = ("this step has no timeline to write as TextGrids (term discovery, segmentation, term "
                    "detection and score_units have one)")
    report: bool = option(True, "write <exp-dir>/report.html: the scores, settings, warnings, plots, tables "
                                "and a timeline of gold against the system, in one self-contained page")
    report_files: int = option(REPORT_FILES, "recordings in report.html's timeline (the first N; 0: none)",
                               check=nonneg)
    textgrids: bool = option(False, "write details/textgrids/<recording>.TextGrid (gold tiers, the system's "
                                    "tiers and its errors) for Praat")

    def validate(self) -> "StepOptions":
        super().validate()
        if self.textgrids and not self.TEXTGRIDS:
            raise InputError(f"--textgrids true: {self.NO_TEXTGRIDS}")
        return self
