#!/usr/bin/env bash
# Benchmark python -m termeval.bin.prepare_gold (+ python -m termeval.bin.validate_alignment_dir) on the 38-hour ZeroSpeech
# 2017 English gold (1.43 M phone lines, 361 k words). Prints wall time and peak memory of
# each step (/usr/bin/time -v when present, else Python's resource.getrusage).
# Not a test: timings depend on the machine.
#
# (cpu = user + system time: on a busy machine it is steadier than wall time)
#
# Usage: local/bench_prepare_gold.sh [options]
#  e.g.: local/get_zr17.sh && local/bench_prepare_gold.sh --data downloads/zr17
#
# Options (default):
#   --data <dir>     # (downloads/zr17, filled by local/get_zr17.sh) folder holding english.{phn,wrd}
#   --dir <dir>      # (exp/bench_prepare_gold) output data dir (data/ files go under it)

# Begin configuration section.
data=downloads/zr17
dir=exp/bench_prepare_gold
# End configuration section.

. "$(dirname "$(readlink -f "$0")")/../path.sh"
. "$(dirname "$(readlink -f "$0")")/../utils/parse_options.sh"
# a benchmark of the recipe itself: it runs from termeval's root and writes under its exp/
cd "$(dirname "$(readlink -f "$0")")/.."

if [ $# -ne 0 ]; then
  "$TERMEVAL_ROOT/utils/usage.sh" "$0"
  exit 1
fi
set -euo pipefail

phn=$data/english.phn
wrd=$data/english.wrd
for f in "$phn" "$wrd"; do
  [ -f "$f" ] || { echo "$0: no such file $f (run local/get_zr17.sh, or set --data)" >&2; exit 1; }
done
mkdir -p "$dir/log"

measure() {  # measure <name> <command...>: prints '<name>: wall <s> s, peak RSS <MB> MB'
  local name=$1; shift
  if [ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1; then
    /usr/bin/time -v "$@" 2> "$dir/log/$name.log" || { cat "$dir/log/$name.log" >&2; return 1; }
    awk -v n="$name" -F': ' '/Elapsed \(wall clock\)/ {w=$2} /Maximum resident set size/ {m=$2}
      /User time \(seconds\)/ {u=$2} /System time \(seconds\)/ {y=$2}
      END {k=split(w, a, ":"); s=0; for (i=1; i<=k; i++) s=s*60+a[i];
           printf "%s: wall %.2f s, cpu %.2f s, peak RSS %.0f MB\n", n, s, u+y, m/1024}' "$dir/log/$name.log"
  else
    python3 - "$name" "$@" <<'PY'
import resource, subprocess, sys, time
t = time.time()
subprocess.run(sys.argv[2:], check=True, stderr=subprocess.DEVNULL)
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{sys.argv[1]}: wall {time.time() - t:.2f} s, cpu {ru.ru_utime + ru.ru_stime:.2f} s, "
      f"peak RSS {ru.ru_maxrss / 1024:.0f} MB")
PY
  fi
}

echo "# $(wc -l < "$phn") phone lines, $(wc -l < "$wrd") word lines; $(nproc) CPU(s)"
measure prepare_gold python3 -m termeval.bin.prepare_gold --format zr "$phn" "$wrd" "$dir/english"
measure validate_data_dir python3 -m termeval.bin.validate_alignment_dir "$dir/english"
measure export_zr python3 -m termeval.bin.export_zr "$dir/english" "$dir/english.phn" "$dir/english.wrd"
echo "# output: $dir/english ($(wc -l < "$dir/english/phones") phones, $(grep -c ' SIL$' "$dir/english/phones") SIL)"
