#!/usr/bin/env bash
# Write the phones and words of a prepared gold data dir back out as ZeroSpeech .phn/.wrd
# files (`<file> <onset> <offset> <label>`, the data dir's lines and times unchanged).
# With --drop-sil true, phones labelled --sil-label (filled gaps and input silences) are left
# out, which gives the SIL-less .phn the ZR2015/ZR2017 (TDE15/TDE17) tools were run on.
#
# Usage: utils/export_zr.sh [options] <data-dir> <out.phn> <out.wrd>
#  e.g.: utils/export_zr.sh --drop-sil true data/mandarin exp/zr/mandarin.phn exp/zr/mandarin.wrd
#
# Options (default):
#   --drop-sil <true|false>   # (false)
#   --sil-label <label>       # (SIL)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
drop_sil=false
sil_label=SIL
# End configuration section.

. "$TERMEVAL_ROOT/utils/parse_options.sh"

if [ $# -ne 3 ]; then
  te_usage
fi
set -euo pipefail

"${te_python[@]}" -m termeval.bin.export_zr --drop-sil "$drop_sil" --sil-label "$sil_label" -- "$1" "$2" "$3"
