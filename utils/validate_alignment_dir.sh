#!/usr/bin/env bash
# Check a prepared gold data dir (steps/prepare_gold.sh output), like Kaldi's
# utils/validate_alignment_dir.sh: phones, words, utt2spk, spk2utt and reco2dur exist, are UTF-8,
# end with a newline, have no blank lines, tabs or CRs, the right number of fields, keys
# sorted (C locale) and unique; spk2utt is the inverse of utt2spk; reco2dur and utt2spk list
# the same files; phones/words are sorted by file then onset, non-overlapping, of positive
# length, in known files; every file has phones and its reco2dur is the end of its last
# phone; no silence word; every word edge is within --boundary-tolerance of a phone edge.
# Prints a one-line summary; the first problem is a one-line error naming file and line (exit 1).
#
# Usage: utils/validate_alignment_dir.sh [options] <data-dir>
#  e.g.: utils/validate_alignment_dir.sh data/mandarin
#
# Options (default):
#   --boundary-tolerance <sec>   # (0.001)
#   --sil-label <label>          # (SIL) label that must not appear in words

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
boundary_tolerance=0.001
sil_label=SIL
# End configuration section.

. "$TERMEVAL_ROOT/utils/parse_options.sh"

if [ $# -ne 1 ]; then
  te_usage
fi
set -euo pipefail

"${te_python[@]}" -m termeval.bin.validate_alignment_dir --boundary-tolerance "$boundary_tolerance" --sil-label "$sil_label" -- "$1"
