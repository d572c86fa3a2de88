"""The class preparation step (steps/prepare_classes.sh, termeval.prepare_classes): a class
or pairs file checked against the data dir's reco2dur and written as <exp-dir>/classes/ plus
its counts as <exp-dir>/scores/prepare (scores.json updated, not replaced). `task` gives the
one-shot task the caller runs through termeval.run.driver.run_task (written whole or not at all).

The same preparation as the first part of a term discovery run (`Preparation`, `prepare_into`):
<exp-dir>/classes is reused when it holds the preparation of the same bytes and options, and
only while its own files are still those it wrote (their digest, in the stamp file)."""
from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from termeval.classes.components import pairs_to_components
from termeval.classes.parse import (COUNT_NAMES, DEFAULT_END_TOLERANCE, parse_class_file, read_reco2dur, summary,
                                    summary_of, write_class_dir)
from termeval.classes.records import PreparedClasses
from termeval.core import publish
from termeval.core.digest import content_digest
from termeval.core.errors import InputError
from termeval.core.scores import Metric, write_scores
from termeval.core.textio import atomic_write
from termeval.core.warn import note, step_name

if TYPE_CHECKING:          # annotations only: tempfile is imported where a directory is made
    import tempfile

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


# ----------------------------------------------------------------------------- a scoring run's classes

STAMP_FILE = ".prepared_from"


@dataclass(frozen=True)
class Preparation:
    """The class preparation a term discovery run does first (steps/score_tde.sh: as
    steps/prepare_classes.sh, with the scoring step's options)."""
    class_file: str
    data_dir: str
    lenient: bool = False
    end_tolerance: float = DEFAULT_END_TOLERANCE
    pairs_clustering: str = "pairs"

    def stamp(self) -> str:
        """Identity of the preparation: the class file's and reco2dur's contents, the options
        (pairs_clustering only when not the default: older stamps stay valid)."""
        opts: dict = {"lenient": self.lenient, "end_tolerance": self.end_tolerance}
        if self.pairs_clustering != "pairs":
            opts["pairs_clustering"] = self.pairs_clustering
        return content_digest([self.class_file, os.path.join(self.data_dir, "reco2dur")], opts)


def class_dir_digest(class_dir: str) -> str:
    """The digest of the prepared class dir's files (all but the stamp), as the preparation
    wrote them."""
    names = sorted(n for n in os.listdir(class_dir) if n != STAMP_FILE and not n.startswith(".termeval-"))
    return content_digest([os.path.join(class_dir, n) for n in names])


def prepared(class_dir: str, stamp: str) -> bool:
    """Whether `class_dir` holds the preparation `stamp` and its files are still what was
    written (their digest, the stamp file's second line). One with the stamp but other files
    (truncated, edited) is prepared again after a `note:` line; one of an older termeval
    (no digest) silently."""
    try:
        with open(os.path.join(class_dir, STAMP_FILE), encoding="utf-8") as f:
            lines = f.read().splitlines()
        if not lines or lines[0].strip() != stamp or not os.path.isfile(os.path.join(class_dir, "segments")):
            return False
        if len(lines) < 2 or not lines[1].startswith("files "):
            return False
        if lines[1][len("files "):].strip() == class_dir_digest(class_dir):
            return True
    except OSError:
        return False
    note(None, f"{class_dir}: prepared classes fail their check (not the files that were written): "
               "prepared again")
    return False


def prepare_into(p: Preparation, class_dir: str, log: bool = True,
                 keep: dict | None = None) -> tuple[str, bool]:
    """Prepare p.class_file into `class_dir` unless it already holds this very preparation
    (a digest of the contents, never a path or a modification time: a same-size rewrite
    within the same second is still seen); returns (stamp, whether it was prepared now).
    `keep`, if given, receives the parsed preparation as keep["prep"] (a caller scoring it at
    once need not read the dir back)."""
    if not os.path.isfile(p.class_file):
        raise InputError("no such class file", p.class_file)
    stamp = p.stamp()
    if prepared(class_dir, stamp):
        return stamp, False
    prep = parse_class_file(p.class_file, read_reco2dur(p.data_dir), lenient=p.lenient,
                            end_tolerance=p.end_tolerance)
    if p.pairs_clustering == "components":
        prep = pairs_to_components(prep)
    for n in prep.notes:
        note(None, n)
    write_class_dir(prep, class_dir, lenient=p.lenient)
    if keep is not None:
        keep["prep"] = prep
    digest = class_dir_digest(class_dir)
    with atomic_write(os.path.join(class_dir, STAMP_FILE)) as f:
        f.write(f"{stamp}\nfiles {digest}\n")
    if log:
        print(f"{step_name()}: prepared {p.class_file} -> {publish.shown(class_dir)}: {summary(prep)}",
              file=sys.stderr)
    return stamp, True


def temp_class_dir() -> "tempfile.TemporaryDirectory":
    """Where the classes of a run without an exp dir (the Python API) are prepared."""
    import tempfile    # shutil, random, lzma...: not for parsing the options (PARSE_ONLY)
    return tempfile.TemporaryDirectory(prefix="termeval-classes-")


# ----------------------------------------------------------------------------- the step (termeval/steps)


def run(opts, run_task) -> dict:
    """prepare_classes on its ClassesOptions: <exp_dir>/classes and scores/prepare written
    whole through the driver's `run_task`, its notes printed; {"classes_dir", the counts of
    scores/prepare, "notes"}."""
    prep = parse(opts)
    for n in prep.notes:
        note(None, n)
    run_task("prepare_classes", *task(opts, prep), inputs=[opts.data_dir, opts.class_file])
    return {"classes_dir": os.path.join(opts.exp_dir, "classes"), **{k: prep.counts[k] for k in COUNT_NAMES},
            "notes": list(prep.notes), "format": prep.fmt}


def show(opts, res: dict) -> None:
    """The command line's closing line (termeval.classes.parse.summary's words)."""
    print(f"{step_name()}: {opts.class_file} -> {opts.exp_dir}/classes: "
          f"{summary_of(res, res['format'])}", file=sys.stderr)
