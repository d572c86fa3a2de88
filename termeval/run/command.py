"""`termeval <step> [options] <args>`: every step of the recipe as one command (pip install
puts it on PATH; `python -m termeval` is the same).

A step is a module termeval/bin/<step>.py (score_std -> `termeval score-std`); its options,
outputs and error lines are the step's own. `--nj N` of a scoring step runs N local processes
(`--nj N --job J`, logs <exp-dir>/log/<stage>.J.log, <stage> the name of the step's stage,
its benchmark's: zrc2020, std, ...) and then the merge (`--merge N`) in this
process, under the exp dir's lock, as steps/*.sh do with utils/run.pl; `--nj 1` is one process.
The step list of `termeval --help` is read from the modules' docstrings without importing them,
so it stays fast.
"""
from __future__ import annotations

import contextlib
import os
import re
import sys
import time
from typing import Any, Sequence

# a module's docstring: the first string after the shebang, comments and blank lines
_DOCSTRING = re.compile(r'(?:[ \t]*(?:#[^\n]*)?\n)*[rRuU]?("""|\'\'\')(.*?)\1', re.S)
USAGE = "usage: termeval [--help] [--version] <step> [options] <args>   (termeval <step> --help)"


def bin_dir() -> str:
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bin")


def steps() -> dict[str, str]:
    """{step name: first line of its docstring}, read from the sources."""
    out = {}
    for f in sorted(os.listdir(bin_dir())):
        mod = f[:-3]
        if not f.endswith(".py") or mod.startswith("_"):
            continue
        with open(os.path.join(bin_dir(), f), encoding="utf-8") as fh:
            m = _DOCSTRING.match(fh.read(8192))
        doc = m.group(2) if m else ""
        out[mod.replace("_", "-")] = one_line(doc)
    return dict(sorted(out.items()))


def one_line(doc: str, width: int = 90) -> str:
    """The first sentence of a docstring, cut to `width` characters."""
    text = " ".join(doc.strip().split("\n\n")[0].split())
    text = re.split(r"(?<=[.])\s", text)[0]
    if len(text) > width:
        head = text[:width]
        text = head[:head.index(":")] if ":" in head else head[:head.rindex(" ")] + " ..."
    return text


def version() -> str:
    from termeval.core.version import __version__   # `termeval <step>` does not load it
    return __version__


def help_text() -> str:
    st = steps()
    width = max(map(len, st))
    lines = [USAGE, "",
             f"termeval {version()}: evaluation of spoken term discovery, spoken term detection and",
             "word segmentation. Steps (same options and outputs as steps/*.sh and utils/*.sh):", ""]
    lines += [f"  {name:<{width}}  {line}" for name, line in st.items()]
    lines += ["", "Python API: import termeval; termeval.score_tde(...) (docs/api.md)."]
    return "\n".join(lines)


def _module(step: str) -> Any:
    import importlib    # not loaded by the console script's `termeval --help`
    return importlib.import_module(f"termeval.bin.{step.replace('-', '_')}")


def main(argv: Sequence[str] | None = None) -> int:
    """The `termeval` command; a reader that stops early (`termeval --help | head`) ends it
    quietly, as it ends a shell pipeline."""
    try:
        return _main(argv)
    except BrokenPipeError:
        from termeval.run.cli import quiet_broken_pipe   # why: run.cli stays out of `termeval --help`
        return quiet_broken_pipe()


def _main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(help_text(), file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] in ("-V", "--version"):
        print(f"termeval {version()}")
        return 0
    step, rest = argv[0], argv[1:]
    if step.startswith("-") or step.replace("_", "-") not in steps():
        print(f"termeval: error: unknown step '{step}' (termeval --help lists the steps)", file=sys.stderr)
        return 2
    saved = sys.argv[0]
    sys.argv[0] = f"termeval {step}"                 # prog of the step's usage and error lines
    try:
        return _run_step(step.replace("_", "-"), rest)
    except SystemExit as e:                          # argparse (--help, usage errors), cli.run
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv[0] = saved


def _run_step(step: str, rest: list[str]) -> int:
    from termeval.run.cli import run               # argparse and the Options: not for `termeval --help`
    mod = _module(step)
    if any(x in ("-h", "--help") for x in rest):
        mod.get_parser().parse_args(rest)
    plan = _plan(mod, rest)
    if plan is None:
        run(mod.main, rest)                          # exits
    return run(lambda _: _run_stage(mod, rest, *plan), rest)  # type: ignore[func-returns-value]


