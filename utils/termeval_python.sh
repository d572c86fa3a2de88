#!/usr/bin/env bash
# utils/termeval_python.sh -- run termeval's own Python: tools/venv (built from requirements.txt
# on first use) with this termeval tree first on the module path, whatever the caller has
# sourced (a Kaldi path.sh, an active ESPnet/conda env, a PYTHONPATH of its own). Every step
# script and every job it launches runs its Python through this wrapper, by absolute path, so
# a job started by queue.pl/slurm.pl on another node needs no environment of ours.
#
# Usage: utils/termeval_python.sh -m termeval.bin.<step> [args ...]
#  e.g.: /opt/termeval/utils/termeval_python.sh -m termeval.bin.score_std --help
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
if ! cmp -s "$root/requirements.txt" "$root/tools/venv/.requirements.done" 2>/dev/null; then
  "$root/utils/setup_env.sh" >&2 || { echo "$0: could not set up $root/tools/venv (see above)" >&2; exit 1; }
fi
unset PYTHONHOME PYTHONSTARTUP
# byte-code caches: Python's own (__pycache__ beside the sources, skipped where the tree is
# read-only). No PYTHONPYCACHEPREFIX: it hides the venv's precompiled caches of numpy & co, so
# every process (under PYTHONDONTWRITEBYTECODE, common in containers) compiled them again:
# 0.4 CPU-s per Python start.
export PYTHONPATH=$root PYTHONNOUSERSITE=1 PYTHONUNBUFFERED=1 PYTHONIOENCODING=UTF-8 \
  LC_ALL=C OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} MPLBACKEND=Agg
exec "$root/tools/venv/bin/python" "$@"
