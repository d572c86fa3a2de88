#!/usr/bin/env bash
# Score discrete speech units (HuBERT/WavLM k-means labels, any unit discovery system) against
# gold phones: PNMI, phone purity, cluster purity, PER after mapping the units to phones
# (many-to-one or one-to-one), boundary precision/recall/F and R-value of the mapped phones
# (Räsänen windows of 20 ms) -> <exp-dir>/scores/units and scores/scores.json (which records the
# frame shift, mode, mapping and numbers of units and phones). discophon 0.2.0's definitions by
# default; --compat fairseq gives the numbers of fairseq's examples/hubert/measure_teacher_quality.py
# (1e-8 inside the logs, digits stripped from phone labels, each utterance cut to the shorter)
# plus its entropies, mutual information, segment lengths and its table
# (details/units/teacher_quality.txt). Per-utterance and per-phone tables, the unit -> phone
# mapping and the confusion plot (P(phone | unit)) go to <exp-dir>/details/units/; <exp-dir>/report.html
# shows them with a timeline of gold phones, units and mapped units (docs/report.md).
#
# The gold is a data dir of steps/prepare_gold.sh (any --format; --format discophon reads
# discophon's alignment files), on the 10 ms grid (--off-grid centre: each 10 ms frame takes the
# phone at its centre). The units (keys = the gold's file ids): a Kaldi text archive
# `<utt> u1 u2 ...` (ESPnet's k-means labels), a Kaldi binary archive (ark:/scp:/.ark, kaldiio),
# discophon's units .jsonl, or a directory of <utt>.npy; one unit every --frame-shift seconds.
# Bad input is one line naming file, line and utterance: docs/units.md.
#
# Usage: steps/score_units.sh [options] <data-dir> <units> <exp-dir>
#  e.g.: steps/prepare_gold.sh --format ctm --phones-txt data/lang/phones.txt exp/tri3_ali/phones.ctm - data/dev_gold
#        steps/score_units.sh --frame-shift 0.02 data/dev_gold dump/km500/dev/pseudo_labels.txt exp/hubert_km500
#        steps/score_units.sh --compat fairseq --kind one-to-one data/dev_gold ark:exp/km/dev.ark exp/km_fs
#
# Options:
#   --frame-shift <seconds>      # default 0.02 (50 Hz units; a multiple of 0.01)
#   --compat <discophon|fairseq> # default discophon (docs/units.md: where they differ)
#   --kind <many-to-one|one-to-one>  # default many-to-one (the mapping of PER and boundaries)
#   --n-units <n>                # default 0: the largest unit id + 1 (one-to-one: the phone classes)
#   --n-phonemes <n>             # default 0: the gold's labels; else rows = n + 1 (silence)
#   --units-format <auto|text|ark|jsonl|npy>  # default auto
#   --off-grid <error|centre>    # default error (discophon's rule: phones tile the files on 10 ms)
#   --nj <n>                     # default 1; the files are split into n jobs (they count; the merge maps)
#   --bootstrap <n>              # default 0 (off); resamples for confidence intervals (docs/uncertainty.md)
#   --seed <s> / --ci <level>    # default 777 / 0.95
#   --bootstrap-unit <file|speaker>  # default file
#   --cmd <launcher>             # default $cmd from the environment (cmd.sh), else termeval's utils/run.pl
#   --report <true|false>        # default true; <exp-dir>/report.html (docs/report.md)
#   --report-files <n>           # default 20; recordings in report.html's timeline
#   --textgrids <true|false>     # default false; details/textgrids/<file>.TextGrid: gold phones, units,
#                                # mapped units, boundary errors

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
frame_shift=0.02
compat=discophon
kind=many-to-one
n_units=0
n_phonemes=0
units_format=auto
off_grid=error
nj=1
cmd=$te_default_cmd
bootstrap=0
seed=777
ci=0.95
bootstrap_unit=file
report=true
report_files=20
textgrids=false
# End configuration section.

echo "$0 $*" >&2

. "$TERMEVAL_ROOT/utils/parse_options.sh"

[ $# -eq 3 ] || te_usage
set -euo pipefail

data=$1
units=$2
dir=$3

opts=(--frame-shift "$frame_shift" --compat "$compat" --kind "$kind" --n-units "$n_units"
      --n-phonemes "$n_phonemes" --units-format "$units_format" --off-grid "$off_grid"
      --bootstrap "$bootstrap" --seed "$seed" --ci "$ci" --bootstrap-unit "$bootstrap_unit")
te_report_options
# every option is checked by the step's Options (termeval/units/options.py), before anything runs
te_check_options score_units --nj "$nj" "${opts[@]}" "$data" "$units" "$dir"
te_check_dir "data dir" "$data"
for f in "$data/phones" "$data/reco2dur" "$data/utt2spk"; do
  te_check_file "data dir file" "$f"
done
case "$units" in
  ark:*|scp:*) te_check_file units "${units#*:}" ;;
  *) [ -e "$units" ] || te_die "units $units: no such file or directory" ;;
esac
te_check_launcher
te_check_writable "$dir/log"
te_lock "$dir" "$nj"

# one process for --nj 1 without --cmd (log/units.log), else jobs (units.JOB.log) and a merge
# (units.merge.log); the scores on stdout, each line prefixed with "units: "
te_run_stage "$dir" units score_units "$nj" "${opts[@]}" "$data" "$units" "$dir"
echo "$0: scores in $dir/scores/units, tables, mapping and confusion plot in $dir/details/units" >&2
