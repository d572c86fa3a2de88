#!/usr/bin/env bash
# Benchmark of the zrc2020 (tdev2) term discovery scoring (steps/score_tde.sh), end to end
# (class preparation, statistics jobs, merge): prints wall time and peak RSS (largest process)
# for the Kamper et al. Mandarin submission, Buckeye gold.class, Buckeye
# gold_words_200_500ms.class (one class of 30 k fragments), and synthetic x4/x16 scale-ups of
# Mandarin (more clusters of the same size, and clusters growing). Gold data dirs are prepared
# once, outside the timings. Not a test: it prints figures, it asserts nothing.
#
# Usage: local/bench_tde.sh [options]
#  e.g.: local/bench_tde.sh --nj 2
#
# Options:
#   --data <dir>      # ZeroSpeech 2017 files (mandarin.*, buckeye.*, *.class); default
#                     # downloads/zr17 if present (local/get_zr17.sh), else ../shared/data/zr17
#   --dir <dir>       # work dir (default exp/bench_tde)
#   --nj <n>          # jobs per scoring run (default 1)
#   --cases <list>    # comma list of mandarin,buckeye_gold,buckeye_words,x4_more,x4_grow,
#                     # x16_more,x16_grow (default: all)

data=
dir=exp/bench_tde
nj=1
cases=mandarin,buckeye_gold,buckeye_words,x4_more,x4_grow,x16_more,x16_grow

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

if [ -z "$data" ]; then
  if [ -f downloads/zr17/mandarin.phn ]; then data=downloads/zr17; else data=../shared/data/zr17; fi
fi
for f in mandarin.phn mandarin.wrd kamper_mandarin.class buckeye.phn buckeye.wrd gold.class gold_words_200_500ms.class; do
  [ -f "$data/$f" ] || { echo "$0: missing $data/$f (run local/get_zr17.sh or pass --data)" >&2; exit 1; }
done
mkdir -p "$dir"

gold() {  # <name> <phn> <wrd>
  [ -f "$dir/data/$1/phones" ] || \
    steps/prepare_gold.sh --format zr "$2" "$3" "$dir/data/$1" > "$dir/prepare_gold_$1.log" 2>&1
}

bench() {  # <label> <data-dir> <class-file> <exp-dir>
  rm -rf "$4"
  local t
  /usr/bin/time -o "$4.time" -f "%e %M" steps/score_tde.sh --nj "$nj" "$2" "$3" "$4" > "$4.log" 2>&1 || \
    { echo "$0: $1 failed, see $4.log" >&2; return 1; }
  t=$(tail -1 "$4.time")
  python3 - "$1" "$3" "$4" $t <<'PY'
import json, sys
label, cls, exp, wall, rss = sys.argv[1:6]
s = json.load(open(f"{exp}/scores/scores.json"))
c = s["counts"]
print(f"{label:<16} {float(wall):7.2f} s {int(rss) / 1024:8.1f} MB  fragments {c['fragments']:>8}"
      f"  classes {c['classes']:>7}  ned_pairs {c['ned_pairs']:>11}  ned {s['ned']:.6f}"
      f"  grouping {s['grouping_precision'] if s['grouping_precision'] is not None else float('nan'):.6f}")
PY
}

echo "# nj=$nj, data=$data, $(nproc) cores; wall time and peak RSS of the largest process" >&2
for c in ${cases//,/ }; do
  case $c in
    mandarin) gold mandarin "$data/mandarin.phn" "$data/mandarin.wrd"
      bench mandarin "$dir/data/mandarin" "$data/kamper_mandarin.class" "$dir/mandarin" ;;
    buckeye_gold) gold buckeye "$data/buckeye.phn" "$data/buckeye.wrd"
      bench buckeye_gold "$dir/data/buckeye" "$data/gold.class" "$dir/buckeye_gold" ;;
    buckeye_words) gold buckeye "$data/buckeye.phn" "$data/buckeye.wrd"
      bench buckeye_words "$dir/data/buckeye" "$data/gold_words_200_500ms.class" "$dir/buckeye_words" ;;
    x4_more|x4_grow|x16_more|x16_grow)
      f=${c%_*}; f=${f#x}; mode=${c#*_}
      [ -f "$dir/$c.src/corpus.class" ] || python3 local/make_scaleup.py --mode "$mode" \
        "$data/mandarin.phn" "$data/mandarin.wrd" "$data/kamper_mandarin.class" "$f" "$dir/$c.src"
      gold "x$f" "$dir/$c.src/corpus.phn" "$dir/$c.src/corpus.wrd"
      bench "$c" "$dir/data/x$f" "$dir/$c.src/corpus.class" "$dir/$c" ;;
    *) echo "$0: unknown case $c" >&2; exit 1 ;;
  esac
done
