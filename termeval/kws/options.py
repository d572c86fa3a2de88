"""The options of the kws data dir preparation (steps/prepare_kws.sh, termeval.prepare_kws)."""
from __future__ import annotations

from dataclasses import dataclass

from termeval.core.options import StepOptions, boolean, option, optional_input, or_none, path_value, seconds_up_to, text_value




@dataclass(frozen=True, kw_only=True)
class PrepareKwsOptions(StepOptions):
    """Options of prepare_kws: the kws dir of a data dir and a keyword list."""
    data_dir: str = option(doc="a termeval data dir (words, utt2spk, reco2dur) or a Kaldi data dir with a "
                               "word CTM", positional=True, role="input", check=path_value, metavar="data_dir")
    kws_dir: str = option(doc="the kws dir written (replaced whole)", positional=True, role="output",
                          check=path_value, metavar="kws_dir")
    keywords: str | None = optional_input("`kwid word ...` lines or a plain word list")
    kwlist: str | None = optional_input("KWLIST (or TLIST) XML")
    plain_list: bool | None = option(None, "true: every line of --keywords is a keyword text (ids generated); "
                                           "default: a plain list iff every line is a single word",
                                     check=or_none(boolean))
    frame_shift: float = option(0.01, "hitlist frame length (s), in (0, 1]", check=seconds_up_to(1.0))
    ecf_source_type: str = option("splitcts", "ECF source_type: bnews, cts, splitcts (F4DE counts it half), "
                                              "confmtg", check=text_value)
    language: str = option("english", "language attribute of ecf.xml/kwlist.xml", check=text_value)
    ctm: str | None = optional_input("word CTM of a Kaldi data dir (default <data-dir>/ctm)")
    words_txt: str | None = optional_input("Kaldi words.txt: OOV category")
    lexicon: str | None = optional_input("Kaldi lexicon.txt: Phones category")