def _plan(mod: Any, rest: list[str]) -> tuple[str, str, int] | None:
    """(exp dir, log name, N) of a scoring step run as steps/*.sh run it (te_run_stage); None
    for the other steps and for an explicit --job/--merge."""
    if not hasattr(mod, "stage_of"):
        return None                                  # not a scoring step
    a = mod.get_parser().parse_args(rest)
    if getattr(a, "job", None) is not None or getattr(a, "merge", None) is not None \
            or getattr(a, "print_stage_name", False):
        return None
    # the stage's name (its benchmark's: zrc2020, std, segmentation_phone, ...) names its logs
    # and shards, as in steps/*.sh
    return a.exp_dir, mod.stage_of(a).name, getattr(a, "nj", 1)


def _run_stage(mod: Any, rest: list[str], exp_dir: str, name: str, nj: int) -> int:
    from termeval.run import driver as jobs        # numpy: not for --help
    if nj == 1:                                      # one process: this one, logged like a job
        args = mod.get_parser().parse_args(rest)
        jobs.check_io(mod.stage_of(args), args, exp_dir)   # the output guard, before the log is opened
        return _logged(os.path.join(exp_dir, "log", f"{name}.log"), lambda: mod.main(rest))
    module = mod.__name__.rsplit(".", 1)[-1]
    run_id = f"{os.getpid()}-{time.time_ns()}"
    with jobs.exp_lock(exp_dir):
        os.environ[jobs.LOCK_ENV] = os.path.abspath(exp_dir)
        try:
            args = mod.get_parser().parse_args(rest)
            stage = mod.stage_of(args)
            jobs.check_io(stage, args, exp_dir)   # the output guard, before anything is written
            if hasattr(stage, "prepare"):    # what the jobs share (zrc2020: the classes), done once
                stage.prepare(mod.get_parser().parse_args(rest))
            jobs.clear_shards(exp_dir, name)  # stale shards of an earlier run
            run_jobs(module, [rest + ["--nj", str(nj), "--job", str(j), "--run-id", run_id]
                              for j in range(1, nj + 1)], exp_dir, name)
            return _logged(os.path.join(exp_dir, "log", f"{name}.merge.log"),
                           lambda: mod.main(rest + ["--merge", str(nj), "--run-id", run_id]))
        finally:
            os.environ.pop(jobs.LOCK_ENV, None)


class _Tee:
    def __init__(self, *streams: Any) -> None:
        self.streams = streams

    def write(self, text: str) -> int:
        for s in self.streams:
            s.write(text)
        return len(text)

    def flush(self) -> None:
        for s in self.streams:
            s.flush()

    def isatty(self) -> bool:
        return False


def _logged(log: str, fn: Any) -> int:
    """fn() with stderr also written to `log` (run.pl's header and end lines, the error line)."""
    from termeval.core.errors import InputError   # not for `termeval --help`
    os.makedirs(os.path.dirname(log), exist_ok=True)
    with open(log, "w", encoding="utf-8") as f:
        f.write(f"# {' '.join([sys.argv[0], *sys.argv[1:]])}\n# Started at {time.ctime()}\n")
        rc = 1
        try:
            with contextlib.redirect_stderr(_Tee(sys.stderr, f)):
                rc = fn() or 0
        except InputError as e:
            f.write(f"{os.path.basename(sys.argv[0])}: error: {e.format()}\n")
            raise
        finally:
            f.write(f"# Ended (code {rc}) at {time.ctime()}\n")
    return rc


def run_jobs(module: str, argvs: list[list[str]], exp_dir: str, log_name: str) -> None:
    """Run `python -m termeval.bin.<module> <argv>` for each argv through the one launcher
    (termeval.run.launcher.run_local: local processes, at most the core count at a time), each
    logged to <exp-dir>/log/<log_name>.J.log (run.pl's header and end lines); InputError naming
    the first failed job's error line and log."""
    from termeval.run.launcher import run_local    # subprocess, threads: only for --nj N
    logs = [os.path.join(exp_dir, "log", f"{log_name}.{j}.log") for j in range(1, len(argvs) + 1)]
    run_local(module, argvs, logs, step=os.path.basename(sys.argv[0]))
