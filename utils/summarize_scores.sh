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
# Each row names the data dir it was scored on (data: short name@digest) and a system whose
# scores.json records warnings carries them as a footnote (md, latex) or a warnings column.
#
# Usage: utils/summarize_scores.sh [options] [<exp-root> ...]     (default exp-root: exp)
#  e.g.: /opt/termeval/utils/summarize_scores.sh exp
#        /opt/termeval/utils/summarize_scores.sh --out exp/RESULTS_kws.md exp/tri3/decode_dev
#        /opt/termeval/utils/summarize_scores.sh --format latex --percent true --bold-best true exp
#        /opt/termeval/utils/summarize_scores.sh --format csv --out results.csv exp   # pandas.read_csv
#        /opt/termeval/utils/summarize_scores.sh --format html exp    # RESULTS.html, linking each report.html
#
# Options (default):
#   --out <file>        # (RESULTS.md with --format md, RESULTS.html with html, else stdout)
#   --format <f>        # (md) md | csv | tsv (one row per table and system, one column per
#                       #   metric, intervals as <metric>_lo/_hi) | latex (booktabs) | json |
#                       #   html (one page: best values marked, intervals drawn, each system
#                       #   linking to its report.html; docs/report.md)
#   --percent <bool>    # (false) true: F-scores, precisions, recalls, coverage and NED x 100;
#                       #   counts, TWV, Cnxe and the other metrics as they are
#   --digits <n>        # (4, or 1 with --percent true, in md/latex; csv/tsv/json every digit)
#   --metrics <list>    # (each table's headline metrics) comma-separated metrics to show
#   --bold-best <bool>  # (false) true: the best value of each column in bold (md, latex)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
out=
output=
format=md
percent=false
digits=
metrics=
bold_best=false
# End configuration section.

. "$TERMEVAL_ROOT/utils/parse_options.sh"
set -euo pipefail
[ -n "$output" ] && out=$output   # --output: the name of this option before 0.2
[ $# -ge 1 ] || set -- exp
for d in "$@"; do te_check_dir "exp root" "$d"; done
opts=(--format "$format" --percent "$percent" --bold-best "$bold_best")
[ -z "$out" ] || opts+=(--out "$out")
[ -z "$digits" ] || opts+=(--digits "$digits")
[ -z "$metrics" ] || opts+=(--metrics "$metrics")
"${te_python[@]}" -m termeval.bin.summarize_scores "${opts[@]}" -- "$@"
