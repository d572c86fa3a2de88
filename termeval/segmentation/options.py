"""The options of word/phone segmentation scoring (steps/score_segmentation.sh,
termeval.score_segmentation)."""
from __future__ import annotations

import os
from dataclasses import dataclass

from termeval.core.declaration import Measure, Table, measures, prf

from termeval.core.options import BootstrapOptions, JobOptions, OptionError, ReportOptions, StepOptions, nonneg_real, option, optional_input, \
    or_none, path_value, positive_real
from termeval.segmentation.scorer_registry import compat_choices

CONVERT_FORMATS = ("malan-list", "sdhubert-npy", "units")   # termeval.segmentation.convert



MAX_TOLERANCE = 1.0          # seconds; refused from here on (a unit slip)


def tolerance_seconds(value: object, text: str | None = None) -> None:
    """--tolerance: seconds in [0, MAX_TOLERANCE)."""
    nonneg_real(value, text)
    if value >= MAX_TOLERANCE:
        raise OptionError(f"is in seconds: {value:g} s is not a boundary tolerance (20 ms is --tolerance 0.02; "
                          f"less than {MAX_TOLERANCE:g} s accepted)")


def stage_name_for(level: str) -> str:
    """The stage's name at a level (the name of its logs, shards and score files)."""
    return "segmentation" if level == "word" else f"segmentation_{level}"


@dataclass(frozen=True, kw_only=True)
class SegmentationOptions(BootstrapOptions, JobOptions, ReportOptions):
    """Options of score_segmentation (docs/segmentation.md). --tolerance is in seconds: a second
    or more is a unit slip (`--tolerance 20` for 20 ms), refused with the other options."""
    data_dir: str = option(doc="prepared gold data dir", positional=True, role="input", check=path_value,
                           metavar="data_dir")
    segmentation: str = option(doc="a class file, an interval file or a vqwordseg intervals/ dir",
                               positional=True, role="input", check=path_value, metavar="segmentation")
    tolerance: float = option(0.02, "seconds", check=tolerance_seconds)
    frame_shift: float | None = option(None, "seconds per frame (frame input, --compat vqwordseg and the "
                                             "frame-based scorers); default: each scorer's own (0.02 for "
                                             "malan-strict/-lenient), else 0.01", check=or_none(positive_real))
    level: str = option("word", "reference tier: words, phones or syllables (prepare_gold --syllables)",
                        choices=("word", "phone", "syllable"))
    compat: str = option("none", "definitions: termeval's (none), kamperh/vqwordseg's, a published scorer's "
                                 "(docs/segmentation.md), or all of them side by side", choices=compat_choices())
    segments: str = option("auto", "Kaldi segments file of the utterances; auto: <data-dir>/segments if "
                                   "present, else whole files; none: whole files", check=path_value)
    bootstrap_unit: str = option("file", "resampling unit: recordings or speakers", choices=("file", "speaker"))
    exp_dir: str | None = option(None, "where scores/, details/ and units/ are written",
                                 positional=True, role="output", metavar="exp_dir")

    def stage_name(self) -> str:
        """The name of its logs and shards, without loading the stage (steps/score_segmentation.sh)."""
        return stage_name_for(self.level)

    def segments_file(self) -> str | None:
        """The segments file read: --segments, <data-dir>/segments for auto when present, or None."""
        if self.segments == "none":
            return None
        if self.segments == "auto":
            p = os.path.join(self.data_dir, "segments")
            return p if os.path.isfile(p) else None
        return self.segments


@dataclass(frozen=True, kw_only=True)
class ConvertSegmentsOptions(StepOptions):
    """Options of convert_segments (utils/convert_segments.sh, termeval.segmentation.convert)."""
    source_format: str | None = option(None, "the format read: malan-list, sdhubert-npy or units",
                                       choices=CONVERT_FORMATS, flag="--from")
    frame_shift: float | None = option(None, "units: seconds per unit (required with --from units)",
                                       check=or_none(positive_real))
    allow_pickle: bool = option(False, "sdhubert-npy: unpickle the files' dicts (numpy arrays and plain "
                                       "values only; for files you trust)")
    centroids: str | None = optional_input("sdhubert-npy: k-means centres, a plain (K, D) .npy; labels the "
                                           "segments by the nearest centre")
    reducer: str | None = optional_input("sdhubert-npy: a plain .npy of K integers mapping centres to clusters")
    source: str = option(doc="the papers' output: a directory of .list/.npy files, or a units file",
                         positional=True, role="input", check=path_value, metavar="source")
    output: str = option(doc="the interval file written ('<utt> <onset> <offset> [<cluster>]')",
                         positional=True, role="output", check=path_value, metavar="output")

    def check_combination(self) -> str | None:
        if self.source_format is None:
            return "--from is required (malan-list, sdhubert-npy or units)"
        if self.source_format == "units" and self.frame_shift is None:
            return "--from units needs --frame-shift (seconds per unit, e.g. 0.02)"
        if self.reducer and not self.centroids:
            return "--reducer maps --centroids' indices: give --centroids too"
        if (self.centroids or self.allow_pickle) and self.source_format != "sdhubert-npy":
            return "--centroids, --reducer and --allow-pickle apply to --from sdhubert-npy only"
        return None


# ----------------------------------------------------------------------------- result tables

_HEADLINE = ("boundary_precision", "boundary_recall", "boundary_fscore", "boundary_os", "boundary_rvalue",
             "token_fscore", "purity", "v_measure", "nmi", "o2o_accuracy")


def _level_table(family: str, level: str) -> Table:
    """The table of one --level: `<level>_` metrics (scores/<stage>)."""
    pre = level + "_"
    ms = [*prf(pre + "boundary"), *measures((pre + "boundary_os", pre + "boundary_rvalue")), *prf(pre + "token"),
          *measures(pre + m for m in ("segments", "clusters", "purity", "inverse_purity", "homogeneity",
                                      "completeness", "v_measure", "nmi", "m2o_accuracy", "o2o_accuracy"))]
    headline = [pre + m for m in _HEADLINE]
    if level == "syllable":                  # SD-HuBERT's cluster metrics (termeval.segmentation.syllables)
        ms += measures(("syllable_segment_purity", "cluster_purity", "snmi"))
        headline = headline[:6] + ["syllable_purity", "cluster_purity", "snmi"]
    return Table(family, tuple(ms), tuple(headline))


TABLES = (_level_table("segmentation", "word"), _level_table("segmentation_phone", "phone"),
          _level_table("segmentation_syllable", "syllable"))


def stage_name(opts: SegmentationOptions) -> str:
    """The name of a score_segmentation run's logs and shards (termeval/steps: Step.stage_name)."""
    return opts.stage_name()
