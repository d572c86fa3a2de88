#!/usr/bin/env bash
# Map a text segmenter's output back to times through the gold phones that
# utils/export_text.sh exported: line i of <segmented.txt> must spell utterance i's phones.
# Writes <out-dir>/intervals (`<file> <onset> <offset> <word>`: steps/score_segmentation.sh)
# and <out-dir>/classes (one class per distinct word: steps/prepare_classes.sh, score_tde.sh).
# Words are separated by spaces or tabs only: another control character or Unicode separator
# (U+001F, U+0085, ...) is an error naming the line unless --unit-sep holds it; phone times of
# utt_phones must be finite numbers (nan, abc: an error naming the line).
#
# Usage: utils/text_to_times.sh [options] <export-dir> <segmented.txt> <out-dir>
#  e.g.: utils/text_to_times.sh data/mandarin_text exp/dpseg/segmented.txt exp/dpseg/times
#        steps/score_segmentation.sh data/mandarin exp/dpseg/times/intervals exp/dpseg/seg
#        steps/score_tde.sh data/mandarin exp/dpseg/times/classes exp/dpseg/tde
#
# Options (default):
#   --unit-sep <sep>          # () separator of the phones inside a word

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
unit_sep=
# End configuration section.

. "$TERMEVAL_ROOT/utils/parse_options.sh"

[ $# -eq 3 ] || te_usage
set -euo pipefail
te_check_file "utt_phones of the export dir" "$1/utt_phones"
te_check_file "segmented text" "$2"
opts=()
[ -z "$unit_sep" ] || opts+=(--unit-sep "$unit_sep")
"${te_python[@]}" -m termeval.bin.text_to_times "${opts[@]}" -- "$1" "$2" "$3"
