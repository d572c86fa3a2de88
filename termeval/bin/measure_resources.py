#!/usr/bin/env python3
"""Run a command and record its CPU time, wall time and peak memory over its whole process
tree (children, grandchildren, re-parented orphans), plus the host's CPU model and cores.

Usage: python -m termeval.bin.measure_resources [options] <exp-dir> <index|search> -- <command> [args...]
 e.g.: python -m termeval.bin.measure_resources exp/mysys search -- python3 local/my_search.py data/q exp/mysys

Writes <exp-dir>/resources/<phase> (key=value lines) and exits with the command's exit status
(128+N if it was killed by signal N). The file is written even when the command fails, with
its exit_status, so steps/score_resources.sh can refuse it. See termeval/resources/resources.py for
how CPU time and peak memory are measured.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from termeval.core.errors import InputError
from termeval.resources.options import MeasureOptions
from termeval.resources.record import record
from termeval.run.cli import options_of, parser_for, run
from termeval.core.warn import warn


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): MeasureOptions; the command follows `--`."""
    return parser_for(MeasureOptions, __doc__)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv:
        if any(a in ("-h", "--help") for a in argv):
            print(__doc__)
            return 0
        raise InputError("usage: measure_resources.py [options] <exp-dir> <index|search> -- <command ...>")
    cut = argv.index("--")
    own, cmd = argv[:cut], argv[cut + 1:]
    parser = get_parser()
    a = options_of(parser, parser.parse_args(own))
    if not cmd:
        raise InputError("no command after --")
    res, _, out_path = record(a, cmd)
    prog = os.path.basename(sys.argv[0])
    if res["still_running"]:
        warn(prog, f"{res['still_running']} process(es) started by the command were "
             "still running when it exited; their CPU time is not counted")
    print(f"{prog}: {a.phase}: exit {res['exit_status']}, cpu {res['cpu_s']:.3f} s, wall "
          f"{res['wall_s']:.3f} s, peak {res['peak_mem_kb'] / 1024:.1f} MiB "
          f"({res['max_processes']} processes at most) -> {out_path}", file=sys.stderr)
    return res["exit_status"]


if __name__ == "__main__":
    run(main)
