#!/usr/bin/env bash
# Overhead of every scoring step over its own metrics (issue 32 item 3): runs each step once
# (or best of --repeat) on a realistic input, with TERMEVAL_TIMING=1, and prints one Markdown
# table row per step:
#   end-to-end CPU-s  user + sys of the whole step and every process it starts
#                     (/usr/bin/time -f "%U %S"; the inputs' generation is not counted);
#   kernel CPU-s      the process CPU time of its metrics, timed inside the stage by the driver
#                     (termeval/run/driver.py: the `termeval-timing:` stderr line, compute +
#                     merge; prepare_kws, a run_task step: its write), summed over the step's lines;
#   ratio             end to end / kernel (target <= 2);
# then where the rest of the end-to-end CPU went:
#   start-up CPU-s    end to end - read - kernel - write: the shell step, the interpreter, imports,
#                     option checks, the lock and the publish (the machine line on stderr and in
#                     docs/speed.md gives the floor: termeval_python.sh -c "import numpy");
#   read CPU-s        the stage's load (parsing the inputs);
#   write CPU-s       its report (score files, details, plots);
#   peak MB           the peak resident memory of the largest process (/usr/bin/time %M).
# Steps and inputs (generated once under --dir, as the other local/bench_*.sh do):
#   std               500 terms x 200 k detections over 20 h (the c6 case: local/bench_std.py's
#                     generator, as local/bench_overhead_std.sh), --preset sws2013; again with
#                     1 M detections (issue 32's <= 10 CPU-s and <= 1 GB)
#   quesst            445 queries x 2,000 documents of 30 s, 200 k detections (QUESST 2015 dev
#                     size in queries; the same generator)
#   zrc2020, zr2017 --folds none, zr2015-doc, lrec2014
#                     Kamper et al. Mandarin ($data/kamper_mandarin.class), fresh exp dir
#   segmentation      english.wrd of $data jittered (local/make_segmentation.py), else Mandarin
#   text segmentation buckeye.{phn,wrd} of $data (Buckeye-size text; else English, else
#                     Mandarin) exported by utils/export_text.sh, local/make_text_segmentation.py
#   zrc submission    Kamper Mandarin as <sub>/mandarin.txt, --partial true
#   (zrc2020 and zrc submission again with their gold in termeval's user cache: "gold cached")
#   prepare_kws       1,000 keywords (the most frequent words of >= 3 letters) on the ZR17 English
#                     gold (else Mandarin), a one-phone-per-letter lexicon
# An input that is not there gives a row of "-" saying why. Only the table goes to stdout; logs
# are under --dir. Not a test: it asserts nothing.
# --update-docs true also writes the table between the markers <!-- speed-table --> and
# <!-- /speed-table --> of docs/speed.md (all columns and the machine line) and of README.md
# (step, end-to-end CPU-s, kernel CPU-s, ratio; each step's first measured row).
#
# Usage: local/bench_steps.sh [options]
#  e.g.: local/bench_steps.sh --data ../shared/data/zr17
#
# Options:
#   --data <dir>     # ZeroSpeech 2017 files (mandarin.{phn,wrd}, kamper_mandarin.class,
#                    # english.{phn,wrd}, buckeye.{phn,wrd}); default downloads/zr17 if present,
#                    # else ../shared/data/zr17 beside the checkout
#   --dir <dir>      # work dir (default exp/bench_steps)
#   --repeat <n>     # runs per step, the least end-to-end CPU is printed (default 1)
#   --update-docs <bool>  # true: rewrite the speed tables of docs/speed.md and README.md (default false)

data=
dir=exp/bench_steps
repeat=1
update_docs=false

echo "$0 $*" >&2
. "$(dirname "$(readlink -f "$0")")/../path.sh"
. "$(dirname "$(readlink -f "$0")")/../utils/parse_options.sh"
# a benchmark of the recipe itself: it runs from termeval's root and writes under its exp/
cd "$(dirname "$(readlink -f "$0")")/.."

