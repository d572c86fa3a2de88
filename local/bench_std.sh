#!/usr/bin/env bash
# Benchmark STD scoring (python -m termeval.bin.score_std) on synthetic data: 100 queries x 100k detections,
# 400 x 100k (6000 s of audio, as F4DE's 52.7 s / 470 s measurements) and 1000 x 1M over 100 h.
# Prints wall time and peak resident memory per case (generation time excluded).
#
# Usage: local/bench_std.sh [--cases 100x100k,400x100k,1000x1M] [--format kwslist|kaldi]
cases=100x100k,400x100k,1000x1M
format=kwslist
echo "$0 $@" >&2
. "$(dirname "$(readlink -f "$0")")/../path.sh"
. "$(dirname "$(readlink -f "$0")")/../utils/parse_options.sh"
# a benchmark of the recipe itself: it runs from termeval's root and writes under its exp/
cd "$(dirname "$(readlink -f "$0")")/.."
set -euo pipefail
python3 local/bench_std.py --cases "$cases" --format "$format"
