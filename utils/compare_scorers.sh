#!/usr/bin/env bash
# Boundary P/R/F of one segmentation by every scorer side by side (termeval's, vqwordseg's and
# each published scorer of docs/segmentation.md), so that a paper can state "F = x (harwath) =
# y (vqwordseg)": steps/score_segmentation.sh --compat all. The table goes to
# <exp-dir>/scores/segmentation_compare (--level phone: segmentation_phone_compare) and
# scores.json (`compare`), and is printed; the other scores of that run are the default mode's.
#
# Usage: utils/compare_scorers.sh [options] <data-dir> <segmentation> <exp-dir>
#  e.g.: utils/compare_scorers.sh --level phone data/english exp/english/seg.txt exp/english/compare
#
# Options (default): those of steps/score_segmentation.sh but --compat, e.g.
#   --tolerance <seconds>     # (0.02) for every scorer
#   --level <word|phone|syllable>  # (word)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1
case "${1:-}" in --help|-h) "$TERMEVAL_ROOT/utils/usage.sh" "$0"; exit 0 ;; esac
[ $# -ge 3 ] || te_usage
exec "$TERMEVAL_ROOT/steps/score_segmentation.sh" --compat all "$@"
