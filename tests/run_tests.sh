#!/usr/bin/env bash
# tests/run_tests.sh -- run the whole test suite (the README's second command).
# Sets up tools/venv on first use (the runtime packages through path.sh, then the test-only
# ones of requirements-test.txt), then runs pytest from the recipe root.
# Usage: tests/run_tests.sh [pytest arguments]
#  e.g.: tests/run_tests.sh -q -k gold
set -euo pipefail
cd "$(dirname "$0")/.."
. ./path.sh
utils/setup_env.sh test     # the test-only packages (requirements-test.txt), on first use only
exec python3 -m pytest "${@:--q}"   # paths default to pyproject.toml testpaths (tests/)
