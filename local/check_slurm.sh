#!/usr/bin/env bash
# local/check_slurm.sh -- run the bundled example's scoring steps through a Kaldi Slurm launcher
# (slurm.pl, single node is enough: Debian's slurm-wlm) and check that every score file equals
# the one computed with termeval's local utils/run.pl; prints the wall time of each launcher.
# Everything is written under --dir (in the current directory); termeval's tree is not touched.
#
# Usage: local/check_slurm.sh --slurm-pl <path/to/slurm.pl> [options]
#  e.g.: local/check_slurm.sh --slurm-pl $KALDI_ROOT/egs/wsj/s5/utils/parallel/slurm.pl --nj 2
#
# Options (default):
#   --slurm-pl <file>      # Kaldi's utils/parallel/slurm.pl (required)
#   --slurm-conf <file>    # ('') a conf/slurm.conf for slurm.pl; default: one written under --dir
#                          # (sbatch --export=PATH, no partition: the cluster's default)
#   --dir <dir>            # (slurm_check) work directory
#   --nj <n>               # (2) jobs per step

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
slurm_pl=
slurm_conf=
dir=slurm_check
nj=2
# End configuration section.

echo "$0 $*" >&2
. "$TERMEVAL_ROOT/utils/parse_options.sh"
[ $# -eq 0 ] || te_usage
set -euo pipefail
[ -n "$slurm_pl" ] || te_die "--slurm-pl: required (Kaldi's egs/wsj/s5/utils/parallel/slurm.pl)"
[ -x "$slurm_pl" ] || te_die "--slurm-pl: $slurm_pl: not an executable file"
command -v sbatch >/dev/null && command -v squeue >/dev/null || te_die "sbatch/squeue not found: is Slurm installed?"
sinfo -h >/dev/null 2>&1 || te_die "sinfo failed: is slurmctld running?"
te_check_int nj "$nj" 1

mkdir -p "$dir"
cd "$dir"
slurm_pl=$(readlink -f "$slurm_pl")
if [ -z "$slurm_conf" ]; then
  mkdir -p conf
  printf '%s\n' "command sbatch --export=PATH --ntasks-per-node=1" \
    "option mem=* --mem-per-cpu \$0" "option mem=0" "option num_threads=* --cpus-per-task \$0 --ntasks-per-node=1" \
    "option num_threads=1 --cpus-per-task 1 --ntasks-per-node=1" "default gpu=0" "option gpu=0" > conf/slurm.conf
  slurm_conf=conf/slurm.conf
fi
src=data/local
if [ ! -f $src/example/zr/example.phn ]; then
  "${te_python[@]}" "$TERMEVAL_ROOT/local/make_example.py" --seed 1 $src/example
  "${te_python[@]}" "$TERMEVAL_ROOT/local/make_example_std.py" --seed 1 $src/example_std
fi
steps=$TERMEVAL_ROOT/steps
"$steps/prepare_gold.sh" --format zr $src/example/zr/example.phn $src/example/zr/example.wrd data/example 2>/dev/null
"$steps/prepare_gold.sh" --format zr --drop-silence true --fill-gaps false \
  $src/example/zr/example.phn $src/example/zr/example.wrd data/example_nosil 2>/dev/null

score_all() {  # <launcher> <exp-root>
  local launcher=$1 exp=$2
  rm -rf "$exp"
  "$steps/score_tde.sh" --nj $nj --cmd "$launcher" data/example $src/example/classes/example.classes $exp/tde
  "$steps/score_tde.sh" --benchmark zr2017 --folds none --nj $nj --cmd "$launcher" \
    data/example_nosil $src/example/classes/example.classes $exp/tde_zr2017
  "$steps/score_std.sh" --nj $nj --cmd "$launcher" --term-attr 'NGram:(1|2)' \
    $src/example_std/kws $src/example_std/detections.stdlist.xml $exp/std
}
declare -A wall
for launcher in run.pl slurm.pl; do
  if [ $launcher = run.pl ]; then cmdline="$TERMEVAL_ROOT/utils/run.pl"; else cmdline="$slurm_pl --config $slurm_conf"; fi
  t0=$(date +%s%N)
  score_all "$cmdline" exp_$launcher > exp_$launcher.out.log 2>&1 || { cat exp_$launcher.out.log >&2; te_die "scoring through $launcher failed (log: $dir/exp_$launcher.out.log)"; }
  wall[$launcher]=$(( ($(date +%s%N) - t0) / 1000000 ))   # milliseconds
done
nfiles=0
for f in $(cd exp_run.pl && find . -path '*/scores/*' ! -name scores.json | sort); do
  cmp -s "exp_run.pl/$f" "exp_slurm.pl/$f" || te_die "$f differs between run.pl and slurm.pl"
  nfiles=$((nfiles + 1))
done
[ $nfiles -gt 0 ] || te_die "no score files were written"
jobs=$(grep -l 'SLURM_JOB_ID' exp_slurm.pl/*/log/*.log 2>/dev/null | wc -l)
echo "check_slurm: $nfiles score files identical between run.pl and slurm.pl ($jobs job logs written by Slurm jobs)"
printf 'check_slurm: wall time  run.pl %d.%03d s   slurm.pl %d.%03d s   (--nj %d; %s)\n' \
  $((wall[run.pl] / 1000)) $((wall[run.pl] % 1000)) $((wall[slurm.pl] / 1000)) $((wall[slurm.pl] % 1000)) \
  "$nj" "$(sinfo -h -o '%N %c cpus %P' | head -n1)"
