#!/usr/bin/env bash
# Score a spoken term discovery class file with the ZeroSpeech term discovery metrics.
# zrc2020 (default): the definitions of tdev2 (PyPI zerospeech-tde 2.0.3, today's ZeroSpeech
# leaderboards), computed exactly but by counting instead of enumerating pairs: NED (+ number
# of pairs) and coverage -> <exp-dir>/scores/matching; grouping and type P/R/F ->
# scores/clustering; token and boundary P/R/F -> scores/parsing; all values at full precision
# plus counts (classes, fragments, discarded fragments by reason) in scores/scores.json;
# per-class diagnostics in <exp-dir>/details/clusters.txt and the discarded fragments in
# <exp-dir>/details/discarded.
# zr2015 / zr2017: the fold-based 2015/2017 challenge tools, handed over to
# steps/score_tde_folds.sh with the same arguments and options.
# The classes are prepared (steps/prepare_classes.sh) first unless <exp-dir>/classes was
# prepared from the same class file (path, size, mtime), data dir and --lenient.
#
# Usage: steps/score_tde.sh [options] <data-dir> <class-file> <exp-dir>
#  e.g.: steps/score_tde.sh --nj 4 data/zr17_mandarin downloads/zr17/kamper_mandarin.class exp/zr17_mandarin/kamper
#
# Options:
#   --benchmark <zrc2020|zr2015|zr2017>   # default zrc2020
#   --nj <n>                              # default 1; number of jobs, the classes are split
#                                         # into n ranges of about equal cost
#   --cmd <launcher>                      # default $cmd from the environment (cmd.sh), else termeval's
#                                         # utils/run.pl; e.g. "queue.pl --mem 4G", "slurm.pl"
#   --folds <auto|...>                    # default auto; zr2015/zr2017 only (score_tde_folds.sh)
#   --lenient <true|false>                # default false; passed to steps/prepare_classes.sh
#   --workers <n>                         # default 1; edit-distance threads per job
#   --end-tolerance <seconds>             # default 0.01; passed to steps/prepare_classes.sh
#   --bootstrap <n>                       # default 0 (off); resamples for confidence intervals
#   --seed <s> / --ci <level>             # default 777 / 0.95; seed and level of the intervals
#   --bootstrap-unit <file|speaker>       # default file; unit of the non-class metrics

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
benchmark=zrc2020
nj=1
cmd=$te_default_cmd
folds=auto
lenient=false
workers=1
bootstrap=0
seed=777
ci=0.95
bootstrap_unit=file
end_tolerance=0.01
# End configuration section.

echo "$0 $*" >&2

. "$TERMEVAL_ROOT/utils/parse_options.sh"

[ $# -eq 3 ] || te_usage
set -euo pipefail
te_check_bootstrap

data=$1
classfile=$2
dir=$3

te_check_choice benchmark "$benchmark" zrc2020 zr2015 zr2017
te_check_int nj "$nj" 1
te_check_int workers "$workers" 1
case "$benchmark" in
  zr2015|zr2017)
    exec "$TERMEVAL_ROOT/steps/score_tde_folds.sh" --benchmark "$benchmark" --nj "$nj" --cmd "$cmd" \
      --folds "$folds" --lenient "$lenient" --bootstrap "$bootstrap" --seed "$seed" --ci "$ci" --bootstrap-unit "$bootstrap_unit" "$data" "$classfile" "$dir" ;;
esac

te_check_dir "data dir" "$data"
for f in "$data/phones" "$data/words" "$data/reco2dur"; do
  te_check_file "data dir file" "$f"
done
te_check_file "class file" "$classfile"
te_check_launcher
te_check_writable "$dir/log"

# Re-prepare unless classes/ was prepared from this very class file (path, size, mtime), data
# dir and --lenient: a different submission scored into the same exp dir is never mixed up.
seg=$dir/classes/segments
stamp="$(readlink -f "$classfile") $(stat -c '%s %Y' "$classfile") $(readlink -f "$data") $(stat -c '%Y' "$data/reco2dur") lenient=$lenient end_tolerance=$end_tolerance"
if [ ! -f "$seg" ] || [ "$(cat "$dir/classes/.prepared_from" 2>/dev/null)" != "$stamp" ]; then
  "$TERMEVAL_ROOT/steps/prepare_classes.sh" --lenient "$lenient" --end-tolerance "$end_tolerance" "$data" "$classfile" "$dir"
  echo "$stamp" > "$dir/classes/.prepared_from"
fi

rm -f "$dir"/tde/stats.* 2>/dev/null || true
mkdir -p "$dir/tde"
te_launch JOB=1:$nj "$dir/log/tde_stats.JOB.log" tde_stats --nj "$nj" --workers "$workers" "$data" "$dir" JOB
te_launch "$dir/log/tde_merge.log" tde_merge --nj "$nj" --benchmark "$benchmark" --bootstrap "$bootstrap" --seed "$seed" --ci "$ci" --bootstrap-unit "$bootstrap_unit" "$data" "$dir"

grep 'warning:' "$dir/log/tde_merge.log" >&2 || true
for stage in matching clustering parsing; do
  sed "s/^/$stage: /" "$dir/scores/$stage" >&2
done
echo "$0: scores in $dir/scores, diagnostics in $dir/details" >&2