if [ $# -ne 0 ]; then
  "$TERMEVAL_ROOT/utils/usage.sh" "$0"
  exit 1
fi
set -euo pipefail
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || { echo "$0: --repeat: expected a whole number >= 1, got '$repeat'" >&2; exit 1; }
case "$update_docs" in true|false) ;; *) echo "$0: --update-docs: expected true or false, got '$update_docs'" >&2; exit 1 ;; esac
if [ -z "$data" ]; then
  if [ -f downloads/zr17/mandarin.phn ]; then data=downloads/zr17; else data=$TERMEVAL_ROOT/../shared/data/zr17; fi
fi
data=$(readlink -f "$data" || echo "$data")
mkdir -p "$dir"
dir=$(readlink -f "$dir")
py=python3
export TERMEVAL_TIMING=1
# steps as users run them: with Python's byte-code cache (utils/termeval_python.sh keeps it under
# ~/.cache/termeval/pycache), filled once here; PYTHONDONTWRITEBYTECODE=1 (set in some containers)
# would compile termeval's modules again on every start, about 0.08 CPU-s per step
unset PYTHONDONTWRITEBYTECODE
# termeval's user cache (core/usercache.py: zrc's prepared gold, zrc2020's parsed gold) kept
# here and emptied before every run: each row is a first run on its inputs, except the rows
# marked "gold cached" (warm=true: what scoring another system on the same gold costs)
export TERMEVAL_CACHE_DIR=$dir/cache
warm=false
utils/termeval_python.sh -m compileall -q termeval > /dev/null

# row <step> <input> <e2e> <kernel> <ratio> <start-up> <read> <write> <peak MB> <note>; a row that
# was not measured: row <step> <input> - - - - - - - <why>
row() {
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$@"
}

# measure <step> <input> <name> <command...>: run it --repeat times, each into a fresh
# $dir/<name>.exp when the command names it; print the row of the run with the least CPU:
# end to end, kernel (compute + merge), ratio, then where the rest went: start-up (shell,
# interpreter, imports, lock, publish: end to end - load - kernel - report), read (the stage's
# load), write (its report: score files, details, plots, report.html) and the peak resident memory
measure() {
  local step=$1 input=$2 name=$3 i line best= parts; shift 3
  for ((i = 0; i < repeat; i++)); do
    rm -rf "$dir/$name.exp"
    [ "$warm" = true ] || rm -rf "$TERMEVAL_CACHE_DIR"
    if ! /usr/bin/time -o "$dir/$name.time" -f "%U %S %M" "$@" > "$dir/$name.out" 2> "$dir/$name.log"; then
      row "$step" "$input" - - - - - - - "failed (see $dir/$name.log)"
      return 0
    fi
    # "termeval-timing: <stage> load <s> kernel <s> report <s> page <s>": summed over the step's lines
    parts=$(awk '$1 == "termeval-timing:" && $5 == "kernel" { l += $4; k += $6; r += $8 + $10; n++ }
                 END { if (n) printf "%.3f %.3f %.3f", l, k, r; else print "-" }' "$dir/$name.log")
    if [ "$parts" = - ]; then
      row "$step" "$input" - - - - - - - "no termeval-timing line (see $dir/$name.log)"
      return 0
    fi
    line="$(tail -n1 "$dir/$name.time") $parts"
    if [ -z "$best" ] || awk -v a="$line" -v b="$best" 'BEGIN { split(a, x, " "); split(b, y, " ")
                                                              exit !(x[1] + x[2] < y[1] + y[2]) }'; then
      best=$line
    fi
  done
  awk -v step="$step" -v input="$input" -v line="$best" 'BEGIN {
    split(line, v, " "); e2e = v[1] + v[2]; load = v[4]; kernel = v[5]; report = v[6]
    ratio = kernel > 0 ? sprintf("%.1f", e2e / kernel) : "inf"
    start = e2e - load - kernel - report; if (start < 0) start = 0
    note = (kernel > 0 && e2e / kernel <= 2) ? "ok" : "> 2"
    printf "| %s | %s | %.2f | %.2f | %s | %.2f | %.2f | %.2f | %d | %s |\n", step, input, e2e,
           kernel, ratio, start, load, report, v[3] / 1024, note }'
}

