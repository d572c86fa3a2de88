"""`termeval <step> [options] <args>`: every step of the recipe as one command (pip install
puts it on PATH; `python -m termeval` is the same).

The steps and their one-line summaries are those of the declaration (termeval/steps: score_std
-> `termeval score-std`); a step's options, outputs and error lines are those of its entry point
(termeval/run/cli.py main_of), headed `termeval <step>`. `--nj N` of a scoring step runs the one
N-job plan with local processes (logs <exp-dir>/log/<stage>.J.log, <stage> its benchmark's name:
zrc2020, std, ...), or through a Kaldi launcher with `--cmd`, then the merge, under the exp dir's
lock, as steps/*.sh do; `--nj 1` is one process, logged to <exp-dir>/log/<stage>.log.
`termeval --help` loads the declaration only (no numpy), so it stays fast.
"""
from __future__ import annotations

import sys
from typing import Any, Sequence

from termeval.steps import STEPS, commands, step

USAGE = "usage: termeval [--help] [--version] <step> [options] <args>   (termeval <step> --help)"


def steps() -> dict[str, str]:
    """{step command: its one-line summary}, from the declaration."""
    return commands()


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
    name, rest = argv[0], argv[1:]
    if name.startswith("-") or name.replace("-", "_") not in STEPS:
        print(f"termeval: error: unknown step '{name}' (termeval --help lists the steps)", file=sys.stderr)
        return 2
    saved = sys.argv[0]
    sys.argv[0] = f"termeval {step(name).command}"     # prog of the step's usage and error lines
    try:
        from termeval.run.cli import run             # argparse and the Options: not for `termeval --help`
        run(_main_of(name), rest)                    # exits
    except SystemExit as e:                          # argparse (--help, usage errors), cli.run
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv[0] = saved
    return 0


def _main_of(name: str) -> Any:
    s = step(name)
    if s.own_cli:                                    # its own command line (KWSEval's)
        import importlib                             # why: only the step asked for is loaded
        return importlib.import_module(f"termeval.bin.{s.name}").main
    from termeval.run.cli import main_of             # argparse: not for `termeval --help`
    return main_of(s)
