"""How the shell steps run a step through a Kaldi launcher (utils/termeval_lib.sh):

    python -m termeval.bin [--prog NAME] [--python P] --nj N --cmd CMD <scoring step> <args...>
    python -m termeval.bin [--prog NAME] [--python P] --cmd CMD --log LOG <step> <args...>

The first parses <args> as `python -m termeval.bin.<step> <args>` would, then runs the one N-job
plan (termeval/run/plan.py): what the jobs share prepared once, N jobs and the merge through
CMD, each given <args> as they are; the merge's warnings and summary shown here. The second
runs the whole step as one job through CMD, logged to LOG (te_launch_one). A failed job is
named by its own error line; the lines are headed NAME (the shell step's name); the jobs run
with the interpreter P (the shell's utils/termeval_python.sh; default this one)."""
from __future__ import annotations

import sys
from typing import Sequence

from termeval.core.errors import InputError
from termeval.run.cli import options_of, parser_of, run
from termeval.steps import STEPS, step


def main(argv: Sequence[str]) -> int:
    argv = list(argv)
    nj, cmd, log, python = 1, None, None, None
    while argv and argv[0] in ("--prog", "--nj", "--cmd", "--log", "--python"):
        if len(argv) < 2:
            raise InputError(f"{argv[0]}: expected a value")
        key, value, argv = argv[0], argv[1], argv[2:]
        if key == "--nj":
            nj = int(value)
        elif key == "--cmd":
            cmd = value
        elif key == "--log":
            log = value
        elif key == "--python":
            python = value
    if not argv or argv[0].replace("-", "_") not in STEPS or cmd is None:
        raise InputError(__doc__.split("\n\n")[1].strip())
    s, args = step(argv[0]), argv[1:]
    if log is not None:
        from termeval.run import launcher     # why: subprocess, only to launch
        launcher.run_cmd(cmd, s.name, args, None, log, python=python)
        return 0
    if not s.jobs:
        raise InputError(f"{s.name} has no jobs (--nj): give --log LOG to run it as one job")
    parser = parser_of(s)
    opts = options_of(parser, parser.parse_args(args))
    from termeval.run import plan      # why: numpy, only once the options are known good
    plan.run_step(s, opts.replace(nj=nj).validate(), nj=nj, cmd=cmd, argv=args, python=python)
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--prog":
        sys.argv[0] = sys.argv[2]           # the shell step's name heads every line
    run(main)
