"""Shared helpers for the thin command-line scripts in steps/, utils/ and local/.

Every script builds an argparse parser with `make_parser` (its docstring becomes --help) and
calls `run(main)`, which turns `InputError` and other expected failures into a one-line message
naming the file and line, with a non-zero exit status and no traceback.
"""
from __future__ import annotations

import argparse
import atexit
import gc
import dataclasses
import math
import os
import sys
import textwrap
from typing import Any, Callable, Sequence

from termeval.core.errors import InputError
from termeval.core.options import OptionError, flag_of
from termeval.run.watch import watch_step


def str2bool(value: str) -> bool:
    """Shell-style booleans, as in Kaldi's steps/libs/common.py (bool('false') is True)."""
    if value in ("true", "True", "1"):
        return True
    if value in ("false", "False", "0"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got '{value}'")


# ---------------------------------------------------------------------------- option types
# argparse reports a failing type as "<prog>: error: argument --name: <message>", exit 2, so
# each validator only says what is wrong with the value.


def _number(value: str, integer: bool = False) -> float:
    text = value.strip()
    try:
        x = int(text) if integer else float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected {'an integer' if integer else 'a number'}, got '{value}'") from None
    if not integer and not math.isfinite(x):
        raise argparse.ArgumentTypeError(f"expected a finite number, got '{value}'")
    return x


def positive_int(value: str) -> int:
    """An integer >= 1 (job counts, worker counts)."""
    x = int(_number(value, integer=True))
    if x < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got '{value}'")
    return x


def nonneg_int(value: str) -> int:
    x = int(_number(value, integer=True))
    if x < 0:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got '{value}'")
    return x


def finite_float(value: str) -> float:
    return _number(value)


def nonneg_float(value: str) -> float:
    x = _number(value)
    if x < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got '{value}'")
    return x


def positive_float(value: str) -> float:
    x = _number(value)
    if not x > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got '{value}'")
    return x


def seconds_up_to(hi: float) -> Callable[[str], float]:
    """A duration in seconds in (0, hi] (a frame shift: 1e300 would put every hit on frame 0)."""
    def check(value: str) -> float:
        x = _number(value)
        if not 0 < x <= hi:
            raise argparse.ArgumentTypeError(f"expected seconds in (0, {hi:g}], got '{value}'")
        return x
    check.__name__ = f"seconds_up_to_{hi:g}"
    return check


def prob(value: str) -> float:
    """A probability or weight in [0, 1]."""
    x = _number(value)
    if not 0.0 <= x <= 1.0:
        raise argparse.ArgumentTypeError(f"must lie in [0, 1], got '{value}'")
    return x


def open_prob(value: str) -> float:
    """A probability strictly between 0 and 1 (a prior)."""
    x = _number(value)
    if not 0.0 < x < 1.0:
        raise argparse.ArgumentTypeError(f"must lie strictly between 0 and 1, got '{value}'")
    return x


def int_range(lo: int, hi: int) -> Callable[[str], int]:
    def check(value: str) -> int:
        x = int(_number(value, integer=True))
        if not lo <= x <= hi:
            raise argparse.ArgumentTypeError(f"must be an integer from {lo} to {hi}, got '{value}'")
        return x
    check.__name__ = f"int_{lo}_{hi}"
    return check


def float_or(*words: str) -> Callable[[str], str]:
    """A finite number or one of `words` (e.g. 'min', 'bayes'); the text is returned as given,
    so the caller's own handling of the word stays as it is."""
    def check(value: str) -> str:
        if value in words:
            return value
        try:
            _number(value)
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError(
                f"expected a finite number or {' or '.join(repr(w) for w in words)}, got '{value}'") from None
        return value
    check.__name__ = "float_or_" + "_".join(words)
    return check


def resample_count(value: str) -> int:
    """--bootstrap: 0 (off) to termeval.bootstrap.MAX_RESAMPLES; more cannot finish in memory."""
    from termeval.bootstrap import MAX_RESAMPLES    # termeval.bootstrap: not loaded by --help
    x = nonneg_int(value)
    if x > MAX_RESAMPLES:
        raise argparse.ArgumentTypeError(
            f"at most {MAX_RESAMPLES} resamples (docs/uncertainty.md), got '{value}'")
    return x


def number_list(lo: float, hi: float | None = None, integer: bool = False) -> Callable[[str], str]:
    """A comma list of finite numbers in [lo, hi] (whole numbers with integer=True), or '' for
    none; the text is returned as given (the step's own reader splits it). 2.5 as a rank would
    silently become 2 (mean_p_at_2), inf as FA/hour would name a column 'inf': refused here."""
    def check(value: str) -> str:
        items = [x.strip() for x in value.split(",")]
        if items == [""]:
            return value
        for x in items:
            if not x:
                raise argparse.ArgumentTypeError(f"expected a comma list without empty items, got '{value}'")
            try:
                v = _number(x, integer)
            except argparse.ArgumentTypeError:
                kind = "whole numbers" if integer else "finite numbers"
                raise argparse.ArgumentTypeError(f"expected a comma list of {kind}, got '{x}'") from None
            if v < lo or (hi is not None and v > hi):
                where = f">= {lo:g}" if hi is None else f"in [{lo:g}, {hi:g}]"
                raise argparse.ArgumentTypeError(f"every value must be {where}, got '{x}'")
        return value
    check.__name__ = "number_list"
    return check



def add_bootstrap_options(p: argparse.ArgumentParser, unit: str, default_n: int = 0) -> None:
    """--bootstrap/--seed/--ci, the same on every scoring step (docs/uncertainty.md)."""
    p.add_argument("--bootstrap", type=resample_count, default=default_n,
                   help=f"resamples of {unit} for confidence intervals (default {default_n}; 0 = off; "
                        "at most 100000)")
    p.add_argument("--seed", type=nonneg_int, default=777, help="seed of the resampling (default 777)")
    p.add_argument("--ci", type=open_prob, default=0.95, help="confidence level (default 0.95)")


def add_job_options(p: argparse.ArgumentParser, unit: str, job_file: str = "<exp-dir>/jobs/<stage>.J.npz") -> None:
    """--nj/--job/--merge/--run-id of a scoring step (termeval.run.driver): job J of N handles a
    share of `unit` and writes `job_file`; --merge N loads the N shards and reports."""
    if "--nj" not in p._option_string_actions:     # an Options parser has it (JobOptions)
        p.add_argument("--nj", type=positive_int, default=1,
                       help=f"with --job: the number of jobs the {unit} are split into")
    p.add_argument("--job", type=positive_int, default=None,
                   help=f"job J of --nj: only its share of the {unit}, written to {job_file}")
    p.add_argument("--merge", type=positive_int, default=None, metavar="N",
                   help=f"score from the N job files ({job_file}, J = 1..N)")
    p.add_argument("--run-id", default=None, help=argparse.SUPPRESS)  # ties shards to their run


# utils/termeval_lib.sh te_check_options runs an entry point with this set to 1 before any job is
# queued: its options are parsed (and refused with argparse's one line) and it exits 0 without work.
PARSE_ONLY = "TERMEVAL_PARSE_ONLY"


class _Parser(argparse.ArgumentParser):
    """argparse, plus checks of option combinations (add_check) run at parse time, so the
    shell step's PARSE_ONLY pass refuses them too, before any job. A refused option is the
    error line first, then a one-line usage hint (argparse prints its whole usage block first)."""

    def print_usage(self, file=None):  # type: ignore[override]
        if file is sys.stderr:          # argparse's error(): the hint follows the error line (exit)
            return
        super().print_usage(file)

    def exit(self, status=0, message=None):  # type: ignore[override]
        if message:
            sys.stderr.write(message)
            if status == 2:
                args = " ".join(f"<{a.dest}>" for a in self._actions if not a.option_strings)
                sys.stderr.write(f"Usage: {self.prog} [options] {args} (--help for options)\n")
        sys.exit(status)

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]
        parsed = super().parse_args(args, namespace)
        for check in getattr(self, "checks", []):
            message = check(parsed)
            if message:
                self.error(message)
        if os.environ.get(PARSE_ONLY) == "1":
            sys.exit(0)
        return parsed


