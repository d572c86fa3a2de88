#!/usr/bin/env bash
# Score a word (or phone) segmentation the way unsupervised word segmentation papers do:
# boundary P/R/F, OS and R-value, token P/R/F (all with a time tolerance), number of segments
# and clusters, purity, inverse purity, homogeneity, completeness, V-measure, NMI, many-to-one
# and one-to-one (Hungarian) mapping accuracy -> <exp-dir>/scores/segmentation (--level
# phone: scores/segmentation_phone; metric names prefixed word_ or phone_) and scores/scores.json, which
# records the tolerance, frame shift, level and compat mode. Per-utterance and per-speaker
# counts, the cluster mappings and boundary F against the tolerance (5-50 ms; table, PNG and
# PDF plot) go to <exp-dir>/details/segmentation[_phone]/. The scores are printed on stdout
# (each line prefixed with the stage name), progress and logs on stderr.
# --compat vqwordseg reproduces kamperh/vqwordseg eval_segmentation.py (10 ms frames, its edge
# and truncation rules, greedy one-to-one mapping); differences: docs/segmentation.md.
# --compat harwath|rasanen|... reproduces a published boundary scorer (its keys only, its rule
# and parameters in scores.json `definitions`); --compat all prints boundary P/R/F of every
# scorer side by side (scores/segmentation_compare; utils/compare_scorers.sh). The scorer
# table (who uses each, matching, tolerance, formulas, quirks): docs/segmentation.md.
#
# The segmentation is a ZeroSpeech class file, an interval file
# `<utt-or-file> <onset> <offset> [<label>]` (seconds), or a directory of per-utterance files
# `<start> <end> <label>` in frames (vqwordseg's intervals/). Utterances are the data dir's
# files, or the sub-spans of <data-dir>/segments (or --segments) with the gold cut to them.
# Segments outside every utterance and zero-length ones are dropped, overlapping ones refused
# (kept by --compat vqwordseg; a class file's overlaps counted): docs/segmentation.md. Each drop
# and an implausible --tolerance is a "warning:" line on stderr, kept in scores.json.
#
# Usage: steps/score_segmentation.sh [options] <data-dir> <segmentation> <exp-dir>
#  e.g.: steps/score_segmentation.sh --nj 4 data/buckeye exp/buckeye/dpdp/intervals exp/buckeye/dpdp
#        steps/score_segmentation.sh --compat vqwordseg --segments data/buckeye/segments \
#            data/buckeye exp/buckeye/dpdp/intervals exp/buckeye/dpdp_vq
#        steps/score_segmentation.sh --compat harwath --tolerance 0.02 data/english seg.txt exp/seg_harwath
#
# Options:
#   --tolerance <seconds>        # default 0.02 (>= 1 is refused as a unit slip; > 0.1 warns)
#   --frame-shift <seconds>      # default: the scorer's own (0.02 for malan-*), else 0.01 (frame
#                                # input, --compat vqwordseg and unsupseg)
#   --level <word|phone|syllable>  # default word (syllable: the tier of prepare_gold.sh --syllables)
#   --compat <none|vqwordseg|harwath|rasanen|unsupseg|malan-strict|malan-lenient|all>  # default none (docs/segmentation.md)
#   --segments <file|auto|none>  # default auto: <data-dir>/segments if present, else whole files
#   --nj <n>                     # default 1; the utterances are split into n jobs
#   --bootstrap <n>              # default 0 (off); resamples for confidence intervals (docs/uncertainty.md)
#   --seed <s> / --ci <level>    # default 777 / 0.95; seed and level of the intervals
#   --bootstrap-unit <file|speaker>  # default file; resampling unit (recordings or speakers)
#   --cmd <launcher>             # default $cmd from the environment (cmd.sh), else termeval's
#                                # utils/run.pl; e.g. "queue.pl --mem 4G", "slurm.pl"
#   --report <true|false>        # default true; <exp-dir>/report.html (docs/report.md)
#   --report-files <n>           # default 20; recordings in report.html's timeline
#   --textgrids <true|false>     # default false; details/<stage>/textgrids/<utt>.TextGrid: gold,
#                                 # segments, boundary errors

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
tolerance=0.02
frame_shift=
level=word
compat=none
segments=auto
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
seg=$2
dir=$3

opts=(--tolerance "$tolerance" --level "$level" --compat "$compat"
      --segments "$segments" --bootstrap "$bootstrap" --seed "$seed" --ci "$ci" --bootstrap-unit "$bootstrap_unit")
[ -z "$frame_shift" ] || opts+=(--frame-shift "$frame_shift")   # none: each scorer's own
te_report_options
# every option is checked by the step's Options (termeval/segmentation/options.py) on the way to
# the stage's name (segmentation, or segmentation_<level> for phone, syllable), before anything runs
stage=$(te_stage_name score_segmentation --nj "$nj" "${opts[@]}" "$data" "$seg" "$dir")
te_check_dir "data dir" "$data"
[ "$level" != syllable ] || [ -f "$data/syllables" ] \
  || te_die "$data/syllables: missing: --level syllable needs a data dir prepared with steps/prepare_gold.sh --syllables <file>"
for f in "$data/phones" "$data/words" "$data/reco2dur" "$data/utt2spk"; do
  te_check_file "data dir file" "$f"
done
[ -e "$seg" ] || te_die "segmentation $seg: no such file or directory"
case "$segments" in auto|none) ;; *) te_check_file "segments file" "$segments" ;; esac
te_check_launcher
te_check_writable "$dir/log"
te_lock "$dir" "$nj"

# one process for --nj 1 without --cmd (log/<stage>.log), else jobs (<stage>.JOB.log) and a
# merge (<stage>.merge.log); the scores on stdout, each line prefixed with "<stage>: "
te_run_stage "$dir" "$stage" score_segmentation "$nj" "${opts[@]}" "$data" "$seg" "$dir"
echo "$0: scores in $dir/scores, per-utterance/speaker breakdown and tolerance plot in $dir/details/$stage" >&2
