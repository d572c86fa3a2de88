"""The options of word/phone segmentation scoring (steps/score_segmentation.sh,
termeval.score_segmentation)."""
from __future__ import annotations

import os
from dataclasses import dataclass

from termeval.core.options import BootstrapOptions, JobOptions, nonneg_real, option, path_value, positive_real



def stage_name_for(level: str) -> str:
    """The stage's name at a level (the name of its logs, shards and score files)."""
    return "segmentation" if level == "word" else f"segmentation_{level}"


@dataclass(frozen=True, kw_only=True)
class SegmentationOptions(BootstrapOptions, JobOptions):
    """Options of score_segmentation (docs/segmentation.md). No rule across options: the upper
    bound of --tolerance (a unit slip, termeval.segmentation.checks) is checked when the stage
    loads, as an input check (one line, exit 1)."""
    data_dir: str = option(doc="prepared gold data dir", positional=True, role="input", check=path_value,
                           metavar="data_dir")
    segmentation: str = option(doc="a class file, an interval file or a vqwordseg intervals/ dir",
                               positional=True, role="input", check=path_value, metavar="segmentation")
    tolerance: float = option(0.02, "seconds", check=nonneg_real)
    frame_shift: float = option(0.01, "seconds per frame", check=positive_real)
    level: str = option("word", "reference tier: words, phones or syllables (prepare_gold --syllables)",
                        choices=("word", "phone", "syllable"))
    compat: str = option("none", "definitions: termeval's or kamperh/vqwordseg's", choices=("none", "vqwordseg"))
    segments: str = option("auto", "Kaldi segments file of the utterances; auto: <data-dir>/segments if "
                                   "present, else whole files; none: whole files", check=path_value)
    bootstrap_unit: str = option("file", "resampling unit: recordings or speakers", choices=("file", "speaker"))
    exp_dir: str | None = option(None, "where scores/, details/ and units/ are written (None: nothing is "
                                 "written)", positional=True, role="output", metavar="exp_dir")

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
