#!/usr/bin/env bash
# utils/termeval_python.sh -- run termeval's own Python: tools/venv (built from requirements.txt
# on first use by utils/setup_env.sh, whose one error line says what failed and what to do) with this termeval tree first on the module path, whatever the caller has
# sourced (a Kaldi path.sh, an active ESPnet/conda env, a PYTHONPATH of its own). Every step
# script and every job it launches runs its Python through this wrapper, by absolute path, so
# a job started by queue.pl/slurm.pl on another node needs no environment of ours.
#
# Usage: utils/termeval_python.sh -m termeval.bin.<step> [args ...]
#  e.g.: /opt/termeval/utils/termeval_python.sh -m termeval.bin.score_std --help
# The root: the step's TERMEVAL_ROOT when it is this file's tree (the common case: no process
# started), else the parent of this file's directory, symlinks resolved.
if [ $# -eq 1 ] && [ "$1" = --help ]; then         # its own header (python's help: -h)
  awk 'NR == 1 && /^#!/ {next} !/^#/ {exit} {sub(/^# ?/, ""); print}' "${BASH_SOURCE[0]}" >&2; exit 0
fi
if [ -n "${TERMEVAL_ROOT:-}" ] && [ "$TERMEVAL_ROOT/utils/termeval_python.sh" -ef "${BASH_SOURCE[0]}" ]; then
  root=$TERMEVAL_ROOT
else
  src=${BASH_SOURCE[0]}
  [ -L "$src" ] && src=$(readlink -f "$src")
  case $src in */*) src=${src%/*} ;; *) src=. ;; esac
  root=$(cd -P "$src/.." && pwd)
fi
# the venv is built for requirements.txt as it is (the stamp holds a copy of it); read by bash
# itself, no cmp process
req= done_req=
{ IFS= read -r -d '' req < "$root/requirements.txt"; } 2>/dev/null
{ IFS= read -r -d '' done_req < "$root/tools/venv/.requirements.done"; } 2>/dev/null
if [ ! -f "$root/requirements.txt" ] || [ ! -f "$root/tools/venv/.requirements.done" ] || [ "$req" != "$done_req" ]; then
  "$root/utils/setup_env.sh" >&2 || exit 1     # its one error line says what failed and what to do
fi
unset src req done_req
unset PYTHONHOME PYTHONSTARTUP
# byte-code caches go to the user's cache, never into termeval's tree (it may be read-only/shared).
# Not when byte code is not written at all (PYTHONDONTWRITEBYTECODE): a prefix would then hide
# the caches pip wrote into tools/venv and every run would compile numpy/matplotlib (~1.7 CPU-s).
if [ -z "${PYTHONDONTWRITEBYTECODE:-}" ] && [ -z "${PYTHONPYCACHEPREFIX:-}" ]; then
  # the user's cache directory: an absolute XDG_CACHE_HOME, else ~/.cache of a usable home (absolute,
  # not the root: HOME='' must not put a cache at /.cache); none: no byte-code cache at all
  te_home=${HOME-~}
  if [[ "${XDG_CACHE_HOME:-}" == /* ]]; then
    export PYTHONPYCACHEPREFIX=$XDG_CACHE_HOME/termeval/pycache
  elif [[ "$te_home" == /*[!/]* ]]; then
    export PYTHONPYCACHEPREFIX=$te_home/.cache/termeval/pycache
  else
    export PYTHONDONTWRITEBYTECODE=1
  fi
  unset te_home
fi
# PYTHONSAFEPATH (Python >= 3.11): `-m` must not put the current directory first on the path,
# or a step run from a directory holding another termeval checkout would run that one's code.
export PYTHONPATH=$root PYTHONSAFEPATH=1 PYTHONNOUSERSITE=1 PYTHONUNBUFFERED=1 PYTHONIOENCODING=UTF-8 \
  LC_ALL=C OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} MPLBACKEND=Agg
exec "$root/tools/venv/bin/python" "$@"
