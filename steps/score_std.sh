#!/usr/bin/env bash
# Score a spoken term detection / query-by-example system (MediaEval SWS 2013, NIST STD 2006,
# BABEL/Kaldi KWS): ATWV, MTWV (+threshold), OTWV, STWV, Pmiss/Pfa, Cnxe, Cmin_nxe, counts,
# C_Det/C_Default/C_Norm and the calibration loss (docs/std-metrics.md), per-term table,
# alignment CSV, DET points, det.png/det.pdf and twv.png/twv.pdf.
#
# Usage: steps/score_std.sh [options] <kws-data-dir> <detections> <exp-dir>
#  e.g.: steps/score_std.sh data/example_std/kws data/example_std/detections.stdlist.xml exp/example_std
#
# <kws-data-dir>: ecf.xml + rttm + tlist.xml|kwlist.xml, or Kaldi style hitlist (+ utt.map,
#   segments, frame_length, utt2dur|reco2dur|trials, keywords.txt).
# <detections>: STDLIST or KWSLIST XML, or Kaldi text 'kwid utt start end score' (auto-detected).
# Outputs: <exp-dir>/scores/std (also printed on stdout, after a '# <exp-dir>: preset ..., p_target
#   ..., c_miss ..., c_fa ..., beta ...' line; --compat kaldi: compute-atwv's lines), <exp-dir>/scores/scores.json,
#   <exp-dir>/details/, <exp-dir>/units/, <exp-dir>/log/std.log (--nj N: std.JOB.log,
#   std.merge.log; std is the stage's name). A failed run leaves the outputs of the previous
#   one as they were.
#
# Options (default):
#   --preset ""               sws2013 (P_target 0.00015, C_miss 100, C_fa 1: beta 66.66; the default),
#                             nist2006 (beta 999.9), sws2012 (beta from the true occurrences), quesst;
#                             --compat kaldi: compute-atwv's own costs (beta 999.9) unless given
#   --p-target X --c-miss X --c-fa X   explicit operating point (overrides the preset)
#   --trials-per-sec 1        trials per term = round(rate x duration) (F4DE divides: see --compat)
#   --include-notarget-terms false     F4DE -inc: terms without references enter the FA average
#   --align f4de              f4de (one-to-one maximum matching, F4DE tie-breaks) | kaldi (greedy)
#   --tolerance 0.5           seconds between a detection's mid-point and the reference span
#   --compat none             f4de: F4DE's duration rule, N = round(T / rate), abort on
#                             inconsistent YES/NO decisions; kaldi: Kaldi compute-atwv's own numbers
#                             (greedy alignment, float32 TWV, 20-point MTWV/OTWV grid, its
#                             "aproximate ATWV = ..." lines; docs/std-kaldi-compat.md)
#   --kst false               --compat kaldi: the results hold costs -ln(posterior) and go through
#                             keyword-specific thresholding as Kaldi's normalize_results_kst.pl
#   --ntrue-scale ""          KST ntrue scale (default 1.0), or auto: local/kws/score.sh's sweep
#                             1, 1.2, ..., 5 (best ATWV; details/ntrue, scoring/score.N.txt)
#   --nbest ""                --compat kaldi: filter_kws_results.pl --probs --nbest N (the auto
#                             sweep uses 200 unless given); see docs/std-kaldi-compat.md
#   --f4de-reports false      also write sum.txt and bsum.txt (F4DE KWSEval layout): in details/,
#                             or in f4de/ with --compat kaldi (as score.sh's KWSEval stage)
#   --cmin newton             newton (affine recalibration, seed eq. 44) | pav (lower bound)
#   --default-score ""        score of censored trials for Cnxe (default: the minimum submitted score)
#   --decision-threshold 0.5  YES iff score >= this, for detections without a decision (Kaldi text)
#   --term-attr ""            NAME:REGEX, score only the terms whose kwinfo attribute matches (F4DE -q)
#   --source-type ""          comma-separated ECF source types to score; NAME:TYPES keeps every
#                             excerpt and adds the condition NAME (F4DE -Y, conditional reports)
#   --term-attr-mode pooled   --term-attr: pooled (the matching terms scored as one set) or
#                             per-value (one condition per attribute value, as F4DE -q; with
#                             --f4de-reports: details/cond.sum.txt, details/cond.bsum.txt)
#   --alignment occurrence    occurrence | segment (F4DE -g: one trial per RTTM speech/non-speech
#                             segment of the ECF excerpts; docs/std-metrics.md)
#   --term-normalization ""   F4DE -x: comma list of charsplit, notASCII, deleteHyphens (term
#                             texts and RTTM words split into characters, e.g. Cantonese)
#   --just-system-terms false F4DE -j: score only the terms with a detected_kwlist/detected_termlist
#                             block (even an empty one) in the detections
#   --file-channels ""        F4DE -N: comma list of FILE/CHAN regexes (anchored, any case): only the
#                             references, detections and ECF duration of matching file/channels
#   --f4de-report-format txt  --f4de-reports as txt, csv or both (F4DE -y TXT|CSV)
#   --f4de-global-measures "" --f4de-reports: MAP,MAPpct columns (F4DE -zG MAP -zG MAPpct)
#   --ecf "" --rttm "" --termlist ""   use these files instead of the ones in <kws-data-dir>
#   --write-alignment true    write details/alignment.csv
#   --plots true              draw det/twv plots
#   --breakdown ""            comma list of attr:NAME,ngram,freq,oov,phones ("" = ngram,freq [+oov]; none):
#                             details/breakdown_<kind>.tsv + scores.json "breakdowns";
#                             --compat kaldi: categories:FILE -> details/per-category-score.txt
#   --lexicon ""              words.txt for the oov breakdown, lexicon.txt for phones
#   --freq-bins 1,2,5,10      reference-count bins of the freq breakdown
#   --fa-per-hour 1,10        scores/std_operating: recall at these FA/hour
#   --recall 0.5              scores/std_operating: FA/hour at these recalls
#   --p-at 10                 scores/std_operating: mean precision at these ranks (+ MAP, R-prec)
#   --nj 1                    jobs: the terms are split into N ranges of about equal numbers of
#                             detections, aligned in parallel and merged; identical output for any N
#                             (--compat kaldi is scored whole in the merge step)
#   --cmd CMD                 job launcher ($cmd from the environment, else termeval's utils/run.pl)
#   --bootstrap 0 --seed 777 --ci 0.95   resamples of terms for ATWV/MTWV/OTWV intervals (0 = off)
#   --report true             <exp-dir>/report.html: scores, settings, warnings, plots, tables and
#                             a timeline of the first recordings (docs/report.md)
#   --report-files 20         recordings in report.html's timeline
#   --textgrids false         true: details/textgrids/<file>.TextGrid: reference words, hits, false
#                             alarms, misses per keyword, for Praat

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
preset=
p_target=
c_miss=
c_fa=
trials_per_sec=1
include_notarget_terms=false
align=f4de
tolerance=0.5
compat=none
cmin=newton
default_score=
decision_threshold=0.5
term_attr=
term_attr_mode=pooled
source_type=
alignment=occurrence
term_normalization=
just_system_terms=false
file_channels=
ecf=
rttm=
termlist=
write_alignment=true
plots=true
breakdown=
lexicon=
freq_bins=1,2,5,10
fa_per_hour=1,10
recall=0.5
p_at=10
kst=false
ntrue_scale=
nbest=
f4de_reports=false
f4de_report_format=txt
f4de_global_measures=
nj=1
cmd=$te_default_cmd
bootstrap=0
seed=777
ci=0.95
report=true
report_files=20
textgrids=false
# End configuration section.

