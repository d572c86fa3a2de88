#!/usr/bin/env bash
# Paired comparison of systems scored on the same data (steps/score_tde.sh of any benchmark,
# score_segmentation.sh, score_std.sh, score_quesst.sh): for every metric, the difference of
# each system with the first one, its percentile confidence interval and a two-sided p-value
# (paired bootstrap over the shared units: recordings for term discovery and segmentation,
# terms for STD, queries for QUESST; zr2015/zr2017: the cross_/within_ fold means of coverage,
# token, type and boundary, NED and grouping not being paired; or approximate randomization
# with --test permutation). Writes <out-dir>/scores/compare (one line per
# system and metric), scores/compare.json, RESULTS.compare.md, report.html and the forest plot
# <out-dir>/forest.{png,pdf}. Refuses systems scored on different data or settings.
# The bootstrap p and the interval come from the same resamples: the interval excludes 0
# exactly when p < 1 - level (docs/uncertainty.md, "p-values").
#
# Usage: steps/compare_systems.sh [options] <exp-dir-A> <exp-dir-B> [...] <out-dir>
#  e.g.: steps/compare_systems.sh --bootstrap 1000 exp/zr17_mandarin/kamper exp/zr17_mandarin/ours exp/zr17_mandarin/compare
#
# Options:
#   --bootstrap <n>                 # default 1000; resamples (or permutations)
#   --seed <s>                      # default 777
#   --ci <level>                    # default 0.95
#   --test <bootstrap|permutation>  # default bootstrap
#   --plot <true|false>             # default true; forest plot of the headline metrics
#   --report <true|false>           # default true; <out-dir>/report.html: forest plots and the table
#                                   # (docs/report.md)
#   --report-files <n>              # default 20; unused (no timeline)
#   --textgrids <true|false>        # default false; true is refused (no recordings)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
bootstrap=1000
seed=777
ci=0.95
test=bootstrap
plot=true
report=true
report_files=20
textgrids=false
# End configuration section.

echo "$0 $*" >&2
. "$TERMEVAL_ROOT/utils/parse_options.sh"

[ $# -ge 3 ] || te_usage
set -euo pipefail

opts=(--bootstrap "$bootstrap" --seed "$seed" --ci "$ci" --test "$test" --plot "$plot")
te_report_options
te_check_options compare_systems "${opts[@]}" "$@"        # the options: the step's Options
"${te_python[@]}" -m termeval.bin.compare_systems "${opts[@]}" "$@"
