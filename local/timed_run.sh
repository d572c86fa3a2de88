#!/usr/bin/env bash
# utils/run.pl with each job's command run under /usr/bin/time: the last line of each job's log
# is "TIME <wall s> <user s> <sys s> <peak kB>" (local/bench_tde_scale.sh reads the per-job peaks).
#
# Usage: local/timed_run.sh [JOB=1:N] <log-file> <command> [<arg> ...]   (as utils/run.pl)
#  e.g.: steps/score_tde.sh --nj 4 --cmd local/timed_run.sh data/x exp/x.class exp/x
if [ $# -lt 2 ]; then
  sed -n '2,/^$/p' "$0" | sed -n 's/^# \{0,1\}//p' >&2
  exit 1
fi
range=()
if [[ "$1" =~ ^[A-Za-z]+=[0-9]+(:[0-9]+)?$ ]]; then range=("$1"); shift; fi
log=$1; shift
# run.pl quotes an argument holding whitespace again, as Kaldi's does
exec "$(dirname "$(readlink -f "$0")")/../utils/run.pl" "${range[@]}" "$log" \
  /usr/bin/time -f "TIME %e %U %S %M" "$@"