def add_check(p: argparse.ArgumentParser, check: Callable[[argparse.Namespace], str | None]) -> None:
    """check(args) -> an error message naming the options, or None: run after parsing."""
    p.checks = [*getattr(p, "checks", []), check]  # type: ignore[attr-defined]


def stage_main(get_parser: Callable[[], argparse.ArgumentParser], stage_of: Callable[[Any], object],
               argv: Sequence[str] | None = None) -> int:
    """main() of a scoring step: parse the options, make the benchmark's stage of them and run
    it the one way (termeval.run.driver.run: one process, --job J of --nj N, or --merge N).
    A parser built by `parser_for` gives the step's typed Options to the stage."""
    parser = get_parser()
    args = parser.parse_args(argv)
    opts = options_of(parser, args)
    if getattr(args, "print_stage_name", False):     # the name of its logs and shards (steps/*.sh)
        named = getattr(opts, "stage_name", None)     # from the options alone: no numpy, no stage
        print(named() if callable(named) else stage_of(opts).name)
        return 0
    from termeval.run import driver    # numpy: not for --help
    driver.run(stage_of(opts), opts, opts.exp_dir, nj=getattr(opts, "nj", 1), job=getattr(args, "job", None),
               merge=getattr(args, "merge", None), run_id=getattr(args, "run_id", None))
    return 0


