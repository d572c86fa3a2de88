#!/usr/bin/env bash
# tests/run_tests.sh -- run the whole test suite (the README's second command).
# Sets up tools/venv on first use (the runtime packages through path.sh, then the test-only
# ones of requirements-test.txt), then runs pytest from the recipe root.
# The tests run on every core, up to 4 (pytest-xdist; a module's tests stay in one worker, so
# its fixtures are built once): TERMEVAL_TEST_JOBS=1 runs them in this process.
# Usage: tests/run_tests.sh [pytest arguments]
#  e.g.: tests/run_tests.sh -q -k gold
#        TERMEVAL_TEST_JOBS=1 tests/run_tests.sh -q -x tests/test_layers.py
set -euo pipefail
cd "$(dirname "$0")/.."
. ./path.sh
utils/setup_env.sh test     # the test-only packages (requirements-test.txt), on first use only
jobs=${TERMEVAL_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in ''|*[!0-9]*) echo "run_tests.sh: error: TERMEVAL_TEST_JOBS: expected a whole number, got '$jobs'" >&2; exit 2 ;; esac
[ "$jobs" -le 4 ] || jobs=4
if [ "$jobs" -le 1 ]; then workers=(-p no:xdist); else workers=(-n "$jobs" --dist loadscope); fi
exec python3 -m pytest "${workers[@]}" "${@:--q}"   # paths default to pyproject.toml testpaths (tests/)
