"""The options of unit scoring: steps/score_units.sh (termeval.score_units) and
steps/score_discophon.sh (termeval.score_discophon)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from termeval.core.declaration import Measure, Table, measures
from termeval.core.options import BootstrapOptions, JobOptions, OptionError, ReportOptions, nonneg, option, path_value
from termeval.units.languages import EVALUATED_SPLITS, LANGUAGES

KINDS = ("many-to-one", "one-to-one")
FORMATS = ("auto", "text", "ark", "jsonl", "npy")           # of the units (termeval/units/readers.py)


def frame_shift_value(value: object, text: str | None = None) -> None:
    """Seconds per unit: a whole multiple of the 10 ms gold frames, up to 1 s."""
    shown = text if text is not None else str(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise OptionError(f"expected seconds, got '{shown}'")
    ms = value * 1000
    if not 0 < value <= 1 or abs(ms - round(ms / 10) * 10) > 1e-6:
        raise OptionError(f"must be a multiple of 0.01 s (the 10 ms gold frames) in (0, 1], got '{shown}'")


def step_units_value(value: object, text: str | None = None) -> None:
    """discophon's --step-units: whole ms, a multiple of its 10 ms phone step."""
    shown = text if text is not None else str(value)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0 or value % 10 or value > 1000:
        raise OptionError(f"must be a multiple of 10 ms (discophon's phone step) up to 1000, got '{shown}'")


def _comma_list(allowed: tuple[str, ...], what: str):
    def check(value: object, text: str | None = None) -> None:
        if not isinstance(value, str):
            raise OptionError(f"expected a comma list, got {value!r}")
        for x in filter(None, value.split(",")):
            if x not in allowed:
                raise OptionError(f"unknown {what} '{x}' (choose from {', '.join(allowed)})")
    check.__name__ = f"{what}_list"
    return check


@dataclass(frozen=True, kw_only=True)
class UnitsOptions(BootstrapOptions, JobOptions, ReportOptions):
    """Options of score_units (docs/units.md)."""
    data_dir: str = option(doc="prepared gold data dir (steps/prepare_gold.sh, any --format)", positional=True,
                           role="input", check=path_value, metavar="data_dir")
    units: str = option(doc="the units: a Kaldi text or binary archive, discophon .jsonl, or a dir of .npy",
                        positional=True, role="input", check=path_value, metavar="units")
    frame_shift: float = option(0.02, "seconds per unit (a multiple of the 10 ms gold frames)",
                                check=frame_shift_value)
    compat: str = option("discophon", "definitions and numerics: discophon 0.2.0's or fairseq's "
                                      "measure_teacher_quality.py (docs/units.md)", choices=("discophon", "fairseq"))
    kind: str = option("many-to-one", "mapping of units to phones for PER and boundaries", choices=KINDS)
    n_units: int = option(0, "number of units (ids must lie below it); 0: the largest id + 1, or the phone "
                             "classes with --kind one-to-one", check=nonneg)
    n_phonemes: int = option(0, "phonemes of the inventory, silence not counted (rows: n + 1); 0: the gold's "
                                "labels", check=nonneg)
    units_format: str = option("auto", "auto, text (Kaldi text archive), ark (Kaldi binary, kaldiio), jsonl "
                                       "(discophon), npy (a dir of <utt>.npy)", choices=FORMATS)
    off_grid: str = option("error", "gold phones off the 10 ms grid: error (discophon's rule) or centre (each "
                                    "frame takes the phone at its centre)", choices=("error", "centre"))
    bootstrap_unit: str = option("file", "resampling unit: recordings or speakers", choices=("file", "speaker"))
    exp_dir: str | None = option(None, "where scores/, details/ and units/ are written",
                                 positional=True, role="output", metavar="exp_dir")

    def stage_name(self) -> str:
        return "units"

    def check_combination(self) -> str | None:
        if self.kind == "one-to-one" and self.n_units and self.n_phonemes and self.n_units != self.n_phonemes + 1:
            return (f"--kind one-to-one needs --n-units = --n-phonemes + 1 (a square matrix), got "
                    f"{self.n_units} and {self.n_phonemes}")
        return None


@dataclass(frozen=True, kw_only=True)
class DiscophonOptions(BootstrapOptions, JobOptions, ReportOptions):
    """Options of score_discophon: `python -m discophon.benchmark <dataset> <predictions> <output>
    --benchmark discovery --kind K --step-units S`."""
    TEXTGRIDS = False     # the timeline keeps the first files of each pair only (core/options.py ReportOptions)
    NO_TEXTGRIDS = ("score_discophon keeps the first --report-files files of each (language, split) for "
                    "report.html's timeline only; steps/score_units.sh writes the TextGrids of one pair (its "
                    "alignment file prepared with steps/prepare_gold.sh --format discophon)")
    dataset: str = option(doc="the discophon dataset dir (only its alignment/ is read)", positional=True,
                          role="input", check=path_value, metavar="dataset_dir")
    predictions: str = option(doc="the dir of units-<lang>-<split>.jsonl files", positional=True, role="input",
                              check=path_value, metavar="predictions_dir")
    kind: str = option("many-to-one", "many-to-one (256 units) or one-to-one (phonemes + 1 units)", choices=KINDS)
    step_units: int = option(20, "ms between units (a multiple of 10)", check=step_units_value)
    languages: str = option("", "comma list of ISO 639-3 codes scored (default: every one with units)",
                            check=_comma_list(tuple(LANGUAGES), "language"))
    splits: str = option("", "comma list of splits scored (default: dev,test)",
                         check=_comma_list(EVALUATED_SPLITS, "split"))
    exp_dir: str | None = option(None, "where scores.jsonl, scores/, details/ and units/ are written",
                                 positional=True, role="output", metavar="output_dir")

    def stage_name(self) -> str:
        return "discophon"


def stage_name(opts: UnitsOptions | DiscophonOptions) -> str:
    """The name of a run's logs and shards (termeval/steps: Step.stage_name)."""
    return opts.stage_name()


# ----------------------------------------------------------------------------- result tables

UNITS_TABLE = Table("units", (
    *measures(("pnmi", "phone_purity", "cluster_purity")), Measure("per", lower_is_better=True),
    *measures(("boundary_precision", "boundary_recall", "boundary_fscore"), percent=True),
    *measures(("boundary_rvalue", "ref_entropy", "hyp_entropy", "mutual_information", "ref_segment_length",
               "hyp_segment_length"))),
    ("pnmi", "phone_purity", "cluster_purity", "per", "boundary_precision", "boundary_recall", "boundary_fscore",
     "boundary_rvalue", "ref_entropy", "mutual_information"))
# discophon's pairs (scores/discophon_<code>_<split>): <code>_<split>_pnmi, _per, _f1, _r_val
DISCOPHON_TABLE = Table("discophon", tuple(
    m for code in LANGUAGES for split in EVALUATED_SPLITS
    for m in (Measure(f"{code}_{split}_pnmi"), Measure(f"{code}_{split}_per", lower_is_better=True),
              Measure(f"{code}_{split}_f1"), Measure(f"{code}_{split}_r_val"))))
TABLES = (UNITS_TABLE, DISCOPHON_TABLE)
