"""FALLBACK until the one-pipeline steps are on main (issue 20, helpers h20a/h20b): delete this
module and its two call sites (termeval.api._step/run_step, termeval.command._module) once
termeval/bin/score_tde.py exists and every scoring step has stage_of().

Until then `score_tde` is the sequence steps/score_tde.sh runs (prepare_classes, tde_stats
jobs, tde_merge; score_tde_folds jobs and merge for zr2015/zr2017), and a step without
stage_of() is run through its main() into a temporary exp dir whose scores.json is read back.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
import types
from typing import Any, Sequence

from termeval.cli import add_bootstrap_options, make_parser, nonneg_float, positive_int, str2bool

DOC = """Score a spoken term discovery class file: zrc2020 (tdev2, default), zr2015 or zr2017.

Usage: termeval score-tde [options] <data-dir> <class-file> <exp-dir>
 e.g.: termeval score-tde --nj 4 data/zr17_mandarin downloads/zr17/kamper_mandarin.class exp/kamper

Prepares the classes (<exp-dir>/classes), scores them and writes <exp-dir>/scores/{matching,
clustering,parsing}, scores/scores.json and details/, as steps/score_tde.sh does.
"""


def get_parser():
    p = make_parser(DOC)
    p.add_argument("--benchmark", choices=("zrc2020", "zr2015", "zr2017"), default="zrc2020")
    p.add_argument("--nj", type=positive_int, default=1, help="local processes (default 1)")
    p.add_argument("--folds", default="auto", help="zr2015/zr2017: fold files prefix, auto or none")
    p.add_argument("--lenient", type=str2bool, default=False)
    p.add_argument("--workers", type=positive_int, default=1)
    p.add_argument("--end-tolerance", type=nonneg_float, default=0.01)
    add_bootstrap_options(p, "classes, recordings or speakers")
    p.add_argument("--bootstrap-unit", choices=("file", "speaker"), default="file")
    p.add_argument("data_dir")
    p.add_argument("class_file")
    p.add_argument("exp_dir")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    from termeval.bin import prepare_classes
    from termeval.command import run_jobs
    a = get_parser().parse_args(argv)
    boot = ["--bootstrap", str(a.bootstrap), "--seed", str(a.seed), "--ci", repr(a.ci),
            "--bootstrap-unit", a.bootstrap_unit]
    if a.benchmark != "zrc2020":
        from termeval.bin import score_tde_folds
        common = ["--benchmark", a.benchmark, "--folds", a.folds, "--lenient", str(a.lenient).lower(),
                  "--nj", str(a.nj)]
        ends = [a.data_dir, a.class_file, a.exp_dir]
        if a.nj == 1:
            score_tde_folds.main(common + ["--job", "1"] + ends)
        else:
            run_jobs("score_tde_folds", [common + ["--job", str(j)] + ends for j in range(1, a.nj + 1)],
                     a.exp_dir, "score_tde_folds")
        return score_tde_folds.main(common + boot + ["--merge", str(a.nj)] + ends)
    from termeval.bin import tde_merge, tde_stats
    prepare_classes.main(["--lenient", str(a.lenient).lower(), "--end-tolerance", repr(a.end_tolerance),
                          a.data_dir, a.class_file, a.exp_dir])
    stats = ["--nj", str(a.nj), "--workers", str(a.workers), a.data_dir, a.exp_dir]
    if a.nj == 1:
        tde_stats.main(stats + ["1"])
    else:
        run_jobs("tde_stats", [stats + [str(j)] for j in range(1, a.nj + 1)], a.exp_dir, "tde_stats")
    tde_merge.main(["--nj", str(a.nj)] + boot + [a.data_dir, a.exp_dir])
    for stage in ("matching", "clustering", "parsing"):       # as steps/score_tde.sh prints them
        with open(os.path.join(a.exp_dir, "scores", stage), encoding="utf-8") as f:
            sys.stderr.write("".join(f"{stage}: {line}" for line in f))
    return 0


def module(name: str) -> Any:
    if name != "score_tde":
        raise ModuleNotFoundError(f"No module named 'termeval.bin.{name}'", name=f"termeval.bin.{name}")
    return types.SimpleNamespace(__name__="termeval.bin.score_tde", __doc__=DOC, get_parser=get_parser,
                                 main=main)


def run_in_process(mod: Any, argv: list[str], exp: str | None) -> dict:
    """mod.main(argv) into `exp` (or a temporary exp dir replacing the last argument); the
    scores.json it wrote (its stdout dropped; stderr: api._quiet)."""
    with tempfile.TemporaryDirectory(prefix="termeval-exp-") as tmp:
        d = exp if exp is not None else tmp
        with contextlib.redirect_stdout(io.StringIO()):
            mod.main(argv[:-1] + [d])
        with open(os.path.join(d, "scores", "scores.json"), encoding="utf-8") as f:
            return json.load(f)
