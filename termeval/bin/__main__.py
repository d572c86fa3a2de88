"""How the shell steps run a scoring step's jobs (utils/termeval_lib.sh te_run_stage):

    python -m termeval.bin [--prog NAME] --nj N --cmd CMD <step> <args...>

parses <args> as `python -m termeval.bin.<step> <args>` would, then runs the one N-job plan
(termeval/run/plan.py): what the jobs share prepared once, N jobs and the merge through the
Kaldi launcher CMD, each given <args> as they are; the merge's warnings and summary shown here.
Its lines are headed NAME (the shell step's name)."""
from __future__ import annotations

import sys
from typing import Sequence

from termeval.core.errors import InputError
from termeval.run.cli import options_of, parser_of, run
from termeval.steps import STEPS, step


def main(argv: Sequence[str]) -> int:
    argv = list(argv)
    nj, cmd = 1, None
    while argv and argv[0] in ("--prog", "--nj", "--cmd"):
        if len(argv) < 2:
            raise InputError(f"{argv[0]}: expected a value")
        key, value, argv = argv[0], argv[1], argv[2:]
        if key == "--nj":
            nj = int(value)
        elif key == "--cmd":
            cmd = value
    if not argv or argv[0].replace("-", "_") not in STEPS or not step(argv[0]).jobs:
        raise InputError("usage: python -m termeval.bin [--prog NAME] --nj N --cmd CMD <scoring step> <args...>")
    s, args = step(argv[0]), argv[1:]
    parser = parser_of(s)
    opts = options_of(parser, parser.parse_args(args))
    from termeval.run import plan      # why: numpy, only once the options are known good
    plan.run_step(s, opts.replace(nj=nj), nj=nj, cmd=cmd, argv=args)
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--prog":
        sys.argv[0] = sys.argv[2]           # the shell step's name heads every line
    run(main)
