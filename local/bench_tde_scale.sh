#!/usr/bin/env bash
# Benchmark of the whole-corpus TDE scoring at the scale of a full-coverage system: the 38 h
# ZeroSpeech 2017 English gold (SIL-less) with the class file of a perfect word segmenter (one
# class per gold word type holding every token: 361 k fragments, 21 k classes, 5.9e8
# same-class pairs; local/make_word_classes.py, derived from english.wrd, nothing downloaded).
# Prints wall time and peak memory (/usr/bin/time) of
#   1. steps/score_tde.sh --benchmark zrc2020;
#   2. steps/score_tde.sh --benchmark zr2017 --folds none (all metrics; 1 cross + 69 within folds);
#   3. the same with corpus and class file replicated x2, x4 and x10 (copies: files <f>_c<k>, times
#      shifted by k * 100000 s, phone labels except SIL/SPN renamed; local/make_word_classes.py):
#      every count grows K times (fragments, gold n-grams, files, speakers = within folds);
#      x10 = 380 h, 3.6 M fragments, 14 M phone lines (about 0.6 GB of text);
#   --nj N (each N of --nj-list): the same step with N jobs through local/timed_run.sh (utils/run.pl
#      with each job under /usr/bin/time): the step's figures (its largest process: the preparation
#      run once before the jobs, a job or the merge), the preparation alone (--prepare-only), and
#      the peak of the largest job and of the merge, also as a share of the one-process peak
#      (zrc2020 and zr2017 at every size);
#   4. zr2017 with synthetic folds (--folds <prefix>: 4 cross folds cutting the files in quarters
#      of their duration, within = one fold per speaker); skipped with --synthetic-folds false.
# Data dirs and outputs go under <work-dir> (default exp/bench_tde_scale). Columns: wall time,
# CPU time (user + system, less sensitive to a loaded machine), peak resident memory, CPU time
# per MB of input text (data/phones + data/words + class file).
#
# Usage: local/bench_tde_scale.sh [--shared ../shared] [--work-dir exp/bench_tde_scale] [--copies "2 4 10"]
#                                 [--benchmarks "zrc2020 zr2017"] [--synthetic-folds true] [--nj-list "2 4"]
#  e.g.: local/bench_tde_scale.sh

shared=../shared
work_dir=exp/bench_tde_scale
copies="2 4 10"
benchmarks="zrc2020 zr2017"
synthetic_folds=true
nj_list="2 4"

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

d=$shared/data/zr17
mkdir -p "$work_dir"
input_mb=0
measure() {  # measure <label> <command...>: run (last argument = a fresh exp dir), print the times
  local label=$1; shift
  rm -rf "${@: -1}"      # cold: classes prepared and the data dir parsed, no cache of a past run
  /usr/bin/time -f "%e %U %S %M" -o "$work_dir/time.txt" "$@" > "$work_dir/last.log" 2>&1 || {
    cat "$work_dir/last.log" >&2; exit 1; }
  read -r wall user sys rss < "$work_dir/time.txt"
  last_peak=$(echo "$rss / 1024" | bc -l)
  printf '%-56s %7.2f s wall %7.2f s cpu %6.0f MB peak %6.3f cpu-s/MB\n' "$label" "$wall" \
    "$(echo "$user + $sys" | bc -l)" "$(echo "$rss / 1024" | bc -l)" "$(echo "($user + $sys) / $input_mb" | bc -l)"
}
one_peak=0    # peak (MB) of the last one-process run, for the shares printed by `peaks`
peaks() {  # peaks <exp-dir> <log-name>: peak of the largest job and of the merge (local/timed_run.sh)
  local job merge
  job=$(awk '/^TIME / {if ($5 > m) m = $5} END {printf "%.0f", m / 1024}' "$1/log/$2".[0-9]*.log)
  merge=$(awk '/^TIME / {printf "%.0f", $5 / 1024}' "$1/log/$2.merge.log")
  printf '  %-54s %6s MB largest job (%3.0f %%) %6s MB merge (%3.0f %%)\n' "per-process peaks" "$job" \
    "$(echo "100 * $job / $one_peak" | bc -l)" "$merge" "$(echo "100 * $merge / $one_peak" | bc -l)"
}
prepare() {  # prepare <k>: data dir and word class file of the corpus replicated k times
  local k=$1 w=$work_dir/x$1
  [ -f "$w/data/phones" ] && [ -f "$w/words.class" ] && return 0
  mkdir -p "$w"
  python3 local/make_word_classes.py --replicate-alignment "$k" "$d/english.phn" "$w/english.phn"
  python3 local/make_word_classes.py --replicate-alignment "$k" --relabel false "$d/english.wrd" "$w/english.wrd"
  steps/prepare_gold.sh --format zr --fill-gaps false --drop-silence true --sort true \
    --spk-rule whole "$w/english.phn" "$w/english.wrd" "$w/data" > /dev/null 2>&1
  python3 local/make_word_classes.py --copies "$k" "$d/english.wrd" "$w/words.class"
}

