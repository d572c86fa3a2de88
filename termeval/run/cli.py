"""A step's command line, built from its declaration (termeval/core/declaration.py Step): the
argparse parser of its Options (`parser_of`: one argument per field, its doc as help, its
default shown, its check run on the parsed value, the combination checks after parsing) and its
main (`main_of`: parse -> Options -> the step's task, or its stage through the one N-job plan,
termeval/run/plan.py). termeval/bin/<step>.py is `get_parser, main = entry(STEP)`; the
`termeval` command runs the same main under its own name.

`run(main)` turns `InputError` and other expected failures into a one-line message naming the
file and line, with a non-zero exit status and no traceback. local/ scripts build their own
parsers with `make_parser`.
"""
from __future__ import annotations

import argparse
import atexit
import gc
import dataclasses
import math
import os
import re
import sys
import textwrap
from typing import Any, Callable, Sequence

from termeval.core.declaration import Step, load
from termeval.core.errors import InputError
from termeval.core.face import step_name
from termeval.core.options import OptionError, flag_of
from termeval.run.watch import watch_step


def str2bool(value: str) -> bool:
    """Shell-style booleans, as in Kaldi's steps/libs/common.py (bool('false') is True)."""
    if value in ("true", "True", "1"):
        return True
    if value in ("false", "False", "0"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got '{value}'")


def _number(value: str, integer: bool = False) -> float:
    """The number a command line's text gives (argparse turns the error into its one line)."""
    text = value.strip()
    try:
        x = int(text) if integer else float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected {'an integer' if integer else 'a number'}, got '{value}'") from None
    if not integer and not math.isfinite(x):
        raise argparse.ArgumentTypeError(f"expected a finite number, got '{value}'")
    return x


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
        unknown = self.unknown_option(sys.argv[1:] if args is None else args)
        if unknown:          # before argparse takes its value for a positional argument
            self.error(f"unrecognized option {unknown}")
        parsed = super().parse_args(args, namespace)
        for check in getattr(self, "checks", []):
            message = check(parsed)
            if message:
                self.error(message)
        if os.environ.get(PARSE_ONLY) == "1":
            sys.exit(0)
        return parsed


    def unknown_option(self, argv: Sequence[str]) -> str | None:
        """The first `--name` (or `-x`) of argv that is no option of this parser (nor the unique
        start of one), before a bare `--`; negative numbers are values."""
        known = list(self._option_string_actions)
        for a in argv:
            if a == "--":
                return None
            if not a.startswith("-") or a == "-" or re.fullmatch(r"-[0-9.].*", a):
                continue
            name = a.split("=", 1)[0]
            if name not in known and not [k for k in known if k.startswith(name) and k.startswith("--")]:
                return name
        return None


def add_check(p: argparse.ArgumentParser, check: Callable[[argparse.Namespace], str | None]) -> None:
    """check(args) -> an error message naming the options, or None: run after parsing."""
    p.checks = [*getattr(p, "checks", []), check]  # type: ignore[attr-defined]


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


# ---------------------------------------------------------------------------- a declared step's face

def parser_of(step: Step, prog: str | None = None) -> argparse.ArgumentParser:
    """The parser of a declared step: its Options' arguments, its description as --help; a
    scoring step also takes --cmd (its jobs through a Kaldi launcher) and, hidden, the driver's
    --job/--merge/--run-id, --prepare-only and --print-stage-name."""
    p = parser_for(step.options, step.description, prog)
    if not step.scoring:
        return p
    if step.jobs:
        p.add_argument("--cmd", default=None, metavar="CMD",
                       help=f"run the --nj jobs through this Kaldi launcher (run.pl, queue.pl --mem 4G, slurm.pl; "
                            f"default: local processes, at most one per core); the {step.jobs} are split into "
                            "--nj ranges of about equal cost, the result is the same for any --nj")
        p.add_argument("--job", type=_positive, default=None, help=argparse.SUPPRESS)
        p.add_argument("--merge", type=_positive, default=None, help=argparse.SUPPRESS)
        p.add_argument("--run-id", default=None, help=argparse.SUPPRESS)
        p.add_argument("--prepare-only", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--print-stage-name", action="store_true", help=argparse.SUPPRESS)
    return p


def _positive(text: str) -> int:
    x = int(_number(text, integer=True))
    if x < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got '{text}'")
    return x


def main_of(step: Step) -> Callable[[Sequence[str] | None], int]:
    """The main of a declared step: parse, build and check its Options, then run its task (and
    print what its command line shows) or score through the one plan."""
    def main(argv: Sequence[str] | None = None) -> int:
        argv = list(sys.argv[1:] if argv is None else argv)
        rest: list[str] = []
        if step.rest:                       # measure_resources: the command after the first --
            if "--" in argv:
                cut = argv.index("--")
                argv, rest = argv[:cut], argv[cut + 1:]
            elif not any(a in ("-h", "--help") for a in argv):
                raise InputError(f"usage: {step.name} [options] <args> -- <command ...>")
        parser = parser_of(step)
        args = parser.parse_args(argv)
        opts = options_of(parser, args)
        if step.rest:
            opts = opts.replace(**{step.rest: tuple(rest)}).validate()
        if step.from_command_line:
            opts = load(step.from_command_line)(opts)
        if step.scoring:
            return _score(step, opts, args, argv)
        from termeval.run import driver      # numpy, the lock: not for --help
        res = load(step.task)(opts, driver.run_task)
        return (load(step.show)(opts, res) if step.show else None) or 0
    main.__doc__ = f"`{step.name}` on a command line (termeval/run/cli.py main_of)."
    return main


def _score(step: Step, opts: Any, args: argparse.Namespace, argv: list[str]) -> int:
    if args.print_stage_name:          # the name of its logs and shards, from the options alone (no numpy)
        print(step.name_of(opts))
        return 0
    from termeval.run import driver, plan    # numpy: not for --help
    job, merge = (args.job, args.merge) if step.jobs else (None, None)
    if step.jobs and args.prepare_only:
        plan.prepare(step, opts)
    elif job is not None or merge is not None:
        driver.run(step.stage_of(opts), opts, opts.exp_dir, nj=opts.nj, job=job, merge=merge, run_id=args.run_id)
    else:
        under_command = bool(sys.argv) and sys.argv[0].startswith("termeval ")
        plan.run_step(step, opts, nj=opts.nj if step.jobs else 1, cmd=args.cmd if step.jobs else None,
                      argv=argv, logs=under_command)
    return 0


def entry(step: Step) -> tuple[Callable[[], argparse.ArgumentParser], Callable[..., int]]:
    """(get_parser, main) of termeval/bin/<step>.py; its `__main__` runs `run(main)` (the one
    error line, the exit status)."""
    def get_parser() -> argparse.ArgumentParser:
        return parser_of(step)
    get_parser.__doc__ = f"The options of {step.name} (its --help): {step.options.__name__}."
    return get_parser, main_of(step)


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
    prog = step_name()
    _one_shot_gc()
    watch_step()                       # started by a step: die with it (termeval/run/watch.py)
    try:
        code = main(sys.argv[1:] if argv is None else argv)
    except InputError as e:
        for line in e.preceding:
            print(f"{prog}: error: {line}", file=sys.stderr)
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


