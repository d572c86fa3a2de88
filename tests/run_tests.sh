#!/usr/bin/env bash
# tests/run_tests.sh -- run the whole test suite (the README's second command).
# Sets up tools/venv on first use (through path.sh), then runs pytest from the recipe root.
# Usage: tests/run_tests.sh [pytest arguments]
#  e.g.: tests/run_tests.sh -q -k gold
set -euo pipefail
cd "$(dirname "$0")/.."
. ./path.sh
exec python3 -m pytest "${@:--q}"   # paths default to pyproject.toml testpaths (tests/)
