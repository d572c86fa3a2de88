"""The class preparation step (steps/prepare_classes.sh, termeval.prepare_classes): a class
or pairs file checked against the data dir's reco2dur and written as <exp-dir>/classes/ plus
its counts as <exp-dir>/scores/prepare (scores.json updated, not replaced). `task` gives the
one-shot task the caller runs through termeval.run.driver.run_task (written whole or not at all)."""
from __future__ import annotations

import os
import shutil
from typing import Callable

from termeval.classes.components import pairs_to_components
from termeval.classes.parse import COUNT_NAMES, parse_class_file, read_reco2dur, write_class_dir
from termeval.classes.records import PreparedClasses
from termeval.core.errors import InputError
from termeval.core.scores import Metric, write_scores

OUTPUTS = ("classes", "scores/prepare", "scores/scores.json")


def parse(opts) -> PreparedClasses:
    """The classes of opts.class_file (a ClassesOptions), checked against opts.data_dir; pairs
    made connected components with --pairs-clustering components."""
    if not os.path.isfile(opts.class_file):
        raise InputError("no such class file", opts.class_file)
    durations = read_reco2dur(opts.data_dir)
    prep = parse_class_file(opts.class_file, durations, lenient=opts.lenient, fmt=opts.format,
                            tolerance=opts.tolerance, end_tolerance=opts.end_tolerance)
    if opts.pairs_clustering == "components":
        prep = pairs_to_components(prep)
    return prep


def task(opts, prep: PreparedClasses) -> tuple[str, tuple[str, ...], Callable[[str], None]]:
    """(exp_dir, outputs, write) of the prepared classes: run_task's arguments."""
    def write(out: str) -> None:
        old = os.path.join(opts.exp_dir, "scores", "scores.json")     # updated, not replaced
        if os.path.isfile(old):
            os.makedirs(os.path.join(out, "scores"))
            shutil.copy2(old, os.path.join(out, "scores", "scores.json"))
        write_class_dir(prep, os.path.join(out, "classes"), lenient=opts.lenient)
        write_scores(out, "prepare", [Metric(k, prep.counts[k]) for k in COUNT_NAMES], benchmark=None)
    return opts.exp_dir, OUTPUTS, write
