"""The options of term discovery scoring (steps/score_tde.sh, termeval.score_tde): one
TdeOptions for the five benchmarks of the registry (termeval/tde/registry.py).

An option a benchmark does not read must keep its default: `check_combination` refuses a value
given for a benchmark that would ignore it (one line naming the option and the benchmark).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from termeval.core.errors import InputError
from termeval.core.options import (BootstrapOptions, JobOptions, ReportOptions, nonneg_real, option, or_none,
                                   path_value, positive)
from termeval.tde.registry import BENCHMARKS

SEED_MODES = ("zr2015-doc", "lrec2014")

# The options each benchmark reads (besides lenient, the bootstrap and the job options).
OPTION_READERS: dict[str, tuple[str, ...]] = {
    "folds": ("zr2015", "zr2017", "zr2015-doc", "lrec2014"),
    "measures": ("zr2015", "zr2017"),
    "workers": ("zrc2020",),
    "end_tolerance": ("zrc2020", "zr2015-doc", "lrec2014"),          # the class preparation
    "pairs_clustering": ("zrc2020", "zr2015-doc", "lrec2014"),
    "bootstrap_unit": ("zrc2020", "zr2015", "zr2017"),                # the seed modes: no bootstrap
}



@dataclass(frozen=True, kw_only=True)
class TdeOptions(BootstrapOptions, JobOptions, ReportOptions):
    """Options of score_tde (docs/tde.md)."""
    benchmark: str = option("zrc2020", "the term discovery benchmark", choices=tuple(BENCHMARKS))
    lenient: bool = option(False, "zrc2020: passed to the class preparation (termeval/classes/parse.py); "
                                  "zr2015/zr2017: accept what the original tool silently accepted, with counts")
    end_tolerance: float = option(0.01, "zrc2020: fragments ending at most this far past their file's end "
                                        "are clipped", check=nonneg_real)
    pairs_clustering: str = option("pairs", "zrc2020, zr2015-doc, lrec2014 with a pairs file: one class per "
                                            "pair or the connected components of the pairs as classes (as "
                                            "steps/prepare_classes.sh)", choices=("pairs", "components"))
    workers: int = option(1, "zrc2020: edit-distance threads", check=positive)
    folds: str = option("auto", "zr2015/zr2017: <prefix> of .split/.intervals.cross/.intervals.within"
                                "[/.classes], 'none' (whole corpus; within = one fold per speaker) or 'auto'; "
                                "zr2015-doc: none|equal:N|auto (= equal:10); lrec2014: "
                                "none|random:BxFRAC[:SEED]|auto (= random:50x0.04:777)")
    measures: str = option("all", "zr2015/zr2017: comma list of matching,ned,coverage,grouping,token_type,"
                                  "boundary")
    bootstrap_unit: str = option("file", "resampling unit of the non-class metrics", choices=("file", "speaker"))
    # the share of the run this process computes (the driver's --job J / --merge N; None: all)
    job: int | None = option(None, "job J of --nj: its share of the units", check=or_none(positive), cli=False)
    merge: int | None = option(None, "score from the N job outputs", check=or_none(positive), cli=False)
    data_dir: str = option(doc="prepared gold data dir", positional=True, role="input", check=path_value,
                           metavar="data-dir")
    class_file: str = option(doc="discovered-class (or pairs) file", positional=True, role="input",
                             check=path_value, metavar="class-file")
    exp_dir: str | None = option(None, "where classes/, scores/, details/ and units/ are written (None: "
                                 "nothing is written)", positional=True, role="output", metavar="exp-dir")

    def check_combination(self) -> str | None:
        b = self.benchmark
        if b in SEED_MODES and self.bootstrap:
            return f"--bootstrap: not available with --benchmark {b}"
        defaults = {f.name: f.default for f in dataclasses.fields(self)}
        for name, readers in OPTION_READERS.items():
            value = getattr(self, name)
            if b not in readers and value != defaults[name]:
                return (f"--{name.replace('_', '-')} {value}: not read by --benchmark {b} "
                        f"(an option of {', '.join(readers)})")
        if b in SEED_MODES:
            from termeval.tde.seeddoc.folds import parse_folds   # numpy: not for --help
            try:
                parse_folds(self.folds, b)
            except InputError as e:
                return e.format()
        return None
