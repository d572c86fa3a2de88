#!/usr/bin/env bash
# utils/setup_env.sh -- create or update tools/venv from the pinned requirements.txt.
# Called by path.sh when tools/venv is missing or requirements.txt changed; safe to run by
# hand. Concurrent callers (parallel jobs) wait on a lock instead of installing twice.
# Usage: utils/setup_env.sh
#   env TERMEVAL_PYTHON=/path/to/python3   # interpreter for the venv (default: python3)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=$root/tools/venv
py=${TERMEVAL_PYTHON:-python3}
mkdir -p "$root/tools"
exec 9>"$root/tools/venv.lock"
if command -v flock >/dev/null 2>&1; then flock 9; fi
if cmp -s "$root/requirements.txt" "$venv/.requirements.done" 2>/dev/null; then exit 0; fi
echo "$0: setting up $venv from requirements.txt (first run only)" >&2
if [ ! -x "$venv/bin/python" ]; then
  "$py" -m venv "$venv" || { echo "$0: '$py -m venv' failed; install python3-venv" >&2; exit 1; }
fi
"$venv/bin/python" -m pip install --disable-pip-version-check -q -r "$root/requirements.txt" >&2
cp "$root/requirements.txt" "$venv/.requirements.done"
echo "$0: $venv is ready" >&2