run_case() {  # run_case <k>: the selected benchmarks on the corpus replicated k times
  local k=$1 w=$work_dir/x$1 tag="" nj
  prepare "$k"
  input_mb=$(du -cb "$w/data/phones" "$w/data/words" "$w/words.class" | tail -1 | awk '{print $1 / 1048576}')
  [ "$k" -gt 1 ] && tag=", corpus and classes x$k"
  if [ "$k" -eq 1 ]; then
    echo "# English 38 h, $(grep -c '^Class' "$w/words.class") classes, $(grep -vc -e '^Class' -e '^$' "$w/words.class") fragments"
  fi
  printf '# x%d: %.0f MB of input text\n' "$k" "$input_mb"
  if [[ " $benchmarks " == *" zrc2020 "* ]]; then
    measure "zrc2020, all metrics$tag" \
      steps/score_tde.sh --benchmark zrc2020 "$w/data" "$w/words.class" "$w/exp_zrc2020"
    one_peak=$last_peak
    grep -h ': classes ' "$w/exp_zrc2020/log/zrc2020.log" | sed 's/^.*: classes/  zrc2020: classes/'
    if [ -n "$nj_list" ]; then   # what a step with jobs runs once, locally, before launching them
      measure "  zrc2020 --prepare-only (once, before the jobs)" utils/termeval_python.sh -m termeval.bin.score_tde \
        --prepare-only "$w/data" "$w/words.class" "$w/exp_zrc2020_prepare"
    fi
    for nj in $nj_list; do
      measure "zrc2020 --nj $nj$tag" steps/score_tde.sh --benchmark zrc2020 --nj "$nj" \
        --cmd "$PWD/local/timed_run.sh" "$w/data" "$w/words.class" "$w/exp_zrc2020_nj$nj"
      peaks "$w/exp_zrc2020_nj$nj" zrc2020
    done
  fi
  if [[ " $benchmarks " == *" zr2017 "* ]]; then
    measure "zr2017 --folds none, all metrics$tag" \
      steps/score_tde.sh --benchmark zr2017 --folds none "$w/data" "$w/words.class" "$w/exp_zr2017"
    one_peak=$last_peak
    grep -m1 '^prepared' "$w/exp_zr2017/log/zr2017.log" | sed 's/^/  /'
    grep -m1 '^cross fold 0' "$w/exp_zr2017/log/zr2017.log" | sed 's/^/  /'
    awk '/^within fold/ {n++; t += $4} END {printf "  %d within folds: %.2f s\n", n, t}' \
      "$w/exp_zr2017/log/zr2017.log"
    if [ "$k" -eq 1 ]; then
      grep -E '^cross_(ned_pairs|matching_fscore|grouping_fscore|ned|coverage) ' \
        "$w"/exp_zr2017/scores/{matching,clustering} | sed 's|.*/scores/|  |'
    fi
    if [ -n "$nj_list" ]; then   # what a step with jobs runs once, locally, before launching them
      measure "  zr2017 --prepare-only (once, before the jobs)" utils/termeval_python.sh -m termeval.bin.score_tde \
        --prepare-only --benchmark zr2017 --folds none "$w/data" "$w/words.class" "$w/exp_zr2017_prepare"
    fi
    for nj in $nj_list; do
      measure "zr2017 --folds none --nj $nj$tag" steps/score_tde.sh --benchmark zr2017 --folds none \
        --nj "$nj" --cmd "$PWD/local/timed_run.sh" "$w/data" "$w/words.class" "$w/exp_zr2017_nj$nj"
      peaks "$w/exp_zr2017_nj$nj" zr2017
    done
  fi
}

run_case 1
w=$work_dir/x1
if $synthetic_folds && [[ " $benchmarks " == *" zr2017 "* ]]; then
  python3 - "$w/data" "$w/folds" <<'PY'
import sys
from termeval.core.datadir import load_gold
g = load_gold(sys.argv[1])
dur = {f: 0.0 for f in g.files}
for f, e in zip(g.phones.file.tolist(), g.phones.offset.tolist()):
    dur[g.files[f]] = max(dur[g.files[f]], e)
pre = sys.argv[2]
with open(pre + ".split", "w") as fh:
    fh.writelines(f"{f} 0.0 {dur[f]:.4f}\n" for f in g.files)
with open(pre + ".intervals.cross", "w") as fh:
    fh.write("\n".join("".join(f"{f} {q * dur[f] / 4:.4f} {(q + 1) * dur[f] / 4:.4f}\n"
                               for f in g.files) for q in range(4)))
spk = sorted(set(g.speaker))
with open(pre + ".intervals.within", "w") as fh:
    fh.write("\n".join("".join(f"{f} 0.0 {dur[f]:.4f}\n" for f, s in zip(g.files, g.speaker) if s == sp)
                       for sp in spk))
PY
  measure "zr2017 --folds <synthetic: 4 cross quarters + 69 within>" \
    steps/score_tde.sh --benchmark zr2017 --folds "$w/folds" "$w/data" "$w/words.class" "$w/exp_zr2017_folds"
fi
for k in $copies; do
  run_case "$k"
done
