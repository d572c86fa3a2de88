#!/usr/bin/env bash
# Benchmark of steps/score_tde_folds.sh (zr2015/zr2017 definitions): prints wall time and peak
# memory of
#   1. the ZR2017 Mandarin evaluation (Kamper et al. submission, all metrics, 4 cross + 11 within
#      folds, TDE17 resources), with --nj 1 and --nj 2 (the original tool: 4 min 25 s with 2 jobs);
#   2. --folds none matching on the whole 38-hour ZR2017 English corpus (prepared SIL-less) with a
#      deterministic synthetic 100k-fragment class file made from the gold words
#      (local/make_synthetic_classes.py); cross = whole corpus, within = one fold per speaker.
# Data dirs and outputs go under <work-dir> (default exp/bench_tde_folds).
#
# Usage: local/bench_tde_folds.sh [--shared ../shared] [--work-dir exp/bench_tde_folds] [--n 100000]
#  e.g.: local/bench_tde_folds.sh

shared=../shared
work_dir=exp/bench_tde_folds
n=100000

echo "$0 $@" >&2
. "$(dirname "$(readlink -f "$0")")/../path.sh"
. "$(dirname "$(readlink -f "$0")")/../utils/parse_options.sh"
# a benchmark of the recipe itself: it runs from termeval's root and writes under its exp/
cd "$(dirname "$(readlink -f "$0")")/.."
if [ $# -ne 0 ]; then
  "$TERMEVAL_ROOT/utils/usage.sh" "$0"
  exit 1
fi
set -euo pipefail

d=$shared/data
mkdir -p "$work_dir"
measure() {  # measure <label> <command...>: run, print wall time and peak RSS
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$work_dir/time.txt" "$@" > "$work_dir/last.log" 2>&1 || {
    cat "$work_dir/last.log" >&2; exit 1; }
  read -r wall rss < "$work_dir/time.txt"
  printf '%-58s %8.2f s  %7.0f MB peak\n' "$label" "$wall" "$(echo "$rss / 1024" | bc -l)"
}

[ -f "$work_dir/mandarin/phones" ] || steps/prepare_gold.sh --format zr --fill-gaps false --sort true \
  --spk-rule prefix:3 "$d/zr17_tde17/mandarin.phn" "$d/zr17_tde17/mandarin.wrd" "$work_dir/mandarin" 2>/dev/null
for nj in 1 2; do
  measure "zr2017 Mandarin/Kamper, all metrics, 15 folds, --nj $nj" \
    steps/score_tde_folds.sh --nj $nj --benchmark zr2017 --folds "$d/zr17_tde17/mandarin" \
      "$work_dir/mandarin" "$d/zr17/kamper_mandarin.class" "$work_dir/exp_mandarin_nj$nj"
done
grep -E '^cross_(matching|grouping|token|type|boundary)_fscore |^cross_(ned|coverage) ' \
  "$work_dir"/exp_mandarin_nj1/scores/{matching,clustering,parsing} | sed 's|.*/scores/|  |'

measure "prepare English data dir (SIL dropped, gaps kept)" \
  bash -c "[ -f $work_dir/english/phones ] || steps/prepare_gold.sh --format zr --fill-gaps false \
    --drop-silence true --sort true --spk-rule whole $d/zr17/english.phn $d/zr17/english.wrd $work_dir/english"
measure "synthetic class file ($n fragments)" \
  python3 local/make_synthetic_classes.py --n "$n" "$work_dir/english" "$work_dir/english_${n}.class"
measure "zr2017 --folds none matching, English 38 h, 1 + 69 folds" \
  steps/score_tde_folds.sh --benchmark zr2017 --folds none --measures matching --lenient true \
    "$work_dir/english" "$work_dir/english_${n}.class" "$work_dir/exp_english"
log=$work_dir/exp_english/log/zr2017.log
echo "  $(grep -m1 '^prepared' "$log")"
echo "  whole-corpus fold: $(grep -m1 '^cross fold 0' "$log" | sed 's/cross fold 0: //'); $(python3 -c "
import json
d = json.load(open('$work_dir/exp_english/scores/scores.json'))['folds']['cross'][0]
print('Pdisc %d, Psubs %d ordered pairs, P %.4f R %.4f' % (d['matching_pdisc_pairs'],
      d['matching_psubs_pairs'], d['matching_precision'], d['matching_recall']))")"
measure "zr2017 --folds none all metrics, English 38 h, 1 + 69 folds" \
  steps/score_tde_folds.sh --benchmark zr2017 --folds none --lenient true \
    "$work_dir/english" "$work_dir/english_${n}.class" "$work_dir/exp_english_all"
