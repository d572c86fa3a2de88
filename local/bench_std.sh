#!/usr/bin/env bash
# Benchmark STD scoring (python -m termeval.bin.score_std) on synthetic data: 100 queries x 100k detections,
# 400 x 100k (6000 s of audio, as F4DE's 52.7 s / 470 s measurements) and 1000 x 1M over 100 h.
# Prints wall time and peak resident memory per case (generation time excluded).
#
# Cases 500x200k and 500x1M: the STD case of local/bench_steps.sh (500 terms, 20 h) and x5
# detections (issue 32: <= 2.5 and <= 10 CPU-s with --preset sws2013). CPU-s and peak RSS are the
# scoring process's own, with the driver's load / kernel / report split (TERMEVAL_TIMING=1).
# --tree A,B scores each case with every checkout (e.g. a `git worktree` of an older commit,
# with its tools/venv): one row each, a before/after table on the same machine in one run.
#
# Usage: local/bench_std.sh [--cases 100x100k,400x100k,1000x1M] [--format kwslist|kaldi]
#                           [--preset nist2006] [--tree DIR,DIR] [--repeat 1]
#  e.g.: local/bench_std.sh --cases 500x200k,500x200k+words,500x1M --preset sws2013 --tree ../before,. --repeat 3
# (--repeat N: N interleaved runs per case and tree, the least CPU is printed; 500x200k+words:
# the 500x200k case with a word-level RTTM of its 20 h, 180 k more LEXEME lines)
cases=100x100k,400x100k,1000x1M
format=kwslist
preset=nist2006
tree=
repeat=1
echo "$0 $@" >&2
. "$(dirname "$(readlink -f "$0")")/../path.sh"
. "$(dirname "$(readlink -f "$0")")/../utils/parse_options.sh"
if [ -n "$tree" ]; then   # the checkouts relative to the caller's directory
  IFS=, read -ra trees <<< "$tree"
  tree=$(for t in "${trees[@]}"; do readlink -f "$t"; done | paste -sd, -)
fi
# a benchmark of the recipe itself: it runs from termeval's root and writes under its exp/
cd "$(dirname "$(readlink -f "$0")")/.."
set -euo pipefail
python3 local/bench_std.py --cases "$cases" --format "$format" --preset "$preset" --tree "$tree" --repeat "$repeat"
