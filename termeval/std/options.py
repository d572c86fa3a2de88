"""The options of spoken term detection scoring (steps/score_std.sh, termeval.score_std)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from termeval.core.errors import InputError
from termeval.core.declaration import Measure, Table, measures
from termeval.core.options import (
    BootstrapOptions, JobOptions, OptionError, ReportOptions, boolean, finite, nonneg_real, number_list, open_probability,
    option, optional_input, or_none, path_value, positive_real, text_value)

PRESETS = ("sws2013", "nist2006", "sws2012", "quesst")



def term_attr_spec(value: Any, text: str | None = None) -> None:
    """--term-attr NAME:REGEX (or NAME:regex=REGEX), the regex compiled now."""
    from termeval.std.termlist import parse_term_attr    # textio -> numpy: not for score_std --help
    text_value(value, text)
    try:
        parse_term_attr(value)
    except InputError as e:
        raise OptionError(e.message.removeprefix("--term-attr: ")) from None



def term_norm_spec(value: Any, text: str | None = None) -> None:
    """--term-normalization: a comma list of charsplit, notASCII, deleteHyphens (or empty)."""
    from termeval.std.textnorm import parse_modes    # numpy: not for score_std --help
    text_value(value, text)
    try:
        parse_modes(value)
    except InputError as e:
        raise OptionError(e.message.removeprefix("--term-normalization: ")) from None


def file_channels_spec(value: Any, text: str | None = None) -> None:
    """--file-channels: a comma list of FILE/CHAN regular expressions, each compiled now."""
    from termeval.std.userregex import UserRegex    # regex, defusedxml: not for score_std --help
    text_value(value, text)
    for rx in (r for r in value.split(",") if r):
        try:
            UserRegex(rx, "--file-channels", ignore_case=True, perl_anchored=True)
        except InputError as e:
            raise OptionError("bad regular expression" + e.message.split("invalid regular expression", 1)[1]) from None


def global_measures_spec(value: Any, text: str | None = None) -> None:
    """--f4de-global-measures: a comma list of MAP, MAPpct (or empty)."""
    text_value(value, text)
    bad = [m for m in value.split(",") if m and m not in ("MAP", "MAPpct")]
    if bad:
        raise OptionError(f"unknown measure '{bad[0][:40]}' (MAP, MAPpct)")


@dataclass(frozen=True, kw_only=True)
class StdOptions(BootstrapOptions, JobOptions, ReportOptions):
    """Options of score_std: ATWV, MTWV, OTWV, STWV, Cnxe, ... (docs/std-metrics.md)."""
    kws_dir: str = option(doc="ecf.xml + rttm + tlist.xml|kwlist.xml, or Kaldi hitlist (+ utt.map, segments, "
                              "frame_length, utt2dur|reco2dur|trials, keywords.txt)",
                          positional=True, role="input", check=path_value, metavar="kws_dir")
    detections: str = option(doc="STDLIST or KWSLIST XML, or Kaldi text `kwid utt start end score` (auto-detected)",
                             positional=True, role="input", check=path_value)
    exp_dir: str | None = option(None, "where scores/, details/ and units/ are written",
                                 positional=True, role="output", metavar="exp_dir")
    preset: str | None = option(None, "operating point (default sws2013; --compat kaldi: compute-atwv's own "
                                      "unless given)", choices=PRESETS)
    p_target: float | None = option(None, "prior of a target (overrides the preset)",
                                    check=or_none(open_probability))
    c_miss: float | None = option(None, "cost of a miss (overrides the preset)", check=or_none(positive_real))
    c_fa: float | None = option(None, "cost of a false alarm (overrides the preset)",
                                check=or_none(positive_real))
    trials_per_sec: float = option(1.0, "trials per term = round(rate x duration) (F4DE divides: see --compat)",
                                   check=positive_real)
    include_notarget_terms: bool = option(False, "F4DE -inc: terms without references enter the FA average",
                                          check=boolean)
    align: str = option("f4de", "f4de (one-to-one maximum matching, F4DE tie-breaks) or kaldi (greedy)",
                        choices=("f4de", "kaldi"))
    tolerance: float = option(0.5, "seconds between a detection's mid-point and the reference span",
                              check=nonneg_real)
    find_threshold: float = option(0.5, "seconds allowed between two words of a multi-word term in the "
                                        "reference (F4DE -F)", check=nonneg_real)
    compat: str = option("none", "f4de: F4DE KWSEval's rules; kaldi: compute-atwv's numbers "
                                 "(docs/std-kaldi-compat.md)", choices=("none", "f4de", "kaldi"))
    cmin: str = option("newton", "newton (affine recalibration, seed eq. 44) or pav (lower bound)",
                       choices=("newton", "pav"))
    default_score: float | None = option(None, "score of censored trials for Cnxe (default: the minimum "
                                               "submitted score)", check=or_none(finite))
    decision_threshold: float = option(0.5, "YES iff score >= this, for detections without a decision "
                                            "(Kaldi text)", check=finite)
    format: str = option("auto", "format of the detections", choices=("auto", "stdlist", "kwslist", "kaldi"))
    ecf: str | None = optional_input("override <kws-data-dir>/ecf.xml")
    rttm: str | None = optional_input("override <kws-data-dir>/rttm")
    termlist: str | None = optional_input("override tlist.xml/kwlist.xml")
    term_attr: str | None = option(None, "NAME:REGEX, score only terms whose attribute matches (F4DE -q)",
                                   check=or_none(term_attr_spec))
    source_type: str | None = option(None, "comma-separated ECF source types to score (F4DE -Y)",
                                     check=or_none(text_value))
    term_attr_mode: str = option("pooled", "--term-attr: pooled (one set of the matching terms) or "
                                           "per-value (one condition per attribute value, F4DE -q)",
                                 choices=("pooled", "per-value"))
    alignment: str = option("occurrence", "occurrence (F4DE default) or segment (F4DE -g: one trial per "
                                          "RTTM speech/non-speech segment)", choices=("occurrence", "segment"))
    term_normalization: str = option("", "F4DE -x: comma list of charsplit, notASCII, deleteHyphens "
                                         "(split term and RTTM words into characters)", check=term_norm_spec)
    f4de_report_format: str = option("txt", "--f4de-reports: txt, csv or both (F4DE -y TXT|CSV)",
                                     choices=("txt", "csv", "both"))
    f4de_global_measures: str = option("", "--f4de-reports: comma list of MAP, MAPpct (F4DE -zG): a "
                                           "Global Measures column group", check=global_measures_spec)
    just_system_terms: bool = option(False, "F4DE -j: score only the terms with a detected_kwlist/"
                                            "detected_termlist block (even an empty one) in the "
                                            "detections (segment alignment: leave out only the terms "
                                            "without any trial, as F4DE)", check=boolean)
    file_channels: str = option("", "F4DE -N: comma list of FILE/CHAN regular expressions (anchored, "
                                    "case-insensitive); references, detections and the ECF duration "
                                    "are kept only for matching file/channels (segment alignment: "
                                    "their segments)", check=file_channels_spec)
    write_alignment: bool = option(True, "write details/alignment.csv", check=boolean)
    plots: bool = option(True, "draw det/twv plots", check=boolean)
    breakdown: str = option("", "comma list of attr:NAME, ngram, freq, oov, phones (default mode), "
                                "categories:FILE (--compat kaldi); 'none' for no breakdown "
                                "(default: ngram,freq, plus oov when --lexicon is given)", check=text_value)
    lexicon: str | None = optional_input("words.txt (oov breakdown) or lexicon.txt (phones breakdown, first pronunciation)")
    freq_bins: str = option("1,2,5,10", "lower edges of the reference-count bins", check=text_value)
    fa_per_hour: str = option("1,10", "report recall at these FA/hour (comma list)", check=number_list(0.0))
    recall: str = option("0.5", "report FA/hour at these recalls (comma list)", check=number_list(0.0, 1.0))
    p_at: str = option("10", "report mean precision at these ranks (comma list)",
                       check=number_list(1, integer=True))
    kst: bool = option(False, "--compat kaldi: results hold costs -ln(p); keyword-specific thresholding "
                              "as Kaldi's normalize_results_kst.pl", check=boolean)
    ntrue_scale: str = option("", "KST ntrue scale (default 1.0), or 'auto': score.sh's sweep", check=text_value)
    nbest: str = option("", "--compat kaldi: filter_kws_results.pl --probs --nbest N", check=text_value)
    f4de_reports: bool = option(False, "write sum.txt and bsum.txt in F4DE KWSEval's text layout: in "
                                       "details/, or in f4de/ with --compat kaldi", check=boolean)

    def check_combination(self) -> str | None:
        """--compat kaldi cannot take sws2012's prior (termeval.std.kaldi.atwv.kaldi_costs) nor
        F4DE's segment alignment, term normalisation or per-value conditions."""
        if self.compat == "kaldi" and (self.alignment != "occurrence" or self.term_normalization
                                       or self.term_attr_mode != "pooled"):
            return ("--alignment segment, --term-normalization and --term-attr-mode per-value are F4DE "
                    "KWSEval's (default or --compat f4de mode), not compute-atwv's (--compat kaldi)")
        if self.compat == "kaldi" and (self.just_system_terms or self.file_channels):
            return "--just-system-terms and --file-channels are F4DE KWSEval's, not compute-atwv's (--compat kaldi)"
        if self.compat == "kaldi" and self.preset == "sws2012" and self.p_target is None:
            return ("--preset sws2012 with --compat kaldi: compute-atwv has no prior derived from the "
                    "reference count; give --p-target (its --prior-kw-probability)")
        return None

    @property
    def scored_preset(self) -> str:
        """The operating point of the default (F4DE-like) mode: --preset, else sws2013."""
        return self.preset or "sws2013"


