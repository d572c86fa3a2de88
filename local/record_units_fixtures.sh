#!/usr/bin/env bash
# Record the reference tools' outputs on the generated cases of tests/units/units_cases.py into
# tests/units/fixtures/{discophon,fairseq}.json, which tests/units/ compares termeval with on
# every run: discophon 0.2.0's benchmark (python -m discophon.benchmark ... --benchmark
# discovery) and fairseq's examples/hubert/measure_teacher_quality.py. Neither tool is part of
# termeval: give their environments (nothing is installed or copied here).
#
# Usage: local/record_units_fixtures.sh [--only discophon|fairseq]
#   $DISCOPHON_PYTHON   a Python >= 3.12 with discophon==0.2.0 installed (default: $DISCOPHON_DIR/bin/python,
#                       $DISCOPHON_DIR being such a venv)
#   $FAIRSEQ_DIR        a fairseq checkout; $FAIRSEQ_PYTHON a Python with numpy and tabulate (default python3)
. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1
only=
. "$TERMEVAL_ROOT/utils/parse_options.sh"
[ $# -eq 0 ] || te_usage
set -euo pipefail
dpy=${DISCOPHON_PYTHON:-${DISCOPHON_DIR:+$DISCOPHON_DIR/bin/python}}
fpy=${FAIRSEQ_PYTHON:-python3}
[ -n "$dpy" ] || [ "$only" = fairseq ] || te_die "set DISCOPHON_PYTHON (or DISCOPHON_DIR, a venv with discophon==0.2.0)"
[ -n "${FAIRSEQ_DIR:-}" ] || [ "$only" = discophon ] || te_die "set FAIRSEQ_DIR (a fairseq checkout)"
"${te_python[@]}" "$TERMEVAL_ROOT/local/record_units_fixtures.py" --discophon-python "${dpy:-none}" \
  --fairseq-dir "${FAIRSEQ_DIR:-none}" --fairseq-python "$fpy" ${only:+--only "$only"}
