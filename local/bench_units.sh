#!/usr/bin/env bash
# Benchmark of steps/score_discophon.sh against discophon 0.2.0's own benchmark on the same
# input: 12 languages x 10 h (5 h dev + 5 h test each, 24 pairs) of real phone alignments (the
# ZeroSpeech 2017 English, French, Mandarin and Buckeye and ZeroSpeech 2015 Xitsonga .phn files,
# cut into ~6 s utterances on the 10 ms grid, reused under new ids) with synthetic 50 Hz units
# (local/make_units_bench.py). Both run one process, in this one run, under /usr/bin/time;
# prints wall, CPU (user + sys) and peak RSS of each, and the largest difference of their
# scores.jsonl. The input is built once, outside the timings. Not a test: it asserts nothing.
#
# Usage: local/bench_units.sh [options]
# Options:
#   --data <dir>     # the .phn files (default ../shared/data)
#   --dir <dir>      # work dir (default exp/bench_units)
#   --hours <h>      # per language (default 10)
#   --kind <k>       # many-to-one (default) or one-to-one
# Environment: $DISCOPHON_PYTHON (or $DISCOPHON_DIR/bin/python): a Python with discophon==0.2.0;
#   without it only termeval is timed.

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

data=$TERMEVAL_ROOT/../shared/data
dir=exp/bench_units
hours=10
kind=many-to-one

echo "$0 $*" >&2
. "$TERMEVAL_ROOT/utils/parse_options.sh"
[ $# -eq 0 ] || te_usage
set -euo pipefail

corpora=()
for f in zr17/english.phn zr17/french.phn zr17/mandarin.phn zr17/buckeye.phn zr15/xitsonga.phn; do
  [ -f "$data/$f" ] && corpora+=("$data/$f")
done
[ ${#corpora[@]} -gt 0 ] || te_die "no .phn file under $data (give --data)"
mkdir -p "$dir"
case_dir=$dir/input_${hours}h
[ -f "$case_dir/options.json" ] || "${te_python[@]}" "$TERMEVAL_ROOT/local/make_units_bench.py" --hours "$hours" \
  "$case_dir" "${corpora[@]}"
printf '{"kind": "%s", "step_units": 20}\n' "$kind" > "$case_dir/options.json"
du -sh "$case_dir/dataset" "$case_dir/predictions" | sed "s|^|$0: input |" >&2

report() {   # <name> <time file>
  read -r wall user sys rss < <(tail -1 "$2")
  awk -v n="$1" -v w="$wall" -v u="$user" -v s="$sys" -v m="$rss" \
    'BEGIN { printf "%-10s wall %7.2f s  cpu %7.2f s  peak %7.0f MB\n", n, w, u + s, m / 1024 }'
}

out=$dir/termeval_$kind
rm -rf "$out"
/usr/bin/time -o "$out.time" -f "%e %U %S %M" "$TERMEVAL_ROOT/steps/score_discophon.sh" --kind "$kind" \
  "$case_dir/dataset" "$case_dir/predictions" "$out" > "$out.log" 2>&1 || { echo "$0: termeval failed, see $out.log" >&2; exit 1; }
report termeval "$out.time"

dpy=${DISCOPHON_PYTHON:-${DISCOPHON_DIR:+$DISCOPHON_DIR/bin/python}}
if [ -z "$dpy" ]; then
  echo "$0: DISCOPHON_PYTHON not set: discophon not timed" >&2
  exit 0
fi
ref=$dir/discophon_$kind.json
/usr/bin/time -o "$ref.time" -f "%e %U %S %M" "$dpy" "$TERMEVAL_ROOT/local/units_reference/discophon_run.py" \
  "$ref" "$case_dir" > "$ref.log" 2>&1 || { echo "$0: discophon failed, see $ref.log" >&2; exit 1; }
report discophon "$ref.time"
"${te_python[@]}" - "$out/scores.jsonl" "$ref" <<'PY'
import json, sys
ours = open(sys.argv[1]).read()
theirs = next(iter(json.load(open(sys.argv[2]))["cases"].values()))
if "error" in theirs:
    sys.exit(f"discophon refused the input: {theirs['error']}")
a = [json.loads(x) for x in ours.splitlines()]
b = [json.loads(x) for x in theirs["scores_jsonl"].splitlines()]
keys = [(r["language"], r["split"], r["metric"]) for r in a]
assert keys == [(r["language"], r["split"], r["metric"]) for r in b], "different rows"
diff = max(abs(x["score"] - y["score"]) for x, y in zip(a, b))
print(f"scores.jsonl: {len(a)} rows, identical bytes: {ours == theirs['scores_jsonl']}, max abs difference {diff:.3g}")
PY
