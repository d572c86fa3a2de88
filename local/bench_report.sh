#!/usr/bin/env bash
# What report.html and the TextGrids add to a scoring run (docs/report.md §3, docs/speed.md §4):
# the step (term discovery by default) in one process with --report false, --report true and
# --textgrids true, each from a fresh exp dir and without the user cache; prints the step's CPU
# time (/usr/bin/time: user + system), the CPU of its page and TextGrids (TERMEVAL_TIMING=1: the
# `page` part of the driver's timing line), the page's size and the TextGrids' count and size.
#
# Usage: local/bench_report.sh [options] <input-1> <input-2> <work-dir>
#  e.g.: local/bench_report.sh data/example data/local/example/classes/example.classes exp/bench_report
#        local/bench_report.sh exp/bench_tde_scale/x10/data exp/bench_tde_scale/x10/words.class exp/bench_report_x10
#        (the x10 English corpus of local/bench_tde_scale.sh)
#        local/bench_report.sh --step score_units --options "--frame-shift 0.02" data/eng_dev units.jsonl exp/b
#        local/bench_report.sh --step score_discophon --textgrids false dataset predictions exp/b
# Options:
#   --step <score_tde|score_units|score_discophon|score_segmentation|...>  # default score_tde
#   --benchmark <name>     # score_tde's, default zrc2020 (others: --folds none)
#   --options "<opts>"     # more options of the step
#   --textgrids <true|false>  # default true: a third run with --textgrids true

step=score_tde
benchmark=zrc2020
options=
textgrids=true

echo "$0 $@" >&2
. "$(dirname "$(readlink -f "$0")")/../path.sh"
. "$(dirname "$(readlink -f "$0")")/../utils/parse_options.sh"
if [ $# -ne 3 ]; then
  "$TERMEVAL_ROOT/utils/usage.sh" "$0"
  exit 1
fi
set -euo pipefail
data=$1
classes=$2
work=$3
mkdir -p "$work"
extra=()
[ "$step" != score_tde ] || extra=(--benchmark "$benchmark")
[ "$step" != score_tde ] || [ "$benchmark" = zrc2020 ] || extra+=(--folds none)
read -r -a more <<< "$options"
extra+=("${more[@]}")

run() {  # run <label> <options...>: the step in one process, its figures on one line
  local label=$1; shift
  rm -rf "$work/exp"
  TERMEVAL_CACHE_DIR=none TERMEVAL_TIMING=1 /usr/bin/time -f "TIME %U %S %M" -o "$work/time.txt" \
    "$TERMEVAL_ROOT/utils/termeval_python.sh" -m "termeval.bin.$step" "${extra[@]}" "$@" \
    "$data" "$classes" "$work/exp" > /dev/null 2> "$work/err.txt" || { cat "$work/err.txt" >&2; exit 1; }
  read -r _ user sys rss < "$work/time.txt"
  page=$(awk '/^termeval-timing:/ {print $NF}' "$work/err.txt")
  printf '%-18s step %8.2f CPU-s  page and TextGrids %7.3f CPU-s  peak %6.0f MB' "$label" \
    "$(echo "$user + $sys" | bc -l)" "$page" "$(echo "$rss / 1024" | bc -l)"
  [ -f "$work/exp/report.html" ] && printf '  report.html %7.0f kB' "$(echo "$(stat -c %s "$work/exp/report.html") / 1024" | bc -l)"
  if [ -d "$work/exp/details/textgrids" ]; then
    printf '  %d TextGrids %7.0f MB' "$(ls "$work/exp/details/textgrids" | wc -l)" \
      "$(echo "$(du -sk "$work/exp/details/textgrids" | cut -f1) / 1024" | bc -l)"
  fi
  echo
}

run "--report false" --report false
run "--report true" --report true
[ "$textgrids" = true ] && run "--textgrids true" --textgrids true
rm -rf "$work/exp"
