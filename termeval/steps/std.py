"""The spoken term detection steps: score_std, its KWSEval face, score_quesst, prepare_kws and
the processing load (measure_resources, score_resources)."""
from __future__ import annotations

from termeval.core.declaration import Step
from termeval.kws.options import PrepareKwsOptions
from termeval.quesst.options import QuesstOptions
from termeval.quesst.options import TABLES as QUESST_TABLES
from termeval.resources.options import TABLES as RESOURCES_TABLES
from termeval.resources.options import MeasureOptions, ResourcesOptions
from termeval.std.options import TABLES as STD_TABLES
from termeval.std.options import StdOptions

SCORE_STD = Step(
    "score_std", StdOptions,
    "Score a spoken term detection system (STD / QbE-STD / KWS) the way MediaEval SWS 2013 and "
    "NIST F4DE KWSEval do.",
    """\
Score a spoken term detection system (STD / QbE-STD / KWS) the way MediaEval SWS 2013 and NIST
F4DE KWSEval do (--compat kaldi: as Kaldi's compute-atwv and local/kws/score.sh): ATWV, MTWV
(+ threshold), OTWV, STWV, Pmiss/Pfa, Cnxe, Cmin_nxe, counts, the per-term table, the alignment
CSV, DET points and plots.

<kws-data-dir>: ecf.xml + rttm + tlist.xml|kwlist.xml, or Kaldi hitlist (+ utt.map, segments,
  frame_length, utt2dur|reco2dur|trials, keywords.txt).
<detections>: STDLIST or KWSLIST XML, or Kaldi text `kwid utt start end score` (auto-detected).
Writes <exp-dir>/scores/std, <exp-dir>/scores/std_operating (FA/hour at recall, recall at
FA/hour, MAP, F4DE's MAP, mean P@N, mean R-precision), <exp-dir>/scores/scores.json (with the
per-group headline values under "breakdowns" -> "std"), <exp-dir>/details/ (per_term.tsv,
ranking_per_term.tsv, breakdown_<kind>.tsv, ...) and the per-term statistics
<exp-dir>/units/units.std_term.npz (steps/compare_systems.sh); with --bootstrap N, percentile
intervals of ATWV/MTWV/OTWV over terms (docs/uncertainty.md). --compat kaldi is scored whole
(compute-atwv's float32 running means follow the whole list). Definitions: docs/std-metrics.md.""",
    stage="termeval.std.stage:stage_of", stage_name="std", jobs="terms", shell="steps/score_std.sh",
    tables=STD_TABLES)

KWSEVAL = Step(
    "kwseval", StdOptions,
    "NIST F4DE KWSEval's command line over termeval's STD engine.",
    "KWSEval's own command line (Perl Getopt::Long rules; docs/std-kaldi-compat.md).",
    own_cli=True, shell="utils/KWSEval", api=False)

SCORE_QUESST = Step(
    "score_quesst", QuesstOptions,
    "QUESST-style per-document scoring: every (query, document) pair is a trial.",
    """\
QUESST-style per-document scoring: every (query, document) pair is a trial.

<kws-data-dir>: ECF + RTTM + term list (a Kaldi kws dir or a QUESST groundtruth_* dir), or the
simple lists `documents`, `queries`, `targets` (`<query> <document>`).
<detections>: STDLIST, KWSLIST, Kaldi `kwid utt start end score`, or `<query> <document>
<score> [YES|NO]` lines. Detections are reduced to the maximum score per (query, document);
unreported trials take --default-score. Queries that occur nowhere are removed.
Writes <exp-dir>/scores/quesst (+ scores.json), <exp-dir>/details/quesst/score.out (the kit's
five headline lines, also printed on stdout), details/quesst/per_query, scores/quesst_operating
(quesst_map, quesst_map_f4de, quesst_mean_p_at_N, quesst_mean_r_precision over the ranked
documents of each query), details/quesst/ranking_per_query.tsv, details/quesst/breakdown_<kind>.tsv
and the per-group headline values in scores.json under "breakdowns" -> "quesst". Keys that
score_std also writes are named quesst_effective_prior, n_target_trials and n_system_detections
here, so both can share one exp dir. Per-query statistics: <exp-dir>/units/units.quesst_query.npz
(steps/compare_systems.sh); with --bootstrap N, percentile intervals of act_twv, max_twv,
ub_twv, act_cnxe, min_cnxe over queries (docs/uncertainty.md). Definitions: docs/std-metrics.md.""",
    stage="termeval.quesst.stage:stage_of", stage_name="quesst", jobs="queries", shell="steps/score_quesst.sh",
    tables=QUESST_TABLES)

