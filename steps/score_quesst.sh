#!/usr/bin/env bash
# QUESST-style per-document scoring (MediaEval QUESST 2014/2015 kit): every (query, document)
# pair is a trial; detections are reduced to the maximum score per pair and unreported
# trials take --default-score. Reports actual/maximum TWV with the threshold, actual/minimum
# Cnxe and the per-query calibration bounds (upper-bound TWV, lower-bound Cnxe), prints the
# kit's five headline lines (actTWV: ... maxTWV: ... Threshold: ... / actCnxe: ... minCnxe: ...)
# and writes <exp-dir>/scores/quesst (+ scores.json) and <exp-dir>/details/quesst/.
#
# Usage: steps/score_quesst.sh [options] <kws-data-dir> <detections> <exp-dir>
#  e.g.: steps/score_quesst.sh --default-score -10 data/example_std/kws \
#          exp/example_std/detections.stdlist.xml exp/example_std
#
# <kws-data-dir>: ECF + RTTM + term list (ecf.xml|*.ecf.xml, rttm|*.rttm,
#   tlist.xml|kwlist.xml|*.tlist.xml|*.kwlist.xml|keywords.txt), e.g. a Kaldi kws dir or a
#   QUESST groundtruth_quesst2015_dev dir; or the simple lists documents, queries and
#   targets (`<query> <document>` per line).
# <detections>: STDLIST / KWSLIST XML, Kaldi `kwid utt start end score`, or
#   `<query> <document> <score> [YES|NO]` lines.
#
# Options:
#   --default-score <x|min>   # default min (the minimum submitted score, seed eq. 42);
#                             # s3prl/SUPERB pass -10
#   --p-target <p>            # default 0.0008 (QUESST kit)
#   --c-miss <c>              # default 100
#   --c-fa <c>                # default 1
#   --eff-prior <p>           # default "" (computed; the kit passes bc's 0.0741289)
#   --act-threshold <bayes|x> # default bayes: ln((1-P_tar)/P_tar), the LLR Bayes threshold
#   --use-decisions <bool>    # default false; true: actTWV from the YES/NO decisions
#   --format <auto|xml|kaldi|pairs>  # default auto
#   --breakdown <list>        # attr:NAME,ngram,freq,oov,qtype; default "" = ngram,freq
#                             # (+oov with --lexicon, +qtype when query types are known); none
#   --lexicon <words.txt>     # default "" (needed by the oov breakdown)
#   --freq-bins <list>        # default 1,2,5,10 (target-document-count bins)
#   --p-at <list>             # default 10 (scores/quesst_operating: mean P@N, MAP, R-prec)
#   --nj <n>                  # default 1; jobs: the queries are split into n ranges of about
#                             # equal numbers of detections, reduced to (query, document) pairs in
#                             # parallel and merged; identical output for any n
#   --cmd <launcher>          # default $cmd from the environment, else termeval's utils/run.pl
#   --bootstrap <n>           # default 0 (off); resamples of queries: intervals of actTWV, maxTWV,
#                             # upper-bound TWV, actCnxe, minCnxe (docs/uncertainty.md)
#   --seed <s> / --ci <level> # default 777 / 0.95
#   --report <true|false>     # default true; <exp-dir>/report.html (docs/report.md)
#   --report-files <n>        # default 20; recordings in report.html's timeline
#   --textgrids <true|false>  # default false; true is refused (no timeline)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
default_score=min
p_target=0.0008
c_miss=100
c_fa=1
eff_prior=
act_threshold=bayes
use_decisions=false
format=auto
nj=1
cmd=$te_default_cmd
bootstrap=0
seed=777
ci=0.95
breakdown=
lexicon=
freq_bins=1,2,5,10
p_at=10
report=true
report_files=20
textgrids=false
# End configuration section.

echo "$0 $*" >&2

. "$TERMEVAL_ROOT/utils/parse_options.sh"

[ $# -eq 3 ] || te_usage
set -euo pipefail

kws=$1
det=$2
dir=$3

opts=(--default-score "$default_score" --p-target "$p_target" --c-miss "$c_miss" --c-fa "$c_fa"
      --act-threshold "$act_threshold" --use-decisions "$use_decisions" --format "$format"
      --bootstrap "$bootstrap" --seed "$seed" --ci "$ci")
[ -n "$eff_prior" ] && opts+=(--eff-prior "$eff_prior")
opts+=(--breakdown "$breakdown" --freq-bins "$freq_bins" --p-at "$p_at" ${lexicon:+--lexicon "$lexicon"})
te_report_options
# every option is checked by the step's Options (termeval/quesst/options.py), before anything runs
te_check_options score_quesst --nj "$nj" "${opts[@]}" "$kws" "$det" "$dir"
te_check_dir "kws data dir" "$kws"
te_check_file "detection file" "$det"
te_check_launcher
te_check_writable "$dir/log"
te_lock "$dir" "$nj"
# one process for --nj 1 without --cmd (log/quesst.log: the stage's name, termeval/quesst/stage.py),
# else jobs (quesst.JOB.log, jobs/quesst.J.npz) + merge (quesst.merge.log); the kit's headline
# lines (details/quesst/score.out) on stdout, for scripts that grep them
te_run_stage "$dir" quesst score_quesst "$nj" "${opts[@]}" "$kws" "$det" "$dir"

echo "$0: scores in $dir/scores/quesst, kit lines in $dir/details/quesst/score.out" >&2
