"""The options of term discovery scoring (steps/score_tde.sh, termeval.score_tde): one
TdeOptions for every benchmark of termeval/tde/benchmarks.py.

An option a benchmark does not read (its record's `reads`) must keep its default:
`check_combination` refuses a value given for a benchmark that would ignore it (one line naming
the option and the benchmarks that read it).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from termeval.core.errors import InputError
from termeval.core.face import spell
from termeval.core.options import (BootstrapOptions, JobOptions, OptionError, ReportOptions, nonneg_real, option,
                                   path_value, positive)
from termeval.tde.benchmarks import BENCHMARKS, COMMON_OPTIONS, ZR15_MEASURES, benchmark, readers
from termeval.tde.foldspec import parse_folds


def measure_list(value: object, text: str | None = None) -> None:
    """--measures: all, or a comma list of the measure groups."""
    if not isinstance(value, str):
        raise OptionError(f"expected a comma list as a string, got {value!r}")
    bad = sorted(set(value.split(",")) - set(ZR15_MEASURES)) if value != "all" else []
    if bad:
        raise OptionError(f"unknown measure(s) {bad}; expected all or a comma list of {','.join(ZR15_MEASURES)}")


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
    measures: str = option("all", f"zr2015/zr2017: all, or a comma list of {','.join(ZR15_MEASURES)}",
                           check=measure_list)
    bootstrap_unit: str = option("file", "resampling unit of the non-class metrics", choices=("file", "speaker"))
    data_dir: str = option(doc="prepared gold data dir", positional=True, role="input", check=path_value,
                           metavar="data-dir")
    class_file: str = option(doc="discovered-class (or pairs) file", positional=True, role="input",
                             check=path_value, metavar="class-file")
    exp_dir: str | None = option(None, "where classes/, scores/, details/ and units/ are written",
                                 positional=True, role="output", metavar="exp-dir")

    def check_combination(self) -> str | None:
        b = benchmark(self.benchmark)
        if not b.bootstrap and self.bootstrap:
            return f"{spell('bootstrap')}: not available with {spell('benchmark', b.name)}"
        for f in dataclasses.fields(self):
            if f.name in COMMON_OPTIONS or f.name in b.reads or getattr(self, f.name) == f.default:
                continue
            return (f"{spell(f.name, getattr(self, f.name))}: not read by {spell('benchmark', b.name)} "
                    f"(an option of {', '.join(readers(f.name))})")
        if b.seed is not None:
            try:
                parse_folds(self.folds, b.name)
            except InputError as e:
                return e.format()
        return None
