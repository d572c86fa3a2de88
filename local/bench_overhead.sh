#!/usr/bin/env bash
# Benchmark of what carries the metrics to the user (issue 20): prints side by side, measured
# in one run, the CPU time (user + sys of the whole step and every process it starts) and the
# wall time of
#   - Kamper et al. Mandarin, zrc2020, steps/score_tde.sh end to end into a fresh exp dir
#     (class file to score files: class preparation, statistics, merge, report);
#   - the same re-scored into the exp dir whose classes are prepared;
#   - tdev2 (PyPI zerospeech-tde 2.0.3 + numpy and pandas, which it imports undeclared, in a
#     throw-away venv under /tmp created here) on the
#     same files, its measure classes called as the ZeroSpeech `zrc` tool calls them (Gold,
#     Disc, Ned, Coverage, Grouping, TokenType, Boundary), and the CPU ratio tdev2 / termeval;
#   - python -c 'import termeval' and steps/score_tde.sh --help (wall);
#   - STD 500 terms x 200 k detections (20 h), steps/score_std.sh with and without plots
#     (local/bench_overhead_std.sh; generation not counted).
# Each termeval figure is the best of --repeat runs. Rows of other benchmarks are added by the
# bench_*_row hook functions below. Not a test: it prints figures, it asserts nothing.
# The gold data dir is prepared once, outside the timings.
#
# Usage: local/bench_overhead.sh [options]
#  e.g.: local/bench_overhead.sh --data ../shared/data/zr17
#
# Options:
#   --data <dir>          # ZeroSpeech 2017 files (mandarin.phn, mandarin.wrd, kamper_mandarin.class);
#                         # default downloads/zr17 (local/get_zr17.sh fetches it when missing)
#   --dir <dir>           # work dir (default exp/bench_overhead)
#   --repeat <n>          # runs per termeval figure, the best is printed (default 3)
#   --tdev2 <true|false>  # run tdev2 (default true; needs the package registry for its venv)
#   --tdev2-python <py>   # an interpreter where zerospeech-tde 2.0.3 is importable (default:
#                         # a throw-away venv under /tmp, removed at the end)

data=downloads/zr17
dir=exp/bench_overhead
repeat=3
tdev2=true
tdev2_python=

echo "$0 $*" >&2
. "$(dirname "$(readlink -f "$0")")/../path.sh"
. "$(dirname "$(readlink -f "$0")")/../utils/parse_options.sh"
# a benchmark of the recipe itself: it runs from termeval's root and writes under its exp/
cd "$(dirname "$(readlink -f "$0")")/.."