echo "$0 $*" >&2
. "$TERMEVAL_ROOT/utils/parse_options.sh"

[ $# -eq 3 ] || te_usage
set -euo pipefail

kws=$1
dets=$2
dir=$3


opts=(${preset:+--preset "$preset"} --trials-per-sec "$trials_per_sec"
      --include-notarget-terms "$include_notarget_terms" --align "$align" --tolerance "$tolerance"
      --compat "$compat" --cmin "$cmin" --decision-threshold "$decision_threshold"
      --write-alignment "$write_alignment" --plots "$plots" --bootstrap "$bootstrap" --seed "$seed" --ci "$ci")
[ -n "$p_target" ] && opts+=(--p-target "$p_target")
[ -n "$c_miss" ] && opts+=(--c-miss "$c_miss")
[ -n "$c_fa" ] && opts+=(--c-fa "$c_fa")
[ -n "$default_score" ] && opts+=(--default-score "$default_score")
[ -n "$term_attr" ] && opts+=(--term-attr "$term_attr")
[ -n "$source_type" ] && opts+=(--source-type "$source_type")
[ -n "$ecf" ] && opts+=(--ecf "$ecf")
[ -n "$rttm" ] && opts+=(--rttm "$rttm")
[ -n "$termlist" ] && opts+=(--termlist "$termlist")
opts+=(--kst "$kst" --ntrue-scale "$ntrue_scale" --nbest "$nbest" --f4de-reports "$f4de_reports")
opts+=(--term-attr-mode "$term_attr_mode" --alignment "$alignment" --f4de-report-format "$f4de_report_format")
[ -n "$term_normalization" ] && opts+=(--term-normalization "$term_normalization")
opts+=(--just-system-terms "$just_system_terms")
[ -n "$file_channels" ] && opts+=(--file-channels "$file_channels")
[ -n "$f4de_global_measures" ] && opts+=(--f4de-global-measures "$f4de_global_measures")
opts+=(--breakdown "$breakdown" --freq-bins "$freq_bins" --fa-per-hour "$fa_per_hour" --recall "$recall" --p-at "$p_at" ${lexicon:+--lexicon "$lexicon"})
te_report_options
# every option is checked by the step's Options (termeval/std/options.py), before anything runs
te_check_options score_std --nj "$nj" "${opts[@]}" "$kws" "$dets" "$dir"
te_check_dir "kws data dir" "$kws"
te_check_file "detection file" "$dets"
te_check_launcher
te_check_writable "$dir/log"
te_lock "$dir" "$nj"

# one process for --nj 1 without --cmd (log/std.log: the stage's name, termeval/std/stage.py),
# else jobs (std.JOB.log, jobs/std.J.npz) + merge (std.merge.log); results on stdout
te_run_stage "$dir" std score_std "$nj" "${opts[@]}" "$kws" "$dets" "$dir"
