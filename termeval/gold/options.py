"""The options of the gold preparation (steps/prepare_gold.sh, termeval.prepare_gold) and of
the data dir check and export (utils/validate_alignment_dir.sh, utils/export_zr.sh)."""
from __future__ import annotations

from dataclasses import dataclass

from termeval.core.errors import InputError
from termeval.core.options import OptionError, StepOptions, boolean, int_between, nonneg_real, option, path_value

DEFAULT_SILENCE_LABELS = ("SIL", "sil", "sp", "NSN")
SYLLABLE_FORMATS = ("auto", "zr", "textgrid", "sdhubert-json")     # termeval/gold/syllables.py reads them

FORMATS = ("zr", "ctm", "textgrid", "discophon")
INPUT_COUNT = {"zr": 3, "ctm": 3, "textgrid": 2, "discophon": 2}     # inputs + the data dir


def _paths(value: object, text: str | None = None) -> None:
    if not isinstance(value, (tuple, list)):
        raise OptionError(f"expected a list of paths, got {type(value).__name__}")
    for x in value:
        path_value(x)


@dataclass(frozen=True, kw_only=True)
class GoldOptions(StepOptions):
    """Options of prepare_gold. `inputs`: the input files then the data dir (the step's
    positional arguments, as the command line gives them)."""
    format: str | None = option(None, "input format", choices=FORMATS)
    phones_txt: str = option("", "ctm: phones.txt mapping integer phone ids", role="input")
    words_txt: str = option("", "ctm: words.txt mapping integer word ids", role="input")
    segments: str = option("", "ctm, textgrid: Kaldi segments (CTM keys / TextGrid names are utterances)",
                           role="input")
    strip_position: bool = option(True, "ctm: strip _B/_I/_E/_S from phones")
    words_tier: str = option("words", "textgrid: word tier name")
    phones_tier: str = option("phones", "textgrid: phone tier name")
    utt2spk: str = option("", "'<file> <speaker>' map (overrides --spk-rule)", role="input")
    spk_rule: str = option("auto", "auto|whole|prefix:N|field:SEP:K")
    sil_label: str = option("SIL", "label of silence phones")
    silence_labels: str = option(" ".join(DEFAULT_SILENCE_LABELS),
                                 "phone labels meaning silence (empty marks always)")
    fill_gaps: bool = option(True, "label gaps as silence")
    drop_silence: bool = option(False, "remove input silence phones first")
    sort: bool = option(False, "sort intervals instead of rejecting out-of-order ones")
    boundary_tolerance: float = option(0.001, "max distance (s) of a word edge from a phone edge",
                                       check=nonneg_real)
    snap_words: bool = option(False, "move word edges onto the nearest phone edge")
    time_decimals: int = option(6, "ctm/textgrid: round times to this many decimals", check=int_between(0, 9))
    strip_stress: bool = option(False, "strip a final stress digit from phones (AH1 -> AH)")
    syllables: str = option("", "a syllable alignment added as the tier `syllables`: a '<file> <onset> <offset> "
                                "<label>' file, a TextGrid dir or SD-HuBERT's syllable JSON", role="input")
    syllables_format: str = option("auto", "reader of --syllables (auto: a dir is textgrid, *.json "
                                           "sdhubert-json, else zr)", choices=SYLLABLE_FORMATS)
    syllables_tier: str = option("syllables", "textgrid --syllables: the syllable tier name")
    inputs: tuple = option((), "the input files, then the data dir", check=_paths, positional=True, many=True)

    @property
    def sources(self) -> list[str]:
        """The input files (not the data dir)."""
        return list(self.inputs[:-1])

    @property
    def data_dir(self) -> str:
        return self.inputs[-1]

    def check_combination(self) -> str | None:
        n = INPUT_COUNT.get(self.format or "")
        if n is not None and len(self.inputs) != n:
            return f"--format {self.format} takes {n} arguments, got {len(self.inputs)}"
        if not self.sil_label or any(c.isspace() for c in self.sil_label):
            return "--sil-label must be one non-empty token"
        return None


@dataclass(frozen=True, kw_only=True)
class ValidateOptions(StepOptions):
    """Options of validate_alignment_dir."""
    boundary_tolerance: float = option(0.001, "max distance (s) of a word edge from a phone edge",
                                       check=nonneg_real)
    sil_label: str = option("SIL", "label of silence phones")
    data_dir: str = option(doc="prepared gold data dir", positional=True, role="input", check=path_value,
                           metavar="data_dir")


@dataclass(frozen=True, kw_only=True)
class ExportZrOptions(StepOptions):
    """Options of export_zr."""
    drop_sil: bool = option(False, "leave out phones labelled --sil-label", check=boolean)
    sil_label: str = option("SIL", "label of silence phones")
    data_dir: str = option(doc="prepared gold data dir", positional=True, role="input", check=path_value,
                           metavar="data_dir")
    out_phn: str = option(doc="the .phn file written", positional=True, role="output", check=path_value,
                          metavar="out_phn")
    out_wrd: str = option(doc="the .wrd file written", positional=True, role="output", check=path_value,
                          metavar="out_wrd")


def from_command_line(opts: GoldOptions) -> GoldOptions:
    """The command line names the input format (the API may infer it from the inputs)."""
    if opts.format is None:
        raise InputError("the following arguments are required: --format")
    return opts