# prepared <log-name> <command...>: an input's preparation, outside the timings; fails quietly
prepared() {
  local name=$1; shift
  env -u TERMEVAL_TIMING "$@" > "$dir/$name.prep.log" 2>&1
}

# ---------------------------------------------------------------------------- std
std_row() {  # <detections> <name>: 500 terms over 20 h, as the c6 case of local/bench_std.py
  local n=$1 name=$2 in="500 terms x $(( $1 / 1000 ))k detections, 20 h"
  [ "$n" -lt 1000000 ] || in="500 terms x $(( $1 / 1000000 ))M detections, 20 h"
  if [ ! -f "$dir/$name/detections.xml" ]; then
    rm -rf "$dir/$name"
    prepared "$name" "$py" - "$dir/$name" "$n" <<'PY' || { row std "$in" - - - - - - - "generation failed (see $dir/$name.prep.log)"; return 0; }
import os, sys
sys.path.insert(0, os.path.join(os.environ["TERMEVAL_ROOT"], "local"))
from bench_std import generate
generate(sys.argv[1], 500, int(sys.argv[2]), 120, 600.0, "kwslist", seed=1)   # 120 x 600 s = 20 h
PY
  fi
  measure std "$in" "$name" steps/score_std.sh --preset sws2013 "$dir/$name/kws" "$dir/$name/detections.xml" "$dir/$name.exp"
}

# ---------------------------------------------------------------------------- quesst
quesst_row() {
  local in="445 queries x 2,000 documents, 200k detections" q=$dir/quesst
  if [ ! -f "$q/detections.xml" ]; then
    rm -rf "$q"
    prepared quesst "$py" - "$q" <<'PY' || { row quesst "$in" - - - - - - - "generation failed (see $dir/quesst.prep.log)"; return 0; }
import os, sys
sys.path.insert(0, os.path.join(os.environ["TERMEVAL_ROOT"], "local"))
from bench_std import generate
generate(sys.argv[1], 445, 200_000, 2000, 30.0, "kwslist", seed=1)   # 2,000 x 30 s documents
PY
  fi
  measure quesst "$in" quesst steps/score_quesst.sh "$q/kws" "$q/detections.xml" "$dir/quesst.exp"
}

# ---------------------------------------------------------------------------- tde
# gold_dir <lang>: the prepared gold data dir of $data/<lang>.{phn,wrd} (made once), or fails
gold_dir() {
  local g=$dir/data/$1
  [ -f "$data/$1.phn" ] && [ -f "$data/$1.wrd" ] || return 1
  [ -f "$g/words" ] || prepared "gold_$1" steps/prepare_gold.sh --format zr "$data/$1.phn" "$data/$1.wrd" "$g" || return 1
  echo "$g"
}

tde_rows() {
  local in="Kamper Mandarin" gold b
  local cls=$data/kamper_mandarin.class
  if [ ! -f "$cls" ] || ! gold=$(gold_dir mandarin); then
    for b in zrc2020 zr2017 zr2015-doc lrec2014; do
      row "$b" "$in" - - - - - - - "no $data/mandarin.{phn,wrd} + kamper_mandarin.class (or its preparation failed)"
    done
    return 0
  fi
  measure zrc2020 "$in" zrc2020 steps/score_tde.sh "$gold" "$cls" "$dir/zrc2020.exp"
  warm=true measure "zrc2020, gold cached" "$in" zrc2020 steps/score_tde.sh "$gold" "$cls" "$dir/zrc2020.exp"
  measure "zr2017 --folds none" "$in" zr2017 steps/score_tde.sh --benchmark zr2017 --folds none \
    "$gold" "$cls" "$dir/zr2017.exp"
  for b in zr2015-doc lrec2014; do
    measure "$b" "$in" "$b" steps/score_tde.sh --benchmark "$b" "$gold" "$cls" "$dir/$b.exp"
  done
}

