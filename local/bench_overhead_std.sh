#!/usr/bin/env bash
# Overhead benchmark of spoken term detection scoring end to end (issue 20): 500 terms x 200 k
# detections over 20 h of audio (local/bench_std.py's generator: ECF + RTTM + term list,
# KWSLIST detections), scored by steps/score_std.sh --nj 1 into a fresh exp dir (one process),
# with plots and without. Prints CPU seconds (user + system of every process) and wall
# seconds per case; generation is not counted. Target: <= 2.5 CPU-s with plots.
# Not a test: it prints figures. Called by local/bench_overhead.sh; runs from any directory.
#
# Usage: local/bench_overhead_std.sh [--repeats 3] [--tree DIR]
#   --repeats N   runs per case; the minimum is printed (default 3)
#   --tree DIR    score with the termeval checkout DIR instead (e.g. an older commit, for a
#                 before/after comparison; its tools/venv must exist)
repeats=3
tree=
echo "$0 $*" >&2
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
. "$root/path.sh"
. "$root/utils/parse_options.sh"
set -euo pipefail
tree=${tree:-$root}
[ -x "$tree/steps/score_std.sh" ] || { echo "$0: error: --tree $tree: no steps/score_std.sh" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/bench_overhead_std.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["TERMEVAL_ROOT"], "local"))
from bench_std import generate
generate(sys.argv[1], 500, 200_000, 120, 600.0, "kwslist", seed=1)   # 120 x 600 s = 20 h
PY
measure() {   # measure <label> options...: the minimum CPU and wall of $repeats fresh runs
  local label=$1 best_cpu= best_wall= i t cpu wall; shift
  for ((i = 0; i < repeats; i++)); do
    rm -rf "$work/exp"
    # from the work dir: an older --tree runs `python -m` with the current directory first on
    # its path, which must not hold another termeval
    (cd "$work" && /usr/bin/time -o "$work/time" -f "%e %U %S" "$tree/steps/score_std.sh" --preset nist2006 "$@" \
      "$work/kws" "$work/detections.xml" "$work/exp" > /dev/null 2> "$work/stderr") \
      || { cat "$work/stderr" >&2; exit 1; }
    read -r wall u s < "$work/time"
    cpu=$(echo "$u + $s" | bc)
    if [ -z "$best_cpu" ] || [ "$(echo "$cpu < $best_cpu" | bc)" = 1 ]; then best_cpu=$cpu; fi
    if [ -z "$best_wall" ] || [ "$(echo "$wall < $best_wall" | bc)" = 1 ]; then best_wall=$wall; fi
  done
  printf 'std 500 terms x 200k detections (20 h), %-12s CPU %5.2f s  wall %5.2f s\n' "$label:" "$best_cpu" "$best_wall"
}
measure "plots" --plots true
measure "no plots" --plots false
