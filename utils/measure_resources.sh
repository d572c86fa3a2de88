#!/usr/bin/env bash
# Run a user's indexing or search command and record, over its whole process tree (children,
# grandchildren and orphans re-parented to the measuring process), the total CPU time
# (user+sys), the wall time and the peak memory (sampled sum of the tree's PSS, floored by
# the largest single-process ru_maxrss), with the host's CPU model and core count, into
# <exp-dir>/resources/<phase> (key=value). The command's exit status is propagated.
#
# Usage: utils/measure_resources.sh [options] <exp-dir> <index|search> -- <command> [args...]
#  e.g.: utils/measure_resources.sh exp/mysys index -- local/build_index.sh data/docs exp/mysys/index
#        utils/measure_resources.sh exp/mysys search -- bash -c 'my_search --nj 8 ... > exp/mysys/det.xml'
#
# Options:
#   --interval <s>      # default 0.1: seconds between /proc memory samples
#   --append <bool>     # default false; true: add to an existing <phase> file (times add up,
#                       # peak memory takes the maximum), for a phase run as several commands
#   --wait-orphans <bool> # default true: wait for processes the command left running (their
#                         # CPU time counts); false for a command that starts a daemon

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
interval=0.1
append=false
wait_orphans=true
# End configuration section.

echo "$0 $*" >&2

. "$TERMEVAL_ROOT/utils/parse_options.sh"

if [ $# -lt 4 ] || [ "$3" != "--" ]; then
  te_usage
fi

dir=$1
phase=$2
shift 3
case "$phase" in index|search) ;; *) echo "$0: phase must be index or search, got '$phase'" >&2; exit 1 ;; esac

# exec: the measuring python process replaces this shell, so its exit status is the command's
exec "${te_python[@]}" -m termeval.bin.measure_resources --interval "$interval" --append "$append" \
  --wait-orphans "$wait_orphans" \
  "$dir" "$phase" -- "$@"
