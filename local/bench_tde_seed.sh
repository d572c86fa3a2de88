#!/usr/bin/env bash
# Benchmark of the seed-document modes (--benchmark zr2015-doc, lrec2014; termeval/seeddoc)
# at full-coverage scale: the 38 h ZeroSpeech 2017 English gold (SIL-less) with the class file
# of a perfect word segmenter (one class per gold word type holding every token: 361 k
# fragments, 21 k classes, 5.9e8 same-class pairs; local/make_word_classes.py from
# english.wrd), built as local/bench_tde_scale.sh does, from downloads/zr17
# (local/get_zr17.sh). Each mode runs with --folds none and with its default folds
# (auto: equal:10 / random:50x0.04:777) through steps/score_tde.sh (one process, --nj 1;
# the classes are prepared once, outside the measurement, and reused by every run). Prints wall time, CPU time and peak memory
# (/usr/bin/time) and the main scores. Targets (seed-definitions.md §5): <= 2 min, <= 3 GB.
#
# Usage: local/bench_tde_seed.sh [--zr17 downloads/zr17] [--work-dir exp/bench_tde_seed]
#                                [--modes "zr2015-doc lrec2014"] [--folds "none auto"]
#  e.g.: local/bench_tde_seed.sh

zr17=downloads/zr17
work_dir=exp/bench_tde_seed
modes="zr2015-doc lrec2014"
folds="none auto"

echo "$0 $@" >&2
. "$(dirname "$(readlink -f "$0")")/../path.sh"
. "$(dirname "$(readlink -f "$0")")/../utils/parse_options.sh"
cd "$(dirname "$(readlink -f "$0")")/.."
if [ $# -ne 0 ]; then
  "$TERMEVAL_ROOT/utils/usage.sh" "$0"
  exit 1
fi
set -euo pipefail

[ -f "$zr17/english.phn" ] || { echo "$0: $zr17/english.phn missing: run local/get_zr17.sh" >&2; exit 1; }
w=$work_dir
mkdir -p "$w"
if [ ! -f "$w/data/phones" ] || [ ! -f "$w/words.class" ]; then
  steps/prepare_gold.sh --format zr --fill-gaps false --drop-silence true --sort true \
    --spk-rule whole "$zr17/english.phn" "$zr17/english.wrd" "$w/data" > /dev/null 2>&1
  python3 local/make_word_classes.py --copies 1 "$zr17/english.wrd" "$w/words.class"
fi
python3 -m termeval.bin.score_tde --prepare-only --benchmark zr2015-doc "$w/data" "$w/words.class" "$w/exp" 2> /dev/null
echo "# English 38 h, $(grep -c '^Class' "$w/words.class") classes, $(grep -vc -e '^Class' -e '^$' "$w/words.class") fragments"
for mode in $modes; do
  for f in $folds; do
    /usr/bin/time -f "%e %U %S %M" -o "$w/time.txt" \
      steps/score_tde.sh --benchmark "$mode" --folds "$f" "$w/data" "$w/words.class" "$w/exp" \
      > "$w/last.log" 2> "$w/last.err" || { cat "$w/last.err" >&2; exit 1; }
    read -r wall user sys rss < "$w/time.txt"
    printf '%-34s %7.2f s wall %7.2f s cpu %6.0f MB peak\n' "$mode --folds $f" "$wall" \
      "$(echo "$user + $sys" | bc -l)" "$(echo "$rss / 1024" | bc -l)"
    sed 's/^/  /' "$w/last.log"
  done
done
