#!/usr/bin/env bash
# Benchmark of steps/score_text_segmentation.sh on the 38 h English ZeroSpeech 2017 corpus as
# text: the gold exported by utils/export_text.sh (one line per file, words as phone strings),
# a simulated segmentation (local/make_text_segmentation.py: 30 % of the gold boundaries dropped,
# 10 % of the other phone edges cut), scored with every measure (--prepared: adjusted Rand index;
# --summary), for --compat none and wordseg. Prints wall time, CPU time and peak RSS per run; not
# a test, it asserts nothing.
#
# Usage: local/bench_text_segmentation.sh [options]
# Options:
#   --data <dir>   # ZeroSpeech 2017 files (english.phn, english.wrd); default downloads/zr17 if present, else ../shared/data/zr17
#   --dir <dir>    # work dir (default exp/bench_text_segmentation)
#   --nj <n>       # jobs (default 1)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

data=
dir=exp/bench_text_segmentation
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
[ -f "$dir/text/gold.txt" ] || "$TERMEVAL_ROOT/utils/export_text.sh" "$dir/data" "$dir/text" 2> "$dir/export.log"
[ -f "$dir/segmented.txt" ] || "${te_python[@]}" "$TERMEVAL_ROOT/local/make_text_segmentation.py" \
  "$dir/text/gold.txt" "$dir/text/prepared.txt" "$dir/segmented.txt"

for compat in none wordseg; do
  exp=$dir/exp_$compat
  rm -rf "$exp"
  /usr/bin/time -o "$exp.time" -f "%e %U %S %M" "$TERMEVAL_ROOT/steps/score_text_segmentation.sh" --nj "$nj" \
    --compat "$compat" --prepared "$dir/text/prepared.txt" --summary "$exp.summary.json" \
    "$dir/text/gold.txt" "$dir/segmented.txt" "$exp" > "$exp.log" 2>&1 || \
    { echo "$0: compat=$compat failed, see $exp.log" >&2; exit 1; }
  read -r wall user sys rss < <(tail -1 "$exp.time")
  "${te_python[@]}" - "$compat" "$exp" "$wall" "$user" "$sys" "$rss" <<'PY'
import json, sys
compat, exp, wall, user, sys_, rss = sys.argv[1:7]
s = json.load(open(f"{exp}/scores/scores.json"))
c = s["text_segmentation"]["counts"]
print(f"compat={compat:<8} wall {float(wall):6.2f} s  cpu {float(user) + float(sys_):6.2f} s  "
      f"peak RSS {int(rss) / 1024:7.1f} MB  utterances {s['text_segmentation']['utterances']}  "
      f"gold words {c['token']['gold']}  token F {s['text_token_fscore']:.4f}  ARI {s['text_adjusted_rand_index']:.4f}")
PY
done
