#!/usr/bin/env bash
# Score a ZeroSpeech `zrc` TDE17 submission directory (zerospeech-benchmarks 0.9.4's layout)
# with termeval's zrc2020 (tdev2) metrics, as `zrc benchmarks:run tde17 <dir>` would:
#   <dir>/{english,french,mandarin,german,wolof}.txt   class files: as zrc 0.9.4, every language
#                       (or every one of --languages) must be a non-empty regular file, else the
#                       run is refused naming zrc's rule; --partial true scores those there
#                       with a warning per missing or empty one
#   <dir>/meta.yaml     checked with zrc's rules (errors and warnings name the field and line)
#   <dir>/params.yaml   njobs (the default of --nj), quiet
# Writes <dir>/scores/scores.json (zrc's file, field for field), <dir>/scores/leaderboard.json
# (zrc's TDE17 leaderboard entry: ned a float, nwords an integer), termeval's full score dirs
# <dir>/scores/termeval/<lang>/ (gold data dir, classes, scores, details, units) and
# scores/termeval/run.json (gold used, wall time per language); prints languages x headline
# metrics in percent. scores/ is replaced whole at the end: a failed run leaves it as it was.
# No grouping time limit (zrc stops grouping after 2 h).
#
# Gold: english, french and mandarin from the registry package zerospeech-tde==2.0.3
# (local/get_zr17.sh -> downloads/zr17/, or the installed `tde` package), every language from
# a zrc dataset dir (--zrc-dataset; its index.json names alignment_phones/alignment_words).
#
# A new submission (no network needed; zrc's `submission:init` downloads its template):
#   steps/score_zrc_submission.sh --init submissions/mine   # meta.yaml + params.yaml to fill in
#   cp my_system/english.txt ... submissions/mine/           # the class files, <lang>.txt
#   $EDITOR submissions/mine/meta.yaml                       # replace every "<...>" value
#   steps/score_zrc_submission.sh submissions/mine           # refused while a placeholder is left
# meta.yaml has every field of zrc 0.9.4's tde17 template; params.yaml zrc's defaults (njobs 1,
# quiet false). --init never overwrites an existing meta.yaml or params.yaml (refused, one line).
#
# Usage: steps/score_zrc_submission.sh [options] <submission-dir>
#        steps/score_zrc_submission.sh --init <submission-dir>
#  e.g.: steps/score_zrc_submission.sh --nj 2 submissions/kamper
#        steps/score_zrc_submission.sh --zrc-dataset ~/zr-data/datasets/zrc2017-test-dataset \
#            --languages english,wolof submissions/mine
#
# Options:
#   --init <dir>          # write the submission template (meta.yaml, params.yaml) into <dir>, score nothing
#   --zrc-dataset <dir>   # default $APP_DIR/datasets/zrc2017-test-dataset (APP_DIR default ~/zr-data)
#   --languages <list>    # default: every <lang>.txt present; comma-separated subset
#   --nj <n>              # default: params.yaml njobs, else 1; jobs per language
#   --bootstrap <n>       # default 0; resamples for termeval's confidence intervals (at most 100000)
#   --partial <bool>      # default false; true: score the languages there (a warning per
#                         # missing or empty class file) where zrc refuses the submission
#   --cmd <launcher>      # default: run here; given, the scoring runs as one job of the
#                         # launcher (e.g. "queue.pl --mem 8G --num-threads 4"), log in
#                         # <dir>/scores.log
#   --report <true|false> # default true; scores/termeval/<lang>/report.html (docs/report.md)
#   --report-files <n>    # default 20; recordings in report.html's timeline
#   --textgrids <true|false> # default false; <lang>'s details/textgrids/<file>.TextGrid (zrc2020's
#                             # tiers)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
init=
zrc_dataset=
languages=
nj=
bootstrap=0
partial=false
cmd=$te_default_cmd
report=true
report_files=20
textgrids=false
# End configuration section.

echo "$0 $*" >&2

. "$TERMEVAL_ROOT/utils/parse_options.sh"

if [ -n "$init" ]; then
  [ $# -eq 0 ] || te_die "--init <dir> writes a template and scores nothing: give no submission directory with it"
  # the scoring options go along, so that one given with --init is refused, not ignored
  exec "${te_python[@]}" -m termeval.bin.score_zrc_submission --init "$init" --bootstrap "$bootstrap" \
    --partial "$partial" ${zrc_dataset:+--zrc-dataset "$zrc_dataset"} ${languages:+--languages "$languages"} \
    ${nj:+--nj "$nj"}
fi
[ $# -eq 1 ] || te_usage
set -euo pipefail

sub=$1
opts=(--bootstrap "$bootstrap" --partial "$partial")
[ -z "$zrc_dataset" ] || opts+=(--zrc-dataset "$zrc_dataset")
[ -z "$languages" ] || opts+=(--languages "$languages")
[ -z "$nj" ] || opts+=(--nj "$nj")
te_report_options
te_check_dir "submission dir" "$sub"
# every option is checked by the step's Options (termeval/zrc/options.py), before anything runs
te_check_options score_zrc_submission "${opts[@]}" "$sub"
[ ! -e "$sub/scores" ] || [ -d "$sub/scores" ] || te_die "$sub/scores: exists and is not a directory (zrc writes its scores there)"
# without --cmd the one Python process takes the lock itself (termeval/zrc/step.py)
te_lock "$sub" 1

if [ "$te_cmd_given" = true ]; then
  te_check_launcher
  te_launch_one "$sub/scores.log" score_zrc_submission "${opts[@]}" "$sub"
  [ -f "$sub/scores/termeval/summary.txt" ] && cat "$sub/scores/termeval/summary.txt"
else
  "${te_python[@]}" -m termeval.bin.score_zrc_submission "${opts[@]}" "$sub"
fi