# ---------------------------------------------------------------------------- typed options -> argparse

def _parse_text(f: dataclasses.Field) -> Callable[[str], Any]:
    """How the command line's text becomes the field's value: option(parse=...), else by the
    field's annotation (bool: true/false, int, float, else the text as it is)."""
    given = f.metadata.get("parse")
    if given is not None:
        return given
    kind = str(f.type).replace(" ", "")
    if kind.startswith("bool"):
        return str2bool
    if kind.startswith("int"):
        return lambda text: int(_number(text, integer=True))
    if kind.startswith("float"):
        return _number
    return str


def _typed(f: dataclasses.Field) -> Callable[[str], Any]:
    """argparse `type=` of a field: parse the text, then the field's check on the value."""
    parse, check = _parse_text(f), f.metadata.get("check")

    def convert(text: str) -> Any:
        value = parse(text)
        if check is not None:
            try:
                check(value, text)
            except OptionError as e:
                raise argparse.ArgumentTypeError(str(e)) from None
        return value
    convert.__name__ = f.name      # argparse names it in "invalid <name> value"
    return convert


# option(many=...) of a positional field -> argparse's nargs
_NARGS = {False: None, True: "+", "+": "+", "*": "*", "?": "?"}


def parser_for(options_class: type, doc: str | None, prog: str | None = None) -> argparse.ArgumentParser:
    """The argparse parser of a step, built from its Options dataclass (termeval/core/options.py):
    one argument per field (positional fields in their declared order), its doc as help, its
    default shown, its check run on the parsed value; the combination checks of the class run
    after parsing (an error is argparse's one line, exit 2)."""
    p = make_parser(doc, prog)
    for f in dataclasses.fields(options_class):
        m = f.metadata
        if not m.get("cli", True):
            continue
        default = None if f.default is dataclasses.MISSING else f.default
        if m.get("positional"):
            nargs = _NARGS[m.get("many")]
            extra = {} if nargs is None else {"nargs": nargs}
            if nargs in ("*", "?"):          # may be absent: the field's default
                extra["default"] = default
            tuple_ = nargs in ("+", "*")      # a tuple: each value parsed here, checked whole in _build
            p.add_argument(f.name, type=_parse_text(f) if tuple_ else _typed(f), **extra,
                           metavar=m.get("metavar") or f.name.replace("_", "-"), help=m.get("doc") or None)
            continue
        shown = "true" if default is True else "false" if default is False else default
        helptext = (m.get("doc") or "") + ("" if default in (None, "") else f" (default {shown})")
        p.add_argument(flag_of(f), *m.get("aliases", ()), dest=f.name, type=_typed(f), default=default,
                       choices=m.get("choices"), metavar=m.get("metavar"),
                       help=argparse.SUPPRESS if m.get("hidden") else helptext.replace("%", "%%"))
    p.options_class = options_class          # type: ignore[attr-defined]
    add_check(p, lambda a: _combination(options_class, a))
    return p


