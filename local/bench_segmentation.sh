#!/usr/bin/env bash
# Benchmark of steps/score_segmentation.sh on the 38 h English ZeroSpeech 2017 corpus: a
# full-coverage segmentation built from english.wrd with jittered boundaries (about 400 k
# segments, local/make_segmentation.py jitter), scored with all metrics including the
# one-to-one (Hungarian) mapping and the 5-50 ms tolerance sweep. The gold data dir and the
# segmentation are built once, outside the timings. Prints wall time, CPU time and peak RSS per
# run; not a test, it asserts nothing.
#
# Usage: local/bench_segmentation.sh [options]
# Options:
#   --data <dir>   # ZeroSpeech 2017 files (english.phn, english.wrd); default downloads/zr17 (local/get_zr17.sh) if present, else ../shared/data/zr17
#   --dir <dir>    # work dir (default exp/bench_segmentation)
#   --nj <n>       # jobs (default 1)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

data=
dir=exp/bench_segmentation
nj=1

echo "$0 $*" >&2
. "$TERMEVAL_ROOT/utils/parse_options.sh"
[ $# -eq 0 ] || te_usage
set -euo pipefail

if [ -z "$data" ]; then if [ -f downloads/zr17/english.phn ]; then data=downloads/zr17; else data=$TERMEVAL_ROOT/../shared/data/zr17; fi; fi
for f in english.phn english.wrd; do te_check_file "corpus file" "$data/$f"; done
mkdir -p "$dir"
[ -f "$dir/data/words" ] || "$TERMEVAL_ROOT/steps/prepare_gold.sh" --format zr "$data/english.phn" \
  "$data/english.wrd" "$dir/data" > "$dir/prepare_gold.log" 2>&1
[ -f "$dir/jittered.txt" ] || "${te_python[@]}" "$TERMEVAL_ROOT/local/make_segmentation.py" jitter \
  "$dir/data" "$dir/jittered.txt"

for compat in none vqwordseg; do
  exp=$dir/exp_$compat
  rm -rf "$exp"
  /usr/bin/time -o "$exp.time" -f "%e %U %S %M" "$TERMEVAL_ROOT/steps/score_segmentation.sh" --nj "$nj" \
    --compat "$compat" "$dir/data" "$dir/jittered.txt" "$exp" > "$exp.log" 2>&1 || \
    { echo "$0: compat=$compat failed, see $exp.log" >&2; exit 1; }
  read -r wall user sys rss < <(tail -1 "$exp.time")
  "${te_python[@]}" - "$compat" "$exp" "$wall" "$user" "$sys" "$rss" <<'PY'
import json, sys
compat, exp, wall, user, sys_, rss = sys.argv[1:7]
s = json.load(open(f"{exp}/scores/scores.json"))
print(f"compat={compat:<9} wall {float(wall):6.2f} s  cpu {float(user) + float(sys_):6.2f} s  "
      f"peak RSS {int(rss) / 1024:7.1f} MB  segments {s['word_segments']}  clusters {s['word_clusters']}  "
      f"boundary F {s['word_boundary_fscore']:.4f}  token F {s['word_token_fscore']:.4f}  o2o {s['word_o2o_accuracy']:.4f}")
PY
done
