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
# Byte code for the hundreds of Python processes the tests start, compiled once per checkout
# into tools/venv (git-ignored): where PYTHONDONTWRITEBYTECODE is set (some CI machines), each
# of them would compile termeval's modules again, about a quarter of the suite's CPU time.
unset PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX=$PWD/tools/venv/pycache
# (nproc counts OMP_NUM_THREADS, which path.sh sets to 1 for the steps' numpy)
jobs=${TERMEVAL_TEST_JOBS:-$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc 2>/dev/null || echo 1)}
case $jobs in ''|*[!0-9]*) echo "run_tests.sh: error: TERMEVAL_TEST_JOBS: expected a whole number, got '$jobs'" >&2; exit 2 ;; esac
[ "$jobs" -le 4 ] || jobs=4
if [ "$jobs" -le 1 ]; then workers=(-p no:xdist); else workers=(-n "$jobs" --dist loadscope); fi
exec python3 -m pytest "${workers[@]}" "${@:--q}"   # paths default to pyproject.toml testpaths (tests/)