def _combination(options_class: type, args: argparse.Namespace) -> str | None:
    try:
        _build(options_class, args)
    except InputError as e:
        return str(e)
    return None


def _build(options_class: type, args: argparse.Namespace) -> Any:
    """The Options of parsed arguments (the values of a `many` positional as a tuple), validated:
    a `many` field's check runs here, on the whole tuple."""
    fields = {f.name: f for f in dataclasses.fields(options_class)}
    values = {k: tuple(v) if fields[k].metadata.get("many") not in (False, "?") else v
              for k, v in vars(args).items() if k in fields}
    return options_class(**values).validate()


def options_of(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Any:
    """The step's validated Options of parsed arguments (None for a parser without them)."""
    cls = getattr(parser, "options_class", None)
    return None if cls is None else _build(cls, args)


def make_parser(doc: str | None, prog: str | None = None) -> argparse.ArgumentParser:
    if sys.argv and sys.argv[0].startswith("termeval "):    # under the `termeval` command
        prog = sys.argv[0]
    return _Parser(
        prog=prog, description=textwrap.dedent(doc or ""),
        formatter_class=argparse.RawDescriptionHelpFormatter)


def quiet_broken_pipe() -> int:
    """stdout's reader went away: no more output, no traceback at exit; the shell's 141."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 141


def run(main: Callable[[Sequence[str]], int | None], argv: Sequence[str] | None = None) -> None:
    """Run main(argv); exit 1 with 'prog: message' on InputError/OSError, 130 on Ctrl-C."""
    prog = os.path.basename(sys.argv[0])
    _one_shot_gc()
    watch_step()                       # started by a step: die with it (termeval/run/watch.py)
    try:
        code = main(sys.argv[1:] if argv is None else argv)
    except InputError as e:
        print(f"{prog}: error: {e.format()}", file=sys.stderr)
        sys.exit(1)
    except BrokenPipeError:            # `... --help | head`: the reader stopped early
        sys.exit(quiet_broken_pipe())
    except (OSError, UnicodeDecodeError) as e:
        print(f"{prog}: error: {e}".replace("\n", " "), file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except MemoryError:
        print(f"{prog}: error: out of memory", file=sys.stderr)
        sys.exit(1)
    except Exception as e:  # a bug of ours, not bad input: keep the traceback, say where it is
        print(f"{prog}: error: internal error, please report it: {type(e).__name__}: "
              f"{str(e)[:200]}; traceback in {_save_traceback(prog)}".replace("\n", " "), file=sys.stderr)
        sys.exit(3)
    sys.exit(code or 0)


def _one_shot_gc() -> None:
    """A step is one short process: what it has imported lives until it exits, so the cycle
    collector passes over it (gc.freeze: collections scan only newer objects; cycles made later
    are still collected), and at exit over everything (the interpreter's last collection would
    walk matplotlib's and scipy's objects only to free a process that ends): about 0.25 CPU-s
    of a segmentation run, nothing changes in what a step computes or writes."""
    gc.freeze()
    atexit.register(gc.freeze)


def _save_traceback(prog: str) -> str:
    """Write the current exception's traceback to a temp file (the terminal gets one line)."""
    import tempfile     # a crash only: not loaded by --help
    import traceback    # a crash only: not loaded by --help
    fd, path = tempfile.mkstemp(prefix=f"termeval-{prog.removesuffix('.py')}-", suffix=".traceback.txt")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(" ".join(sys.argv) + "\n\n" + traceback.format_exc())
    return path


