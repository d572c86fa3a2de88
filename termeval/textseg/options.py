"""The options of the text segmentation steps: score_text_segmentation (wordseg-eval's measures),
export_text (a data dir -> texts) and text_to_times (a segmented text -> times)."""
from __future__ import annotations

import os
from dataclasses import dataclass

from termeval.core.declaration import Table, prf

from termeval.core.options import JobOptions, ReportOptions, StepOptions, option, path_value


def separator(value: str | None) -> str | None:
    """--word-sep/--unit-sep as the character(s) they name: none -> None, space, tab."""
    if value in (None, "", "none"):
        return None
    return {"space": " ", "tab": "\t"}.get(value, value)


@dataclass(frozen=True, kw_only=True)
class TextSegmentationOptions(JobOptions, ReportOptions):
    """Options of score_text_segmentation (docs/text-segmentation.md)."""
    TEXTGRIDS = False     # no recording tiers: --textgrids true is refused (core/options.py ReportOptions)
    gold: str = option(doc="the gold text: one utterance a line, words separated by spaces", positional=True,
                       role="input", check=path_value, metavar="gold")
    segmented: str = option(doc="the segmented text, line by line the gold's", positional=True, role="input",
                            check=path_value, metavar="segmented")
    compat: str = option("none", "wordseg: blank lines dropped from each file independently, its `_` "
                                 "placeholder in the type counts", choices=("none", "wordseg"))
    prepared: str | None = option(None, "the prepared text (units separated by spaces, one utterance a line): "
                                        "adds adjusted_rand_index and checks words end at unit edges",
                                  role="input")
    summary: str | None = option(None, "write the over/under/mis-segmentation summary (JSON) here", role="output")
    word_sep: str | None = option(None, "word separator (default: spaces)")
    unit_sep: str | None = option(None, "separator of the units inside a word (e.g. '-', or 'space' with "
                                        "--word-sep ';eword'); default none: units written together")
    exp_dir: str | None = option(None, "where scores/ and details/ are written",
                                 positional=True, role="output", metavar="exp_dir")

    def check_combination(self) -> str | None:
        usep = separator(self.unit_sep)
        if usep is not None and usep == (separator(self.word_sep) or " "):
            return f"--unit-sep and --word-sep are both '{usep}'"
        return None


@dataclass(frozen=True, kw_only=True)
class ExportTextOptions(StepOptions):
    """Options of export_text: the texts a text segmenter reads and is scored on."""
    data_dir: str = option(doc="prepared gold data dir", positional=True, role="input", check=path_value,
                           metavar="data_dir")
    out_dir: str = option(doc="where gold.txt, prepared.txt and utt_phones are written", positional=True,
                          check=path_value, metavar="out_dir")
    words: str = option("phones", "a word is written as its phones or its label", choices=("phones", "labels"))
    unit_sep: str = option("", "separator of the phones inside a word (default none)")
    segments: str | None = option(None, "Kaldi segments file: utterances are its spans", role="input")


@dataclass(frozen=True, kw_only=True)
class TextToTimesOptions(StepOptions):
    """Options of text_to_times: a segmented text mapped back to times through the gold phones."""
    export_dir: str = option(doc="the directory export_text wrote (its utt_phones is read)", positional=True,
                             role="input", check=path_value, metavar="export_dir")
    segmented: str = option(doc="the segmented text, line by line the export's gold.txt", positional=True,
                            role="input", check=path_value, metavar="segmented")
    out_dir: str = option(doc="where intervals and classes are written", positional=True, check=path_value,
                          metavar="out_dir")
    unit_sep: str | None = option(None, "separator of the phones inside a word (default none)")

    def utt_phones(self) -> str:
        return os.path.join(self.export_dir, "utt_phones")


# ----------------------------------------------------------------------------- result tables

# wordseg-eval's scores; the table shows its first ten in the order written
TEXT_SEGMENTATION_TABLE = Table("text_segmentation", tuple(
    m for fam in ("text_token", "text_type", "text_boundary_all", "text_boundary_noedge") for m in prf(fam)),
    ("text_token_precision", "text_token_recall", "text_token_fscore", "text_type_precision", "text_type_recall",
     "text_type_fscore", "text_boundary_all_precision", "text_boundary_all_recall", "text_boundary_all_fscore",
     "text_boundary_noedge_precision"))
TABLES = (TEXT_SEGMENTATION_TABLE,)