# ---------------------------------------------------------------------------- segmentation
segmentation_row() {
  local lang gold
  for lang in english mandarin; do
    gold=$(gold_dir $lang) && break
  done
  [ -n "$gold" ] || { row segmentation - - - - - - - - "no english or mandarin .phn/.wrd in $data"; return 0; }
  [ -f "$dir/seg_$lang.txt" ] || prepared segmentation "$py" local/make_segmentation.py jitter "$gold" "$dir/seg_$lang.txt" \
    || { row segmentation "$lang" - - - - - - - "generation failed (see $dir/segmentation.prep.log)"; return 0; }
  measure segmentation "ZR17 $lang words, jittered" segmentation \
    steps/score_segmentation.sh "$gold" "$dir/seg_$lang.txt" "$dir/segmentation.exp"
}

text_segmentation_row() {
  local lang gold t
  for lang in buckeye english mandarin; do
    gold=$(gold_dir $lang) && break
  done
  [ -n "$gold" ] || { row "text segmentation" - - - - - - - - "no buckeye, english or mandarin .phn/.wrd in $data"; return 0; }
  t=$dir/text_$lang
  if [ ! -f "$t/segmented.txt" ]; then
    { prepared text_segmentation utils/export_text.sh "$gold" "$t" \
        && prepared text_segmentation "$py" local/make_text_segmentation.py "$t/gold.txt" "$t/prepared.txt" "$t/segmented.txt"; } \
      || { row "text segmentation" "$lang" - - - - - - - "generation failed (see $dir/text_segmentation.prep.log)"; return 0; }
  fi
  measure "text segmentation" "ZR17 $lang as text, local/make_text_segmentation.py" text_segmentation \
    steps/score_text_segmentation.sh --prepared "$t/prepared.txt" "$t/gold.txt" "$t/segmented.txt" "$dir/text_segmentation.exp"
}

# ---------------------------------------------------------------------------- zrc submission
zrc_row() {
  local in="Kamper Mandarin, --partial true" w=$dir/zrc
  if [ ! -f "$data/kamper_mandarin.class" ] || [ ! -f "$data/mandarin.phn" ] || [ ! -f "$data/mandarin.wrd" ]; then
    row "zrc submission" "$in" - - - - - - - "no $data/mandarin.{phn,wrd} + kamper_mandarin.class"
    return 0
  fi
  # its gold is looked up in ./downloads/zr17 (local/get_zr17.sh's place): run from $w, where
  # that names $data
  mkdir -p "$w/downloads"
  ln -sfn "$data" "$w/downloads/zr17"
  rm -rf "$w/sub"
  mkdir -p "$w/sub"
  cp "$data/kamper_mandarin.class" "$w/sub/mandarin.txt"
  cat > "$w/sub/meta.yaml" <<'EOF'
username: bench
submission_id: bench-1
benchmark_name: tde17
model_info:
  model_id: kamper
  system_description: Kamper et al. Mandarin classes
  train_set: none
  gpu_budget: "0"
publication:
  author_label: Kamper et al.
  authors: H. Kamper
  paper_title: bench
  paper_url: https://example.org/paper
  publication_year: 2017
  bib_reference: null
  DOI: null
  institution: bench
  team: null
open_source: true
code_url: https://example.org/code
EOF
  printf 'njobs: 1\nquiet: false\n' > "$w/sub/params.yaml"
  measure "zrc submission" "$in" zrc \
    bash -c 'cd "$1" && "$2/steps/score_zrc_submission.sh" --partial true sub' _ "$w" "$TERMEVAL_ROOT"
  warm=true measure "zrc submission, gold cached" "$in" zrc \
    bash -c 'cd "$1" && "$2/steps/score_zrc_submission.sh" --partial true sub' _ "$w" "$TERMEVAL_ROOT"
}

