#!/usr/bin/env bash
# Cost of the confidence intervals: wall time of a plain scoring pass vs --bootstrap 1000 on
# Buckeye gold.class (steps/score_tde.sh, classes prepared once beforehand, so both runs time
# the statistics jobs + merge) and on the STD c6-sized task (500 terms, 200 k detections,
# local/bench_std.py's generator; python -m termeval.bin.score_std --plots false). Not a
# test: it prints figures.
#
# Usage: local/bench_bootstrap.sh [--data <zr17-dir>] [--dir <work-dir>] [--n 1000]
data=../shared/data/zr17
dir=exp/bench_bootstrap
n=1000
echo "$0 $@" >&2
[ -f ./path.sh ] && . ./path.sh
. utils/parse_options.sh
set -euo pipefail
mkdir -p "$dir"
[ -f "$dir/data/buckeye/phones" ] || steps/prepare_gold.sh --format zr "$data/buckeye.phn" "$data/buckeye.wrd" \
  "$dir/data/buckeye" > "$dir/prepare_gold.log" 2>&1
steps/score_tde.sh "$dir/data/buckeye" "$data/gold.class" "$dir/tde" > "$dir/tde_warmup.log" 2>&1
t() { local s; s=$(date +%s.%N); "$@" > "$dir/last.log" 2>&1; echo "$(date +%s.%N) - $s" | bc; }
plain=$(t steps/score_tde.sh "$dir/data/buckeye" "$data/gold.class" "$dir/tde")
boot=$(t steps/score_tde.sh --bootstrap "$n" "$dir/data/buckeye" "$data/gold.class" "$dir/tde")
printf "buckeye gold.class   plain %6.2f s   --bootstrap %d %6.2f s   ratio %.2f\n" "$plain" "$n" "$boot" \
  "$(echo "$boot / $plain" | bc -l)"
[ -f "$dir/std/kws/ecf.xml" ] || python3 -c "import sys; sys.path.insert(0, 'local'); from bench_std import generate; generate('$dir/std', 500, 200000, 200, 30.0, 'kwslist')"
plain=$(t python3 -m termeval.bin.score_std --preset nist2006 --plots false "$dir/std/kws" "$dir/std/detections.xml" "$dir/std/exp")
boot=$(t python3 -m termeval.bin.score_std --preset nist2006 --plots false --bootstrap "$n" "$dir/std/kws" "$dir/std/detections.xml" "$dir/std/exp")
printf "std 500 x 200k       plain %6.2f s   --bootstrap %d %6.2f s   ratio %.2f\n" "$plain" "$n" "$boot" \
  "$(echo "$boot / $plain" | bc -l)"
