"""What every term discovery (TDE) benchmark shares: the benchmark registry and the class
preparation a scoring run does first.

BENCHMARKS maps a `--benchmark` name to the `module:factory` of its Stage (termeval/run/driver.py);
the factory takes the benchmark name, which is also the stage's `name`: the name of its logs
(<exp>/log/<benchmark>.log, <benchmark>.J.log, <benchmark>.merge.log) and shards
(<exp>/jobs/<benchmark>.J.npz), as steps/score_tde.sh, `termeval score-tde` and the zrc scorer
name them. A new TDE benchmark adds one line (and its options to termeval/tde/options.py, TdeOptions). Modules are imported only when a stage is built, so `--help` and
`import termeval` stay light.

`prepare_classes` turns a class (or pairs) file into `<exp-dir>/classes` and reuses an existing
one only when the class file's bytes, the data dir's reco2dur bytes and the options are those
it was prepared from (a digest of the contents, never a path or a modification time: a
same-size rewrite within the same second is still seen), and only while its own files are
still those it wrote (their digest, in the stamp file).
"""
from __future__ import annotations

import importlib
import os
import sys
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from termeval.core import publish
from termeval.core.warn import note, warn
from termeval.core.errors import InputError

if TYPE_CHECKING:          # annotations only: tempfile is imported where a directory is made
    import tempfile

BENCHMARKS: dict[str, str] = {
    "zrc2020": "termeval.tde.zrc2020.stage:Zrc2020Stage",
    "zr2015": "termeval.tde.zr2015.stage:Zr2015Stage",
    "zr2017": "termeval.tde.zr2015.stage:Zr2015Stage",
    "zr2015-doc": "termeval.tde.seeddoc.stage:SeedStage",      # the seed documents' own definitions
    "lrec2014": "termeval.tde.seeddoc.stage:SeedStage",
}

STAMP_FILE = ".prepared_from"



def stage_for(benchmark: str) -> Any:
    """The Stage of a registered benchmark (its `name` is `benchmark`)."""
    try:
        module, factory = BENCHMARKS[benchmark].split(":")
    except KeyError:
        raise InputError(f"--benchmark: expected one of {' '.join(BENCHMARKS)}, got '{benchmark}'") from None
    return getattr(importlib.import_module(module), factory)(benchmark)


PREPARE_OPTIONS = ("lenient", "format", "tolerance", "end_tolerance")


def prepare_stamp(args: Any) -> str:
    """Identity of a class preparation: class file and reco2dur contents, options."""
    from termeval.core.digest import content_digest   # hashlib, json: not for parsing the options (PARSE_ONLY)
    opts = {k: getattr(args, k) for k in PREPARE_OPTIONS if hasattr(args, k)}
    if getattr(args, "pairs_clustering", "pairs") != "pairs":   # (absent = the default: old stamps hold)
        opts["pairs_clustering"] = args.pairs_clustering
    return content_digest([args.class_file, os.path.join(args.data_dir, "reco2dur")], opts)


def class_dir_digest(class_dir: str) -> str:
    """The digest of the prepared class dir's files (all but the stamp), as prepare_classes
    wrote them."""
    from termeval.core.digest import content_digest   # hashlib, json: not for parsing the options (PARSE_ONLY)
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


def prepare_classes(args: Any, class_dir: str, log: bool = True, keep: dict | None = None) -> tuple[str, bool]:
    """Prepare `args.class_file` into `class_dir` unless it already holds this very preparation;
    returns (stamp, whether it was prepared now). `keep`, if given, receives the parsed
    preparation as keep["prep"] (a caller scoring it at once need not read the dir back)."""
    from termeval.classes.components import pairs_to_components    # numpy: not for score_tde --help
    from termeval.classes.parse import parse_class_file, read_reco2dur, summary, write_class_dir  # numpy: not for --help
    from termeval.core.textio import atomic_write    # numpy (textfast): not for score_tde --help
    if not os.path.isfile(args.class_file):
        raise InputError("no such class file", args.class_file)
    stamp = prepare_stamp(args)
    if prepared(class_dir, stamp):
        return stamp, False
    kw = {k: getattr(args, k) for k in ("tolerance", "end_tolerance") if hasattr(args, k)}
    if hasattr(args, "format"):
        kw["fmt"] = args.format
    prep = parse_class_file(args.class_file, read_reco2dur(args.data_dir), lenient=args.lenient, **kw)
    if getattr(args, "pairs_clustering", "pairs") == "components":
        prep = pairs_to_components(prep)
    prog = os.path.basename(sys.argv[0])
    for note in prep.notes:
        print(f"{prog}: note: {note}", file=sys.stderr)
    write_class_dir(prep, class_dir, lenient=args.lenient)
    if keep is not None:
        keep["prep"] = prep
    digest = class_dir_digest(class_dir)
    with atomic_write(os.path.join(class_dir, STAMP_FILE)) as f:
        f.write(f"{stamp}\nfiles {digest}\n")
    if log:
        print(f"{prog}: prepared {args.class_file} -> {publish.shown(class_dir)}: {summary(prep)}", file=sys.stderr)
    return stamp, True


def temp_class_dir() -> "tempfile.TemporaryDirectory":
    """Where the classes of a run without an exp dir (the Python API) are prepared."""
    import tempfile    # shutil, random, lzma...: not for parsing the options (PARSE_ONLY)
    return tempfile.TemporaryDirectory(prefix="termeval-classes-")


def coverage_warnings(values: Mapping[str, Any]) -> list[str]:
    """One warning line when a coverage value exceeds 1 (zr2015/zr2017 count the phones of
    overlapping discovered fragments twice, as the original tool does; any benchmark is
    checked). Spreads (_std) and fold counts (_nfolds) are not coverages."""
    over = [(k, v) for k, v in values.items() if "coverage" in k and not k.endswith(("_std", "_nfolds"))
            and isinstance(v, (int, float)) and not isinstance(v, bool) and v > 1]
    if not over:
        return []
    shown = ", ".join(f"{k} {v:.6f}" for k, v in over)
    return [f"{shown} > 1: the phones of overlapping discovered fragments are counted once per "
            "fragment (twice for two overlapping fragments), as the original tool does; coverage "
            "is not a fraction of the corpus here"]


def print_warnings(lines: Iterable[str]) -> None:
    """`<step>: warning: <line>` on stderr for each line."""
    for w in lines:
        warn(None, w)
