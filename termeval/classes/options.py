"""The options of the class preparation (steps/prepare_classes.sh)."""
from __future__ import annotations

from dataclasses import dataclass

from termeval.core.options import StepOptions, nonneg_real, option, path_value

PAIRS_CLUSTERINGS = ("pairs", "components")
DEFAULT_TOLERANCE = 1e-6
DEFAULT_END_TOLERANCE = 0.01  # one 10 ms frame


@dataclass(frozen=True, kw_only=True)
class ClassesOptions(StepOptions):
    """Options of prepare_classes (termeval/classes/parse.py: the syntax and the lenient actions)."""
    lenient: bool = option(False, "drop/truncate bad fragments and count them instead of failing")
    format: str = option("auto", "input format (auto: detected from the first non-blank line)",
                         choices=("auto", "class", "pairs"))
    tolerance: float = option(DEFAULT_TOLERANCE, "seconds a fragment may end after the file end", check=nonneg_real)
    end_tolerance: float = option(DEFAULT_END_TOLERANCE, "a fragment ending at most this many seconds after its "
                                  "file's end is clipped to the end and counted (fragments_clipped_to_end); one "
                                  "frame: submissions write 3 decimals where gold ends have 4", check=nonneg_real)
    pairs_clustering: str = option("pairs", "pairs files: one class per pair (pairs) or the connected "
                                   "components of the pairs graph as classes (components)",
                                   choices=PAIRS_CLUSTERINGS)
    data_dir: str = option(doc="prepared gold data dir (its reco2dur)", positional=True, role="input",
                           check=path_value, metavar="data_dir")
    class_file: str = option(doc="discovered-class or pairs file", positional=True, role="input",
                             check=path_value, metavar="class_file")
    exp_dir: str = option(doc="where classes/ and scores/prepare are written", positional=True, role="output",
                          check=path_value, metavar="exp_dir")