# ----------------------------------------------------------------------------- result tables

# the RESULTS.md tables of score_std (termeval/results): the metrics of scores/std, in the
# order the engine writes them (termeval/std/report.py), then those only --compat kaldi writes
# (compute-atwv's and kws_oracle_threshold.pl's); the metrics of scores/std_operating, whose
# names follow --recall, --fa-per-hour and --p-at (its table shows them in the order written)
STD_MEASURES = (
    *measures(("atwv", "mtwv", "mtwv_threshold", "otwv", "stwv", "p_miss", "p_fa", "p_miss_at_mtwv",
               "p_fa_at_mtwv")),
    *measures(("cnxe", "cmin_nxe"), lower_is_better=True),
    *measures(("effective_prior", "n_terms", "n_targets", "n_detections", "n_hits", "n_false_alarms", "n_misses",
               "actual_threshold", "beta")),
    Measure("c_det", lower_is_better=True), Measure("c_default"), Measure("c_norm", lower_is_better=True),
    Measure("calibration_loss", lower_is_better=True))
KALDI_MEASURES = (*measures(("oracle_otwv", "oracle_mtwv")), Measure("lattice_recall", percent=True))
STD_TABLE = Table("std", STD_MEASURES + KALDI_MEASURES,
                  ("atwv", "mtwv", "otwv", "p_miss", "p_fa", "c_norm", "cnxe", "cmin_nxe", "calibration_loss",
                   "n_terms"))
STD_OPERATING_TABLE = Table("std_operating", measures(("map", "map_f4de", "mean_r_precision")))
TABLES = (STD_TABLE, STD_OPERATING_TABLE)
