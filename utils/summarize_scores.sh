#!/usr/bin/env bash
# utils/summarize_scores.sh -- build RESULTS.md: a Markdown table per benchmark (zrc2020, zr2015,
# zr2017, each STD operating point, quesst, resources, segmentation, ...) with one row per system
# and at most ten headline metrics, from every scores/scores.json found at any depth below the
# given directories (termeval's exp/<sys>/, Kaldi's exp/tri3/decode_dev/kws_10/, ESPnet's
# exp/asr_*/decode_*/...). The file is written in the current directory (or --out); nothing
# is written anywhere else. Every other value stays in the score files.
# A scores.json that is not valid JSON (truncated) or not a JSON object is an error naming the
# file (exit 1, RESULTS.md not written); an unreadable directory or a scores.json without a
# scored stage is left out with a warning.
#
# Usage: utils/summarize_scores.sh [--out FILE] [<exp-root> ...]     (default exp-root: exp)
#  e.g.: /opt/termeval/utils/summarize_scores.sh exp
#        /opt/termeval/utils/summarize_scores.sh --out exp/RESULTS_kws.md exp/tri3/decode_dev
#
# Options (default):
#   --out <file>     # (RESULTS.md)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
out=RESULTS.md
output=
# End configuration section.

. "$TERMEVAL_ROOT/utils/parse_options.sh"
set -euo pipefail
[ -n "$output" ] && out=$output   # --output: the name of this option before 0.2
[ $# -ge 1 ] || set -- exp
for d in "$@"; do te_check_dir "exp root" "$d"; done
"${te_python[@]}" -m termeval.bin.summarize_scores --out "$out" -- "$@"
