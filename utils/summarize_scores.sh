#!/usr/bin/env bash
# utils/summarize_scores.sh -- build RESULTS.md, a Markdown table per benchmark with one row
# per system, from every exp/*/scores/scores.json (ESPnet show_asr_result.sh habit).
# Usage: utils/summarize_scores.sh [options] [<exp-root>]
#  e.g.: utils/summarize_scores.sh exp && cat RESULTS.md
# Options:
#   --output FILE     # where to write (default: RESULTS.md)
output=RESULTS.md
[ -f ./path.sh ] && . ./path.sh
. utils/parse_options.sh
if [ $# -gt 1 ]; then
  utils/usage.sh "$0"; exit 1
fi
set -euo pipefail
exp_root=${1:-exp}
python3 -m termeval.bin.summarize_scores --exp-root "$exp_root" --output "$output"
