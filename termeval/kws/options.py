"""The options of the kws data dir preparation (steps/prepare_kws.sh, termeval.prepare_kws)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from termeval.core.options import StepOptions, boolean, option, path_value, seconds_up_to, text_value


def _or_none(check: Any) -> Any:
    def checked(value: Any, text: str | None = None) -> None:
        if value is not None:
            check(value, text)
    checked.__name__ = f"{check.__name__}_or_none"
    return checked


def _file(doc: str) -> Any:
    return option(None, doc, role="input", check=_or_none(path_value))


@dataclass(frozen=True, kw_only=True)
class PrepareKwsOptions(StepOptions):
    """Options of prepare_kws: the kws dir of a data dir and a keyword list."""
    data_dir: str = option(doc="a termeval data dir (words, utt2spk, reco2dur) or a Kaldi data dir with a "
                               "word CTM", positional=True, role="input", check=path_value, metavar="data_dir")
    kws_dir: str = option(doc="the kws dir written (replaced whole)", positional=True, role="output",
                          check=path_value, metavar="kws_dir")
    keywords: str | None = _file("`kwid word ...` lines or a plain word list")
    kwlist: str | None = _file("KWLIST (or TLIST) XML")
    plain_list: bool | None = option(None, "true: every line of --keywords is a keyword text (ids generated); "
                                           "default: a plain list iff every line is a single word",
                                     check=_or_none(boolean))
    frame_shift: float = option(0.01, "hitlist frame length (s), in (0, 1]", check=seconds_up_to(1.0))
    ecf_source_type: str = option("splitcts", "ECF source_type: bnews, cts, splitcts (F4DE counts it half), "
                                              "confmtg", check=text_value)
    language: str = option("english", "language attribute of ecf.xml/kwlist.xml", check=text_value)
    ctm: str | None = _file("word CTM of a Kaldi data dir (default <data-dir>/ctm)")
    words_txt: str | None = _file("Kaldi words.txt: OOV category")
    lexicon: str | None = _file("Kaldi lexicon.txt: Phones category")
