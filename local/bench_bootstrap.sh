#!/usr/bin/env bash
# Cost of the confidence intervals: wall time of a plain scoring pass vs --bootstrap 1000 on
# Buckeye gold.class (steps/score_tde.sh, classes prepared once beforehand, so both runs time
# the statistics jobs + merge), on the STD c6-sized task (500 terms, 200 k detections,
# local/bench_std.py's generator; python -m termeval.bin.score_std --plots false) and on a
# Buckeye word segmentation (local/make_segmentation.py jitter, ~90 k labelled segments;
# steps/score_segmentation.sh). Not a test: it prints figures. Runs from any directory;
# relative paths are relative to the caller's directory.
#
# Usage: local/bench_bootstrap.sh [--data <zr17-dir>] [--dir <work-dir>] [--n 1000]
#   --data <dir>   # ZeroSpeech 2017 files (buckeye.phn, buckeye.wrd, gold.class);
#                  # default downloads/zr17 (local/get_zr17.sh) if present, else ../shared/data/zr17
#   --dir <dir>    # work dir (default exp/bench_bootstrap)
#   --n <n>        # resamples (default 1000)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

data=
dir=exp/bench_bootstrap
n=1000

echo "$0 $*" >&2
. "$TERMEVAL_ROOT/utils/parse_options.sh"
[ $# -eq 0 ] || te_usage
set -euo pipefail

if [ -z "$data" ]; then if [ -f downloads/zr17/english.phn ]; then data=downloads/zr17; else data=$TERMEVAL_ROOT/../shared/data/zr17; fi; fi
for f in buckeye.phn buckeye.wrd gold.class; do te_check_file "corpus file" "$data/$f"; done
py=("${te_python[@]}")
steps=$TERMEVAL_ROOT/steps
mkdir -p "$dir"
[ -f "$dir/data/buckeye/phones" ] || "$steps/prepare_gold.sh" --format zr "$data/buckeye.phn" \
  "$data/buckeye.wrd" "$dir/data/buckeye" > "$dir/prepare_gold.log" 2>&1
t() { local s; s=$(date +%s.%N); "$@" > "$dir/last.log" 2>&1; echo "$(date +%s.%N) - $s" | bc; }
row() { printf "%-22s plain %6.2f s   --bootstrap %d %6.2f s   ratio %.2f\n" "$1" "$2" "$n" "$3" \
  "$(echo "$3 / $2" | bc -l)"; }

"$steps/score_tde.sh" "$dir/data/buckeye" "$data/gold.class" "$dir/tde" > "$dir/tde_warmup.log" 2>&1
plain=$(t "$steps/score_tde.sh" "$dir/data/buckeye" "$data/gold.class" "$dir/tde")
boot=$(t "$steps/score_tde.sh" --bootstrap "$n" "$dir/data/buckeye" "$data/gold.class" "$dir/tde")
row "buckeye gold.class" "$plain" "$boot"

[ -f "$dir/std/kws/ecf.xml" ] || "${py[@]}" -c "import sys; sys.path.insert(0, sys.argv[1]); from bench_std import generate; generate(sys.argv[2], 500, 200000, 200, 30.0, 'kwslist')" \
  "$TERMEVAL_ROOT/local" "$dir/std"
plain=$(t "${py[@]}" -m termeval.bin.score_std --preset nist2006 --plots false "$dir/std/kws" "$dir/std/detections.xml" "$dir/std/exp")
boot=$(t "${py[@]}" -m termeval.bin.score_std --preset nist2006 --plots false --bootstrap "$n" "$dir/std/kws" "$dir/std/detections.xml" "$dir/std/exp")
row "std 500 x 200k" "$plain" "$boot"

[ -f "$dir/seg/jittered.txt" ] || { mkdir -p "$dir/seg"; "${py[@]}" "$TERMEVAL_ROOT/local/make_segmentation.py" jitter \
  "$dir/data/buckeye" "$dir/seg/jittered.txt"; }
plain=$(t "$steps/score_segmentation.sh" "$dir/data/buckeye" "$dir/seg/jittered.txt" "$dir/seg/exp")
boot=$(t "$steps/score_segmentation.sh" --bootstrap "$n" "$dir/data/buckeye" "$dir/seg/jittered.txt" "$dir/seg/exp")
row "buckeye segmentation" "$plain" "$boot"
