#!/usr/bin/env python3
"""Paired significance tests between systems scored on the same data.

Usage: python -m termeval.bin.compare_systems [options] <exp-dir-A> <exp-dir-B> [...] <out-dir>
 e.g.: python -m termeval.bin.compare_systems --bootstrap 1000 exp/kamper exp/ours exp/compare

Reads every system's scores/scores.json and its paired per-unit statistics (units/units.
{tde_file,tde15_file,std_term,quesst_query,...}.npz, written by scoring) and compares each system with the
first one: the difference of every metric (system - first), its percentile interval and a
two-sided p-value (paired bootstrap, or approximate randomization with --test permutation).
Writes <out-dir>/scores/compare, scores/compare.json, RESULTS.compare.md, report.html (the
forest plot and the table, docs/report.md) and the forest plot <out-dir>/forest.{png,pdf}. Refuses systems scored on different data or settings.
--benchmark zr2015/zr2017 systems: the cross_/within_ fold means of coverage, token, type and
boundary are compared over the recordings (or speakers); NED and grouping are not (their units,
the discovered classes, differ between systems). The comparison's files are written whole
(termeval.run.driver.run_task), then the forest plot.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from termeval.bootstrap.options import CompareOptions
from termeval.core.errors import InputError
from termeval.run.cli import options_of, parser_for, run


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help): CompareOptions, plus the exp dirs and the output dir."""
    p = parser_for(CompareOptions, __doc__)
    p.add_argument("dirs", nargs="+", help="<exp-dir-A> <exp-dir-B> [...] <out-dir>")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = get_parser()
    a = parser.parse_args(argv)
    if len(a.dirs) < 3:
        raise InputError("need at least two exp dirs and an output dir")
    opts = options_of(parser, a).replace(systems=tuple(a.dirs[:-1]), out_dir=a.dirs[-1]).validate()
    from termeval.bootstrap import compare     # numpy: not for --help
    from termeval.results import compare_html  # numpy: not for --help
    from termeval.run import driver            # numpy: not for --help
    res = compare.run_compare(opts)
    lines = driver.run_task("compare_systems", *compare_html.task(opts, res), inputs=opts.paths("input"))
    prog = os.path.basename(sys.argv[0])
    for line in lines:
        print(line)
    for t, note in res.get("not_compared", {}).items():
        print(f"{prog}: not compared ({t}): {note}", file=sys.stderr)
    compare.plot(opts, res)
    print(f"{prog}: comparison in {opts.out_dir}/scores/compare, table in "
          f"{opts.out_dir}/RESULTS.compare.md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