if [ $# -ne 0 ]; then
  "$TERMEVAL_ROOT/utils/usage.sh" "$0"
  exit 1
fi
set -euo pipefail
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || { echo "$0: --repeat: expected a whole number >= 1, got '$repeat'" >&2; exit 1; }

if [ ! -f "$data/kamper_mandarin.class" ]; then
  [ "$data" = downloads/zr17 ] || { echo "$0: no $data/kamper_mandarin.class (run local/get_zr17.sh or pass --data)" >&2; exit 1; }
  local/get_zr17.sh --dir downloads
fi
mkdir -p "$dir"
gold=$dir/data/mandarin
cls=$data/kamper_mandarin.class
[ -f "$gold/phones" ] || steps/prepare_gold.sh --format zr "$data/mandarin.phn" "$data/mandarin.wrd" "$gold" \
  > "$dir/prepare_gold.log" 2>&1

# timed <out-file> <command...>: run it, append "<wall> <cpu>" (cpu = user + sys of the
# command and all its children) to <out-file>; the command's output goes to <out-file>.log
timed() {
  local out=$1 t; shift
  t=$( { TIMEFORMAT='%R %U %S'; time "$@" >> "$out.log" 2>&1; } 2>&1 ) || { echo "$0: failed: $* (see $out.log)" >&2; return 1; }
  awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' <<< "$t" >> "$out"
}
# best <file>: the run with the least CPU time, as "<cpu> <wall>"
best() { sort -k2,2g "$1" | head -n1 | awk '{ print $2, $1 }'; }
row() {  # <label> <cpu|-> <wall|-> <target>
  printf '%-44s %9s %9s   %s\n' "$1" "$2" "$3" "$4"
}

rm -f "$dir"/*.times "$dir"/*.times.log
for ((i = 0; i < repeat; i++)); do
  rm -rf "$dir/exp_fresh"
  timed "$dir/fresh.times" steps/score_tde.sh "$gold" "$cls" "$dir/exp_fresh"
  timed "$dir/rescore.times" steps/score_tde.sh "$gold" "$cls" "$dir/exp_fresh"
  timed "$dir/import.times" python3 -c 'import termeval'
  timed "$dir/help.times" steps/score_tde.sh --help
done
if grep -q ' prepared ' "$dir/rescore.times.log"; then
  echo "$0: warning: the re-scoring runs prepared the classes again (see $dir/rescore.times.log)" >&2
fi
read -r fresh_cpu fresh_wall < <(best "$dir/fresh.times")
read -r rescore_cpu rescore_wall < <(best "$dir/rescore.times")
read -r _ import_wall < <(best "$dir/import.times")
read -r _ help_wall < <(best "$dir/help.times")

# ---------------------------------------------------------------------------- tdev2
tdev2_cpu=- tdev2_wall=- tdev2_note="not run (--tdev2 false)"
tdev2_venv=
cleanup() { [ -n "$tdev2_venv" ] && rm -rf "$tdev2_venv"; }
trap cleanup EXIT
run_tdev2() {
  local py=$tdev2_python
  if [ -z "$py" ]; then
    tdev2_venv=$(mktemp -d /tmp/termeval-tdev2.XXXXXX)
    echo "$0: creating a throw-away venv with zerospeech-tde==2.0.3 in $tdev2_venv" >&2
    if ! { python3 -m venv "$tdev2_venv" && "$tdev2_venv/bin/pip" install -q "zerospeech-tde==2.0.3" numpy pandas; } \
        > "$dir/tdev2_venv.log" 2>&1; then
      tdev2_note="not available (could not install zerospeech-tde==2.0.3, see $dir/tdev2_venv.log)"
      return 0
    fi
    py=$tdev2_venv/bin/python
  fi
  rm -f "$dir/tdev2.times"
  if ! timed "$dir/tdev2.times" env -u PYTHONPATH "$py" - "$data/mandarin.wrd" "$data/mandarin.phn" "$cls" <<'PY'
import sys
from tde.measures.boundary import Boundary
from tde.measures.coverage import Coverage
from tde.measures.grouping import Grouping
from tde.measures.ned import Ned
from tde.measures.token_type import TokenType
from tde.readers.disc_reader import Disc
from tde.readers.gold_reader import Gold

wrd, phn, cls = sys.argv[1:4]
gold = Gold(wrd_path=wrd, phn_path=phn)
disc = Disc(cls, gold)
ned = Ned(disc); ned.compute_ned()
cov = Coverage(gold, disc); cov.compute_coverage()
grp = Grouping(disc); grp.compute_grouping()
tt = TokenType(gold, disc); tt.compute_token_type()
bnd = Boundary(gold, disc); bnd.compute_boundary()
print(f"tdev2: ned {ned.ned:.6f} coverage {cov.coverage:.6f} grouping {grp.precision:.6f} {grp.recall:.6f}")
PY
  then
    tdev2_note="failed (see $dir/tdev2.times.log)"
    return 0
  fi
  read -r tdev2_cpu tdev2_wall < <(best "$dir/tdev2.times")
  tdev2_note="$(tail -n1 "$dir/tdev2.times.log")"
}
[ "$tdev2" = true ] && run_tdev2

# ---------------------------------------------------------------------------- hooks
# Rows of other benchmarks: each prints zero or more lines through `row`.
bench_std_row() {   # STD 500 terms x 200 k detections, with plots (target <= 2.5 CPU-s)
  local label cpu wall
  if ! local/bench_overhead_std.sh --repeats "$repeat" > "$dir/std.out" 2> "$dir/std.log"; then
    row "STD 500 terms x 200k detections" - - "failed (see $dir/std.log)"
    return 0
  fi
  # "std 500 terms x 200k detections (20 h), plots:  CPU 2.31 s  wall 2.40 s" -> a row
  while IFS='|' read -r label cpu wall; do
    row "STD 500 terms x 200k detections, $label" "$cpu" "$wall" \
      "$([ "$label" = plots ] && echo "<= 2.5 CPU-s" || echo "-")"
  done < <(sed -n 's/^std .*), \(.*\): *CPU *\([0-9.]*\) s *wall *\([0-9.]*\) s$/\1|\2|\3/p' "$dir/std.out")
}
bench_api_row() {   # 20 systems through the Python API against one gold (target <= 5 s)
  local out
  out=$(python3 local/bench_api.py --systems 20 2>/dev/null) || { row "API: 20 systems, one gold, one process" - - "(local/bench_api.py failed)"; return; }
  # "<case>, 20 ...: W s wall, C s CPU (...)" lines of local/bench_api.py
  echo "$out" | sed -n 's/^\(example\|Kamper Mandarin\), 20[^:]*: \([0-9.]*\) s wall, \([0-9.]*\) s CPU.*/\1|\3|\2/p' |
    while IFS='|' read -r what cpu wall; do
      row "API: 20 systems, $what gold" "$cpu" "$wall" "<= 5 s (all 20; example size)"
    done
}

# ---------------------------------------------------------------------------- table
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ), $(env -u OMP_NUM_THREADS nproc) cores, Kamper Mandarin ($cls), best of $repeat"
row "what" "CPU-s" "wall-s" "target"
row "zrc2020 end to end (fresh exp dir)" "$fresh_cpu" "$fresh_wall" "<= 0.7 CPU-s"
row "zrc2020 re-score (classes prepared)" "$rescore_cpu" "$rescore_wall" "<= 0.5 CPU-s"
row "tdev2 zerospeech-tde 2.0.3 (one run)" "$tdev2_cpu" "$tdev2_wall" "$tdev2_note"
if [ "$tdev2_cpu" != - ]; then
  row "CPU ratio tdev2 / termeval (end to end)" "$(awk -v a="$tdev2_cpu" -v b="$fresh_cpu" 'BEGIN { printf "%.1fx", a / b }')" - ">= 30x"
fi
row "python -c 'import termeval'" - "$import_wall" "<= 0.15 s"
row "steps/score_tde.sh --help" - "$help_wall" "<= 0.2 s"
bench_std_row
bench_api_row
