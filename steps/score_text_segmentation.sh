#!/usr/bin/env bash
# Score a word segmentation of text the way wordseg-eval (CoML's bootphon/wordseg) does:
# token, type (lexicon against lexicon), boundary_all (utterance edges counted) and
# boundary_noedge precision/recall/F, with --prepared the adjusted Rand index, with --summary
# the over/under/mis-segmentation counts per gold word type (wordseg's JSON). Prints
# wordseg-eval's `name<TAB>value` lines (%.4g, None when undefined) on stdout and writes
# <exp-dir>/scores/{wordseg_eval.txt,text_segmentation,scores.json} and
# <exp-dir>/details/text_segmentation/{per_utterance.tsv,summary.tsv,summary.json}.
#
# Texts: one utterance per line, words separated by spaces, the units (phones, syllables,
# characters) of a word written together (wordseg's gold and outputs) or separated by
# --unit-sep (multi-character units, IPA). The segmented text must spell the gold line by line.
# utils/export_text.sh writes the gold and prepared texts of a data dir;
# utils/text_to_times.sh maps a segmented text back to times (score_segmentation.sh, score_tde.sh).
#
# Usage: steps/score_text_segmentation.sh [options] <gold.txt> <segmented.txt> <exp-dir>
#  e.g.: steps/score_text_segmentation.sh --compat wordseg --prepared data/text/prepared.txt \
#          --summary exp/dpseg/summary.json data/text/gold.txt exp/dpseg/segmented.txt exp/dpseg
#
# Options:
#   --compat <none|wordseg>   # default none; wordseg: blank lines dropped from each file
#                             # independently, its `_` placeholder in the type counts
#   --prepared <file>         # units separated by spaces, one utterance a line (wordseg-prep's
#                             # output): adds adjusted_rand_index, checks words end at unit edges
#   --summary <file>          # write the over/under/mis-segmentation summary (JSON) there
#   --word-sep <sep>          # default: spaces
#   --unit-sep <sep>          # default none (units written together); e.g. '-', or 'space' with
#                             # --word-sep ';eword' (wordseg's tagged text)
#   --nj <n>                  # default 1; the utterances are split into n jobs
#   --cmd <launcher>          # default $cmd from the environment (cmd.sh), else utils/run.pl
#   --report <true|false>     # default true; <exp-dir>/report.html (docs/report.md)
#   --report-files <n>        # default 20; recordings in report.html's timeline
#   --textgrids <true|false>  # default false; true is refused (no timeline)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
compat=none
prepared=
summary=
word_sep=
unit_sep=
nj=1
cmd=$te_default_cmd
report=true
report_files=20
textgrids=false
# End configuration section.

echo "$0 $*" >&2

. "$TERMEVAL_ROOT/utils/parse_options.sh"

[ $# -eq 3 ] || te_usage
set -euo pipefail

gold=$1
seg=$2
dir=$3

opts=(--compat "$compat")
[ -z "$prepared" ] || opts+=(--prepared "$prepared")
[ -z "$summary" ] || opts+=(--summary "$summary")
[ -z "$word_sep" ] || opts+=(--word-sep "$word_sep")
[ -z "$unit_sep" ] || opts+=(--unit-sep "$unit_sep")
te_report_options
# every option is checked by the step's Options (termeval/textseg/options.py), before anything runs
te_check_options score_text_segmentation --nj "$nj" "${opts[@]}" "$gold" "$seg" "$dir"
te_check_file "gold text" "$gold"
te_check_file "segmented text" "$seg"
[ -z "$prepared" ] || te_check_file "prepared text" "$prepared"
if [ -n "$summary" ] && [ -d "$summary" ]; then te_die "--summary $summary: is a directory"; fi
te_check_launcher
te_check_writable "$dir/log"
te_lock "$dir" "$nj"

# one process for --nj 1 without --cmd (log/text_segmentation.log: the stage's name,
# termeval/textseg/stage.py), else jobs (text_segmentation.JOB.log) and a merge
te_run_stage "$dir" text_segmentation score_text_segmentation "$nj" "${opts[@]}" "$gold" "$seg" "$dir"
echo "$0: scores in $dir/scores (wordseg_eval.txt, text_segmentation), details in $dir/details/text_segmentation" >&2
