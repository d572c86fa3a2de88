#!/usr/bin/env bash
# The DiscoPhon phoneme discovery benchmark (CoML's successor to ZeroSpeech; PyPI discophon
# 0.2.0) as a drop-in for
#   python -m discophon.benchmark <dataset> <predictions> <output> --benchmark discovery --kind K --step-units S
# PNMI, PER, boundary F1 and R-value of the units of every (language, split) of the predictions
# (dev and test), mapped to the language's phonemes many-to-one (256 units) or one-to-one
# (phonemes + 1 units). <output-dir>/scores.jsonl holds discophon's rows
# ({"language","split","metric","score"}, full doubles), equal to discophon's and written whole
# (discophon appends); termeval's layout beside it: scores/discophon_<code>_<split> (one file per
# pair, metric names <code>_<split>_pnmi, ...), scores/scores.json, details/discophon/<code>-<split>/
# (per-utterance and per-phone tables, the unit -> phone mapping), details/discophon/scores.png,
# intervals with --bootstrap (resampling files), and report.html (docs/report.md).
#
# Only <dataset-dir>/alignment/alignment-<code>-<split>.txt and the predictions'
# units-<code>-<split>.jsonl ({"file", "units"} lines) are read: no audio tree is needed. Bad input
# is one line naming file, line and utterance (discophon says neither): docs/units.md.
#
# Usage: steps/score_discophon.sh [options] <dataset-dir> <predictions-dir> <output-dir>
#  e.g.: steps/score_discophon.sh --kind many-to-one --step-units 20 discophon_data units/ exp/hubert_l9
#        steps/score_discophon.sh --kind one-to-one --languages deu,swa --splits dev discophon_data units/ exp/o2o
#
# Options:
#   --kind <many-to-one|one-to-one>  # default many-to-one
#   --step-units <ms>            # default 20 (50 Hz units; a multiple of 10)
#   --languages <a,b,...>        # default: every language with units (ISO 639-3 codes)
#   --splits <s,t>               # default: dev,test
#   --nj <n>                     # default 1; the (language, split) pairs are split into n jobs
#   --bootstrap <n>              # default 0 (off); resamples of the files of each pair (docs/uncertainty.md)
#   --seed <s> / --ci <level>    # default 777 / 0.95
#   --cmd <launcher>             # default $cmd from the environment (cmd.sh), else termeval's utils/run.pl
#   --report <true|false>        # default true; <output-dir>/report.html (docs/report.md)
#   --report-files <n>           # default 20; files in report.html's timeline (taken in turn from each pair)
#   --textgrids <true|false>     # default false; true is refused (score_units.sh writes them, pair by pair)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
kind=many-to-one
step_units=20
languages=
splits=
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

dataset=$1
pred=$2
dir=$3

opts=(--kind "$kind" --step-units "$step_units" --languages "$languages" --splits "$splits"
      --bootstrap "$bootstrap" --seed "$seed" --ci "$ci")
te_report_options
# every option is checked by the step's Options (termeval/units/options.py), before anything runs
te_check_options score_discophon --nj "$nj" "${opts[@]}" "$dataset" "$pred" "$dir"
te_check_dir "dataset dir" "$dataset"
te_check_dir "predictions dir" "$pred"
te_check_launcher
te_check_writable "$dir/log"
te_lock "$dir" "$nj"

# one process for --nj 1 without --cmd (log/discophon.log), else jobs (discophon.JOB.log) and a
# merge (discophon.merge.log); the scores on stdout, each line prefixed with "<code> <split>: "
te_run_stage "$dir" discophon score_discophon "$nj" "${opts[@]}" "$dataset" "$pred" "$dir"
echo "$0: discophon's rows in $dir/scores.jsonl, scores in $dir/scores, tables in $dir/details/discophon" >&2