# ---------------------------------------------------------------------------- prepare_kws
prepare_kws_row() {
  local lang gold k
  for lang in english mandarin; do
    gold=$(gold_dir $lang) && break
  done
  [ -n "$gold" ] || { row prepare_kws - - - - - - - - "no english or mandarin .phn/.wrd in $data"; return 0; }
  k=$dir/kws_$lang
  if [ ! -f "$k/lexicon.txt" ]; then
    mkdir -p "$k"
    prepared prepare_kws "$py" - "$gold" "$k" <<'PY' || { row prepare_kws "$lang" - - - - - - - "generation failed (see $dir/prepare_kws.prep.log)"; return 0; }
import collections, os, sys
data, out = sys.argv[1:3]
with open(os.path.join(data, "words"), encoding="utf-8") as f:
    n = collections.Counter(line.split()[3] for line in f if line.strip())
words = [w for w, c in sorted(n.items(), key=lambda x: (-x[1], x[0])) if c >= 5 and len(w) >= 3][:1000]
with open(os.path.join(out, "keywords.txt"), "w", encoding="utf-8") as f:
    f.writelines(f"KW-{i:04d} {w}\n" for i, w in enumerate(words, 1))
with open(os.path.join(out, "lexicon.txt"), "w", encoding="utf-8") as f:
    f.writelines(f"{w} {' '.join(w)}\n" for w in sorted(n))
PY
  fi
  measure prepare_kws "1,000 keywords on the ZR17 $lang gold" prepare_kws steps/prepare_kws.sh \
    --keywords "$k/keywords.txt" --lexicon "$k/lexicon.txt" --ecf-source-type cts "$gold" "$dir/prepare_kws.exp"
}

# ---------------------------------------------------------------------------- table
table() {
  row step input "end-to-end CPU-s" "kernel CPU-s" ratio "start-up CPU-s" "read CPU-s" "write CPU-s" \
    "peak MB" "target <= 2"
  row --- --- ---: ---: ---: ---: ---: ---: ---: ---
  std_row 200000 std
  std_row 1000000 std_1m
  quesst_row
  tde_rows
  segmentation_row
  text_segmentation_row
  zrc_row
  prepare_kws_row
}

# update_block <file> <text-file>: the lines between <!-- speed-table --> and <!-- /speed-table -->
# of <file> replaced by <text-file> (temp + rename; both markers must be there)
update_block() {
  "$py" - "$1" "$2" <<'PY'
import os, sys
path, text = sys.argv[1], open(sys.argv[2], encoding="utf-8").read()
lines = open(path, encoding="utf-8").read().split("\n")
try:
    a, b = lines.index("<!-- speed-table -->"), lines.index("<!-- /speed-table -->")
except ValueError:
    sys.exit(f"{path}: no <!-- speed-table --> ... <!-- /speed-table --> lines")
if b < a:
    sys.exit(f"{path}: <!-- /speed-table --> before <!-- speed-table -->")
new = "\n".join(lines[:a + 1] + text.rstrip("\n").split("\n") + lines[b:])
with open(path + ".tmp", "w", encoding="utf-8") as f:
    f.write(new)
os.replace(path + ".tmp", path)
PY
}

# the table alone on stdout; what it was measured on on stderr (and in docs/speed.md)
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
machine="$(date -u +%Y-%m-%d), $(env -u OMP_NUM_THREADS nproc) cores${cpu:+ ($cpu)}, best of $repeat"
# the start-up floor of any Python step here: termeval's interpreter and numpy, nothing else
floor=$( { /usr/bin/time -f "%U %S" utils/termeval_python.sh -c "import numpy" > /dev/null; } 2>&1 \
         | tail -n1 | awk '{ printf "%.2f", $1 + $2 }')
machine+="; start-up floor (utils/termeval_python.sh -c 'import numpy') $floor CPU-s"
echo "$0: $machine, $(git rev-parse --short HEAD 2>/dev/null || echo '?')" >&2
table | tee "$dir/table.md"
if [ "$update_docs" = true ]; then
  { echo "Measured by \`local/bench_steps.sh --update-docs true\` on $machine; CPU-s = user + sys."
    echo
    cat "$dir/table.md"; } > "$dir/table.speed.md"
  # the README: the first measured row of each step (its first input, its gold not cached)
  awk -F' [|] ' '{ sub(/^[|] /, "", $1); k = $1; sub(/, gold cached$/, "", k) }
                 NR <= 2 || ($3 != "-" && !seen[k]++) { print "| " $1 " | " $3 " | " $4 " | " $5 " |" }' \
    "$dir/table.md" > "$dir/table.readme.md"
  update_block docs/speed.md "$dir/table.speed.md"
  update_block README.md "$dir/table.readme.md"
  echo "$0: wrote the tables of docs/speed.md and README.md" >&2
fi
