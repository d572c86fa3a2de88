#!/usr/bin/env bash
# Write the texts of a gold data dir that a text word segmenter (wordseg's dpseg, AG, TP,
# puddle, ...) reads and is scored on: <out>/gold.txt (one utterance a line, words separated
# by spaces, a word its phones written together, or separated by --unit-sep, or its label with
# --words labels), <out>/prepared.txt (phones separated by spaces: the segmenter's input) and
# <out>/utt_phones (the phones' times, read by utils/text_to_times.sh). Phones in no word
# (silences) are left out; utterances are the data dir's files or the spans of --segments.
#
# Usage: utils/export_text.sh [options] <data-dir> <out-dir>
#  e.g.: utils/export_text.sh data/mandarin data/mandarin_text
#
# Options (default):
#   --words <phones|labels>   # (phones)
#   --unit-sep <sep>          # () separator of the phones inside a word
#   --segments <file>         # () Kaldi segments file

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
words=phones
unit_sep=
segments=
# End configuration section.

. "$TERMEVAL_ROOT/utils/parse_options.sh"

[ $# -eq 2 ] || te_usage
set -euo pipefail
opts=(--words "$words" --unit-sep "$unit_sep")
[ -z "$segments" ] || opts+=(--segments "$segments")
te_check_options export_text "${opts[@]}" -- "$1" "$2"    # the options: the step's Options
te_check_dir "data dir" "$1"
"${te_python[@]}" -m termeval.bin.export_text "${opts[@]}" -- "$1" "$2"
