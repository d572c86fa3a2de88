#!/usr/bin/env bash
# local/compare_f4de.sh -- run termeval's utils/KWSEval and F4DE 3.5.0's KWSEval.pl on N generated
# KWS cases (tests/differential/gen_kws.py) with Kaldi's, F4DE's tester's and random option sets,
# compare every file written and print the files/cells equal and both tools' run times.
# Needs a built F4DE 3.5.0 (outside the repository) in $F4DE_DIR.
#
# Usage: local/compare_f4de.sh [--cases N] [--first K] [--record DIR] [--verbose]
#  e.g.: F4DE_DIR=/opt/F4DE local/compare_f4de.sh --cases 300
set -euo pipefail
cd "$(dirname "$0")/.."
. ./path.sh
[ -n "${F4DE_DIR:-}" ] || { echo "compare_f4de.sh: error: set F4DE_DIR to a built F4DE 3.5.0" >&2; exit 1; }
exec python3 tests/differential/harness.py "$@"
