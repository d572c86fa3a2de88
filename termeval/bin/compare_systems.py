#!/usr/bin/env python3
"""Paired significance tests between systems scored on the same data.

Usage: python -m termeval.bin.compare_systems [options] <exp-dir-A> <exp-dir-B> [...] <out-dir>
 e.g.: python -m termeval.bin.compare_systems --bootstrap 1000 exp/kamper exp/ours exp/compare

Reads every system's scores/scores.json and its paired per-unit statistics (units/units.
{tde_file,tde15_file,std_term,quesst_query,...}.npz, written by scoring) and compares each system with the
first one: the difference of every metric (system - first), its percentile interval and a
two-sided p-value (paired bootstrap, or approximate randomization with --test permutation).
Writes <out-dir>/scores/compare, scores/compare.json, RESULTS.compare.md and the forest plot
<out-dir>/forest.{png,pdf}. Refuses systems scored on different data or settings.
--benchmark zr2015/zr2017 systems: the cross_/within_ fold means of coverage, token, type and
boundary are compared over the recordings (or speakers); NED and grouping are not (their units,
the discovered classes, differ between systems).
"""
from __future__ import annotations

import os
import sys

from termeval.bootstrap.compare import HEADLINE, check_out_dir, compare, load_system, write_compare
from termeval.bootstrap.forest import forest_plot
from termeval.run.cli import add_bootstrap_options, make_parser, run
from termeval.core.errors import InputError


def get_parser():
    p = make_parser(__doc__)
    add_bootstrap_options(p, "the shared units", default_n=1000)
    p.add_argument("--test", default="bootstrap", choices=("bootstrap", "permutation"),
                   help="p-value: paired bootstrap (default) or approximate randomization")
    p.add_argument("--plot", default="true", choices=("true", "false"), help="forest plot (default true)")
    p.add_argument("dirs", nargs="+", help="<exp-dir-A> <exp-dir-B> [...] <out-dir>")
    return p


def main(argv=None):
    a = get_parser().parse_args(argv)
    if len(a.dirs) < 3:
        raise InputError("need at least two exp dirs and an output dir")
    if a.bootstrap < 1 or not 0 < a.ci < 1:
        raise InputError(f"--bootstrap must be >= 1 and --ci in (0, 1), got {a.bootstrap} and {a.ci}")
    *exps, out = a.dirs
    check_out_dir(exps, out)
    res = compare([load_system(e) for e in exps], a.bootstrap, a.seed, a.ci, a.test)
    for line in write_compare(out, res):
        print(line)
    for t, note in res.get("not_compared", {}).items():
        print(f"{os.path.basename(sys.argv[0])}: not compared ({t}): {note}", file=sys.stderr)
    if a.plot == "true":
        forest_plot(res, HEADLINE, os.path.join(out, "forest"))
    print(f"{os.path.basename(sys.argv[0])}: comparison in {out}/scores/compare, table in "
          f"{out}/RESULTS.compare.md", file=sys.stderr)


if __name__ == "__main__":
    run(main)
