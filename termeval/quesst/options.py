"""The options of QUESST per-document scoring (steps/score_quesst.sh, termeval.score_quesst)."""
from __future__ import annotations

from dataclasses import dataclass

from termeval.core.declaration import Measure, Table, measures

from termeval.core.options import (
    BootstrapOptions, JobOptions, ReportOptions, number_list, number_or, open_probability, option, or_none, path_value, positive_real)


@dataclass(frozen=True, kw_only=True)
class QuesstOptions(BootstrapOptions, JobOptions, ReportOptions):
    """Options of score_quesst: every (query, document) pair is a trial (docs/std-metrics.md)."""
    TEXTGRIDS = False     # no recording tiers: --textgrids true is refused (core/options.py ReportOptions)
    kws_dir: str = option(doc="ECF + RTTM + term list (a Kaldi kws dir or a QUESST groundtruth_* "
                              "dir), or the lists documents, queries, targets",
                          positional=True, role="input", check=path_value, metavar="kws-data-dir")
    detections: str = option(doc="STDLIST, KWSLIST, Kaldi `kwid utt start end score`, or "
                                 "`<query> <document> <score> [YES|NO]` lines",
                             positional=True, role="input", check=path_value)
    p_target: float = option(0.0008, "prior of a target trial (QUESST kit)", check=open_probability)
    c_miss: float = option(100.0, "cost of a miss", check=positive_real)
    c_fa: float = option(1.0, "cost of a false alarm", check=positive_real)
    eff_prior: float | None = option(None, "use this effective prior instead (the kit passes bc's 0.0741289)",
                                     check=or_none(open_probability),
                                     parse=float)
    default_score: float | str = option("min", "score of unreported trials: a number (SUPERB: -10) or 'min' "
                                        "(the minimum submitted score, seed eq. 42)",
                                        check=number_or("min"), parse=lambda t: t if t == "min" else float(t))
    act_threshold: float | str = option("bayes", "actTWV threshold: 'bayes' = ln((1-P_tar)/P_tar) for LLR "
                                        "scores, or a number", check=number_or("bayes"),
                                        parse=lambda t: t if t == "bayes" else float(t))
    use_decisions: bool = option(False, "actTWV from the YES/NO decisions of the detections instead")
    format: str = option("auto", "format of the detections", choices=("auto", "xml", "kaldi", "pairs"))
    breakdown: str = option("", "comma list of attr:NAME, ngram, freq, oov, qtype; 'none' for none (default: "
                                "ngram,freq, + oov with --lexicon, + qtype when query types are known)")
    lexicon: str | None = option(None, "words.txt: queries with a word not in it are OOV", role="input")
    freq_bins: str = option("1,2,5,10", "lower edges of the target-document-count bins")
    p_at: str = option("10", "mean precision at these ranks (comma list)", check=number_list(1, integer=True))
    exp_dir: str | None = option(None, "where scores/, details/ and units/ are written",
                                 positional=True, role="output", metavar="exp-dir")


# ----------------------------------------------------------------------------- result tables

QUESST_TABLE = Table("quesst", (
    *measures(("act_twv", "act_p_miss", "act_p_fa", "max_twv", "max_twv_threshold", "max_p_miss", "max_p_fa",
               "ub_twv")),
    *measures(("act_cnxe", "min_cnxe"), lower_is_better=True),
    *measures(("min_cnxe_gamma", "min_cnxe_delta", "min_cnxe_pav")),
    *measures(("lb_cnxe", "lb_min_cnxe"), lower_is_better=True),
    Measure("quesst_calibration_loss", lower_is_better=True),
    *measures(("quesst_effective_prior", "quesst_beta", "default_score", "n_queries",
               "n_unseen_queries", "n_documents", "n_trials", "n_target_trials", "n_given", "n_default",
               "n_system_detections", "n_duplicates", "n_outside_documents"))),
    ("act_twv", "max_twv", "max_twv_threshold", "act_cnxe", "min_cnxe", "ub_twv", "lb_cnxe"))
# scores/quesst_operating: names follow --p-at (its table shows them in the order written)
QUESST_OPERATING_TABLE = Table("quesst_operating", measures(("quesst_map", "quesst_map_f4de",
                                                             "quesst_mean_r_precision")))
TABLES = (QUESST_TABLE, QUESST_OPERATING_TABLE)
