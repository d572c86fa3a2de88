#!/usr/bin/env bash
# utils/setup_env.sh -- create or update tools/venv from the pinned requirements.
# Called on first use by utils/termeval_python.sh (every step) and path.sh (run.sh, local/*)
# with no argument: the runtime packages of requirements.txt. tests/run_tests.sh calls it with
# `test`: requirements-test.txt on top (pytest, hypothesis, the reference tools the tests
# compare with), which ./run.sh and the steps never need. Each set has its stamp in tools/venv
# (.requirements.done, .requirements-test.done: the files it was installed from), so later
# calls only compare files and work offline. Safe to run by hand; concurrent callers (parallel
# jobs) wait on a lock instead of installing twice.
# A failure is one line on stderr, `setup_env.sh: error: <what failed>: <what to do>`, exit 1.
# Usage: utils/setup_env.sh [test]
#   env TERMEVAL_PYTHON=/path/to/python3   # interpreter for the venv (default: python3)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=$root/tools/venv
py=${TERMEVAL_PYTHON:-python3}
me=setup_env.sh
fail() { echo "$me: error: $*" >&2; exit 1; }
case ${1:-} in
  --help) awk 'NR == 1 && /^#!/ {next} !/^#/ {exit} {sub(/^# ?/, ""); print}' "$0" >&2; exit 0 ;;
  "") files=("$root/requirements.txt"); stamp=$venv/.requirements.done ;;
  test) files=("$root/requirements.txt" "$root/requirements-test.txt"); stamp=$venv/.requirements-test.done ;;
  *) fail "unknown set '$1' (usage: utils/setup_env.sh [test])" ;;
esac
# done: the stamp holds the requirement files as they are now
done_already() { cat "${files[@]}" 2>/dev/null | cmp -s - "$stamp"; }
done_already && exit 0
unwritable="$root/tools is not writable (a read-only or unprepared install): run $root/utils/setup_env.sh once as its owner, with network access to PyPI, then every step runs as is"
if [ ! -d "$root/tools" ]; then
  mkdir "$root/tools" 2>/dev/null || [ -d "$root/tools" ] || fail "cannot create $root/tools: $unwritable"
fi
{ exec 9>"$root/tools/venv.lock"; } 2>/dev/null || fail "cannot write $root/tools/venv.lock: $unwritable"
if command -v flock >/dev/null 2>&1; then flock 9; fi
done_already && exit 0      # another caller installed it while we waited
echo "$me: setting up $venv (${1:-runtime} packages; first use only, a few minutes)" >&2
log=$(mktemp "${TMPDIR:-/tmp}/termeval-setup.XXXXXX") || fail "cannot create a temporary file in ${TMPDIR:-/tmp}"
trap 'rm -f "$log"' EXIT
if [ ! -x "$venv/bin/python" ]; then
  if ! "$py" -m venv "$venv" >"$log" 2>&1; then
    rm -rf "$venv"
    fail "creating $venv with '$py -m venv' failed ($(grep -v '^\s*$' "$log" | tail -n1)): install Python >= 3.10" \
         "with its venv module (Debian/Ubuntu: apt-get install python3-venv) or set TERMEVAL_PYTHON to one, then" \
         "run $root/utils/setup_env.sh"
  fi
fi
reqs=()
for f in "${files[@]}"; do reqs+=(-r "$f"); done
if ! "$venv/bin/python" -m pip install --disable-pip-version-check -q "${reqs[@]}" >"$log" 2>&1; then
  why=$(grep -E '^ERROR: ' "$log" | tail -n1); why=${why#ERROR: }
  [ -n "$why" ] || why=$(grep -v '^\s*$' "$log" | tail -n1)
  fail "pip could not install ${files[*]##*/} into $venv ($why): the first use needs network access to PyPI" \
       "(or a mirror: PIP_INDEX_URL, PIP_FIND_LINKS); run $root/utils/setup_env.sh${1:+ $1} again once it is reachable"
fi
cat "${files[@]}" > "$stamp"
echo "$me: $venv is ready" >&2