SCORE_RESOURCES = Step(
    "score_resources", ResourcesOptions,
    "Processing-load figures of MediaEval SWS 2013: ISF, SSF, PMU and PL.",
    """\
Processing-load figures of MediaEval SWS 2013 (Rodriguez-Fuentes and Penagarikano 2013 §4.3,
docs/std.md §5): ISF, SSF, PMU and PL.

Phase figures come from <exp-dir>/resources/{index,search} (utils/measure_resources.sh), or from
--resources-file (docs/std.md §5.2 layout: [audio] t_omega_s/t_query_s, [index]/[search] cpu_s
or wall_s+cores and pmu_gb, [report] lambda/ssf_unit/hardware), which wins where it gives a
value. Command-line options win over both.
T_audio: the ECF's excerpt duration (overlaps merged) of <reference> (a kws dir with ecf.xml
or *.ecf.xml, an ECF file, a data dir with reco2dur, or a reco2dur-style file); t_omega_s in the
resources file overrides it unless it says auto.
T_query (all query examples, seed eq. 47), first found of: --query-durations FILE
(`<example-id> <seconds>`, e.g. a query data dir's utt2dur), --query-duration SECONDS,
t_query_s in the resources file (a number or auto:FILE), <kws-data-dir>/query2dur, and a term
list whose every term has a `duration` attribute (terminfo/kwinfo, seconds).
ISF = index CPU / T_audio; SSF = search CPU / (T_query x T_audio), per hour (default) or per
second; PMU in GB (2^30 bytes); PL = lambda*ISF*PMU_i + (1-lambda)*SSF*PMU_s with SSF in the
chosen unit. Written to <exp-dir>/scores/resources and scores.json; the figures are printed on
stdout.""",
    stage="termeval.resources.stage:stage_of", stage_name="resources", shell="steps/score_resources.sh",
    tables=RESOURCES_TABLES)

MEASURE_RESOURCES = Step(
    "measure_resources", MeasureOptions,
    "Run a command and record its CPU time, wall time and peak memory over its whole process tree.",
    """\
Run the command after -- and record its CPU time, wall time and peak memory over its whole
process tree (children, grandchildren, re-parented orphans), plus the host's CPU model and
cores. Writes <exp-dir>/resources/<phase> (key=value lines) and exits with the command's exit
status (128+N if it was killed by signal N). The file is written even when the command fails,
with its exit_status, so steps/score_resources.sh can refuse it (how CPU time and peak memory
are measured: docs/std.md §5.2).""",
    task="termeval.resources.record:run", show="termeval.resources.record:show", rest="command",
    shell="utils/measure_resources.sh")

PREPARE_KWS = Step(
    "prepare_kws", PrepareKwsOptions,
    "Build a keyword-search data dir from word alignments and a keyword list.",
    """\
Build a keyword-search data dir (ecf.xml, rttm, kwlist.xml, hitlist, utt.map, trials,
keywords.txt, categories, frame_length) from word alignments and a keyword list, for
steps/score_std.sh (both modes), Kaldi's local/kws/score.sh and F4DE's KWSEval.

<data-dir>: a termeval data dir (`words`, `utt2spk`, `reco2dur`: steps/prepare_gold.sh), or a
  Kaldi data dir with a word CTM (`ctm` in it, or --ctm) plus segments/utt2dur/reco2dur/utt2spk.
Keywords: --keywords FILE (`kwid word ...` lines, or a plain list of single words which get ids
  KW-0001, ...) or --kwlist KWLIST/TLIST XML. Multi-word keywords occur where F4DE finds them:
  successive words of the same speaker at most 0.5 s apart. A keyword that never occurs is kept
  (F4DE and compute-atwv leave it out of the averages) and listed in a warning.
The kws dir is written whole beside its old one and replaces it; a kws dir that is, or holds,
an input (the data dir) is refused.""",
    task="termeval.kws.prepare:run", show="termeval.kws.prepare:show", shell="steps/prepare_kws.sh")
