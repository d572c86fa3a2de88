#!/usr/bin/env bash
# local/compare_f4de.sh -- run termeval's utils/KWSEval and F4DE 3.5.0's KWSEval.pl on N generated
# KWS cases (tests/differential/gen_kws.py) with Kaldi's, F4DE's tester's and random option sets,
# compare every file written and print the files/cells equal and both tools' run times.
# Needs a built F4DE 3.5.0 (outside the repository) in $F4DE_DIR; `kaldi` and `record` also
# $KALDI_ROOT (a Kaldi checkout: egs/babel/s5d/local/kws_score_f4de.sh).
#
# Usage: local/compare_f4de.sh [--cases N] [--first K] [--keep DIR [--reuse]] [--verbose]
#        local/compare_f4de.sh kaldi [--cases N]    # Kaldi's kws_score_f4de.sh end to end, both KWSEvals
#        local/compare_f4de.sh tester                # F4DE's own tester command lines
#        local/compare_f4de.sh hash [--cases N]      # which outputs move between F4DE runs / hash seeds
#        local/compare_f4de.sh record                # re-record tests/differential/f4de_kwseval.tar.xz
#  e.g.: F4DE_DIR=/opt/F4DE local/compare_f4de.sh --cases 300
set -euo pipefail
cd "$(dirname "$0")/.."
. ./path.sh
[ -n "${F4DE_DIR:-}" ] || { echo "compare_f4de.sh: error: set F4DE_DIR to a built F4DE 3.5.0" >&2; exit 1; }
script=kws_harness
case "${1:-}" in
  kaldi) script=kaldi_e2e; shift ;;
  tester) script=tester_cases; shift ;;
  hash) script=hash_variation; shift ;;
  record) script=record_fixtures; shift ;;
esac
exec python3 "tests/differential/$script.py" "$@"
