# utils/termeval_lib.sh -- sourced by every termeval step script (never run directly).
# Finds termeval's install root from the script's own location, so steps work when called by
# absolute or relative path from any directory (a Kaldi or ESPnet recipe root); relative path
# arguments stay relative to the caller's directory, and jobs run from there through the
# caller's launcher (so queue.pl/slurm.pl read the recipe's conf/).
# Defines:
#   TERMEVAL_ROOT        the install root (exported)
#   TERMEVAL_STEP        "<pid> <host>" of this step (exported): its processes die with it
#   te_python            command array: termeval's Python (utils/termeval_python.sh)
#   te_default_cmd       $cmd from the environment if set, else termeval's utils/run.pl
#   te_usage [MSG]       one error line (MSG, or the argument count against the Usage line), the
#                        usage lines, exit 1
#   te_check_options M ... parse termeval.bin.M's arguments locally before any job (PARSE_ONLY)
#   te_stage_name M ...  the name of termeval.bin.M's stage for these arguments (its logs, shards)
#   te_die MSG           "<script>: error: MSG" on stderr, exit 1
#   te_run_stage ...     the one way a step runs its scoring stage: one process for --nj 1
#                        without --cmd, else the one N-job plan (termeval/run/plan.py) through $cmd
#   te_launch_one ...    the whole step as one job through $cmd (termeval/run/launcher.py)
#   te_lock DIR          one run per exp dir (<exp-dir>/.termeval.lock)
#   te_check_*           checks of what a step reads and writes (te_check_dir, te_check_file,
#                        te_check_writable, te_check_launcher); a step's options are checked by
#                        its Options only (te_check_options); run.sh's own: te_check_int, te_check_choice
# te_dirname_to <var> <path>: dirname(1) of <path> into <var>, without starting a process.
te_dirname_to() {
  local p=$2
  while [[ "$p" == ?*/ ]]; do p=${p%/}; done        # trailing slashes
  if [[ "$p" == */* ]]; then
    p=${p%/*}
    while [[ "$p" == ?*/ ]]; do p=${p%/}; done
    printf -v "$1" '%s' "${p:-/}"
  else
    printf -v "$1" '%s' .
  fi
}
# The root: the parent of this file's directory, symlinks resolved (the step resolved its own
# path with readlink -f to find this file; cd -P resolves a symlinked utils/ or root here).
te_dirname_to te_src "${BASH_SOURCE[0]}"
if [ -L "${BASH_SOURCE[0]}" ]; then te_dirname_to te_src "$(readlink -f "${BASH_SOURCE[0]}")"; fi
TERMEVAL_ROOT=$(cd -P "$te_src/.." && pwd)
export TERMEVAL_ROOT
unset te_src
te_python=("$TERMEVAL_ROOT/utils/termeval_python.sh")
te_default_cmd=${cmd:-$TERMEVAL_ROOT/utils/run.pl}
te_script=${0%/}
te_script=${te_script##*/}
# This step names itself to every process it starts (`<pid> <host>`): its jobs, and the one
# Python process of --nj 1, die with it when it is killed (termeval/run/watch.py), so a kill -9
# of the step leaves no job writing into its exp dir.
export TERMEVAL_STEP="$$ ${HOSTNAME:-$(uname -n)}"

# te_usage [MESSAGE]: one error line (MESSAGE, or what is wrong with the number of arguments
# left by parse_options.sh, compared with the header's "Usage:" line), then the usage lines
# and where the options are described; exit 1.
te_usage() {
  local msg=${1:-}
  if [ -z "$msg" ]; then
    msg=$(te_usage_expected "${te_nargs:-0}")
    [ -z "${te_late_option:-}" ] \
      || msg+=" ($te_late_option came after the arguments: options go before the arguments)"
  fi
  echo "$te_script: error: $msg" >&2
  awk 'NR == 1 && /^#!/ {next} !/^#/ {exit} /^# *Usage:/ {on = 1}
       on && /^# *$/ {exit} on {sub(/^# ?/, ""); print}' "$0" >&2
  echo "Options: $0 --help" >&2
  exit 1
}
# te_usage_expected N: "expected K arguments, got N" from the header's Usage line(s).
te_usage_expected() {
  awk -v got="$1" 'NR == 1 && /^#!/ {next} !/^#/ {exit}
    /^# *Usage:/ {on = 1; sub(/^# *Usage: *[^ ]+/, ""); line = $0; next}
    on && /^# +[^ ]+\.sh / {alt = 1}
    on {exit}
    END {
      n = split(line, t, " "); req = 0; opt = 0; more = 0
      for (i = 1; i <= n; i++) {
        if (t[i] ~ /\.\.\./) more = 1
        else if (t[i] ~ /^<.*>$/) req++
        else if (t[i] ~ /^\[<.*>\]$/) opt++
      }
      s = req == 1 ? "" : "s"
      if (alt || line == "") printf "wrong number of arguments (got %d)", got
      else if (more) printf "expected at least %d argument%s, got %d", req, s, got
      else if (opt) printf "expected %d to %d arguments, got %d", req, req + opt, got
      else printf "expected %d argument%s, got %d", req, s, got
    }' "$0"
}
te_die() { echo "$te_script: error: $*" >&2; exit 1; }

# te_check_int <option> <value> <min> [<max>]: a whole number >= min (and <= max), named in the error.
te_check_int() {
  local digits=${2#"${2%%[!0]*}"}             # without leading zeros (bash reads 010 as octal)
  [[ "$2" =~ ^[0-9]+$ ]] && [ "${#digits}" -le 18 ] && [ "$((10#0$digits))" -ge "$3" ] \
    && { [ -z "${4:-}" ] || [ "$((10#0$digits))" -le "$4" ]; } && return 0
  [ -z "${4:-}" ] && te_die "--$1: expected a whole number >= $3, got '$2'"
  te_die "--$1: expected a whole number from $3 to $4, got '$2'"
}
# te_report_options: append to the array `opts` the report options of a scoring step (--report,
# --report-files, --textgrids: docs/report.md) that differ from their declared defaults
# (core/options.py ReportOptions; tests/recipe/test_declared_faces.py holds these equal): none
# changes a number, the command recorded with the scores stays as it was. Checked by the Options.
te_report_options() {
  [ "$report" = true ] || opts+=(--report "$report")
  [ "$report_files" = 20 ] || opts+=(--report-files "$report_files")
  [ "$textgrids" = false ] || opts+=(--textgrids "$textgrids")
}
# te_check_choice <option> <value> <choice>...
te_check_choice() {
  local opt=$1 val=$2 c; shift 2
  for c in "$@"; do [ "$val" = "$c" ] && return 0; done
  te_die "--$opt: expected one of $*, got '$val'"
}
# te_check_dir / te_check_file <what> <path>
te_check_file() { [ -f "$2" ] || te_die "$1 $2: no such file"; }
te_check_dir() {
  [ -d "$2" ] || te_die "$1 $2: no such directory"
  [ -r "$2" ] && [ -x "$2" ] || te_die "$2: permission denied"
}
# te_check_writable <dir>: the exp dir can be created and written (not under a read-only place,
# no part of its path a file), and its path can reach a job intact (te_check_job_path).
te_check_writable() {
  te_check_job_path "$1"
  local at=$1      # (not `p`: te_dirname_to's own local)
  while [ ! -e "$at" ] && [ ! -L "$at" ] && [ "$at" != . ] && [ "$at" != / ]; do
    te_dirname_to at "$at"                 # up to the first part of the path that exists
  done
  if { [ -e "$at" ] && [ ! -d "$at" ]; } || { [ -L "$at" ] && [ ! -e "$at" ]; }; then
    te_die "$at: exists and is not a directory ($te_script writes a directory there; move the file away)"
  fi
  { [ -d "$1" ] || mkdir -p "$1" 2>/dev/null; } && [ -w "$1" ] || te_die "$1: cannot create or write this directory"
}
# te_check_log <log> [args...]: the log can be written in place: a directory there is refused,
# not replaced, and so is a log that is one of the arguments (an input would be overwritten).
te_check_log() {
  local log=$1 a; shift
  [ ! -d "$log" ] || te_die "$log: exists and is a directory ($te_script writes its log there; move it away)"
  [ -e "$log" ] || return 0
  for a in "$@"; do
    [ "$a" -ef "$log" ] && te_die "$a: is the log $log this step writes: it would be overwritten; move it away"
  done
  return 0
}
# te_check_job_path <path> [name]: the launchers (utils/run.pl, Kaldi's run.pl/queue.pl/slurm.pl)
# replace every occurrence of the job name (JOB) in a job's command and log path by the job
# number, so exp/JOBS/x would become exp/1S/x in job 1: such a path is refused.
te_check_job_path() {
  local name=${2:-JOB}
  [[ "$1" != *"$name"* ]] || te_die "$1: a path given to a job must not contain '$name': the job launcher" \
    "replaces every '$name' in a job's command by the job number ($name=1:N; exp/${name}S/x would become" \
    "exp/1S/x); rename it or use a symlink"
}

# te_check_launcher: the first word of $cmd must be an executable (on PATH or a path).
te_check_launcher() {
  local first=${cmd%% *}
  command -v "$first" >/dev/null 2>&1 \
    || te_die "--cmd: launcher '$first' not found (not on PATH and not a file; e.g. --cmd $TERMEVAL_ROOT/utils/run.pl)"
}

# te_check_options <module> [args...]: parse the arguments of termeval.bin.<module> here, before
# any job is queued (termeval.run.cli PARSE_ONLY: no work is done); a refused option is one line.
te_check_options() {
  local module=$1 out err; shift
  [[ " ${te_checked_modules:-} " == *" $module "* ]] && return 0   # its jobs, then its merge
  out=$(TERMEVAL_PARSE_ONLY=1 "${te_python[@]}" -m "termeval.bin.$module" "${@//JOB/1}" 2>&1 >/dev/null) \
    && { te_checked_modules="${te_checked_modules:-} $module"; return 0; }
  te_die_with_error_of "$out"
}
# te_die_with_error_of <output>: te_die with the error line of a Python step's output.
te_die_with_error_of() {
  local err
  # (grep finding nothing must not end a step running under set -e -o pipefail without a word)
  err=$(printf '%s\n' "$1" | { grep -E 'error: ' || true; } | tail -n1)
  [ -n "$err" ] || err="error: $(printf '%s\n' "$1" | tail -n1)"
  err=${err#*error: }
  te_die "${err#argument }"
}

# te_stage_name <module> [args...]: print the name of termeval.bin.<module>'s stage for these
# arguments (`--print-stage-name`; for a step whose stage name depends on its options, e.g.
# score_segmentation --level phone: segmentation_phone), the name of its logs and shards
# (te_run_stage). Its options are parsed on the way: a refused one is te_check_options' line.
te_stage_name() {
  local module=$1 out; shift
  out=$("${te_python[@]}" -m "termeval.bin.$module" --print-stage-name "$@" 2>&1) || te_die_with_error_of "$out"
  [[ "$out" =~ ^[A-Za-z0-9_.-]+$ ]] || te_die "termeval.bin.$module --print-stage-name: unexpected output: ${out:0:200}"
  te_checked_modules="${te_checked_modules:-} $module"
  printf '%s\n' "$out"
}

# ---------------------------------------------------------------------- the one job protocol
# (termeval/run/driver.py). A step sources this file before parse_options.sh, so "$@" here are the
# step's own arguments: te_cmd_given tells whether the user asked for a launcher.
te_cmd_given=false
for te_a in "$@"; do case $te_a in --cmd|--cmd=*) te_cmd_given=true ;; esac; done
unset te_a

# te_lock <exp-dir> [<nj>]: one run per exp dir (with nj 1, no --cmd and no lock file there, the
# step's one Python process takes the lock itself: one Python start less on the common path;
# a lock file there, live or stale, is judged by the Python lock here, as for jobs). Takes <exp-dir>/.termeval.lock (pid host) for the
# rest of the step (released on exit) and exports TERMEVAL_LOCKED so the step's own Python
# processes do not take it again. The lock is termeval's one lock (termeval/core/lock.py, through
# python -m termeval.run.lock): a stale lock (dead pid of this host, or empty/garbled and old) is
# taken over; one that cannot be written (disk full, read-only) is an error naming that, and
# temporaries of dead runs in <exp-dir> are removed.
te_lock() {
  local dir msg
  if [ "${2:-0}" = 1 ] && [ "$te_cmd_given" = false ] && [ ! -e "$1/.termeval.lock" ]; then
    return 0    # one process and no lock there: it takes the lock itself (termeval/run/driver.py)
  fi
  msg=$("${te_python[@]}" -m termeval.run.lock take "$1" "$$" "$1" 2>&1) || te_die_with_error_of "${msg:-$1: cannot take the lock}"
  dir=$(cd "$1" && pwd -P)
  te_lock_dir=$dir
  trap 'te_unlock' EXIT
  export TERMEVAL_LOCKED=$dir
}
te_unlock() {   # removes the lock if it is still this step's (python -m termeval.run.lock release)
  [ -z "${te_lock_dir:-}" ] || "${te_python[@]}" -m termeval.run.lock release "$te_lock_dir" "$$" 2>/dev/null || true
}

# the time as date(1) prints it by default, by bash's printf (no process)
te_date_format='%(%a %b %e %H:%M:%S %Z %Y)T'

# te_run_local <log> <module> args...: run termeval.bin.<module> in this process's place (no
# launcher): stdout to the terminal, stderr to the terminal and to <log> (run.pl's header and
# "# Ended (code N)" lines, so the log reads like a launched job's).
te_run_local() {
  local log=$1 module=$2 rc=0 logdir; shift 2
  te_check_log "$log" "$@"
  te_dirname_to logdir "$log"
  [ -d "$logdir" ] || mkdir -p "$logdir"
  { echo "# ${te_python[0]} -m termeval.bin.$module $*"; printf "# Started at $te_date_format\n" -1; } > "$log"
  # stderr through tee, stdout straight to fd 3 (the caller's stdout); a pipeline, not a process
  # substitution: its end is waited for (the log is complete before "# Ended") and rc is kept
  { "${te_python[@]}" -m "termeval.bin.$module" "$@" 2>&1 1>&3 3>&- | tee -a "$log" >&2
    rc=${PIPESTATUS[0]}; } 3>&1 || true
  printf "# Ended (code %s) at $te_date_format\n" "$rc" -1 >> "$log"
  return $rc
}

# te_run_stage <exp-dir> <name> <module> <nj> args...: the one way a step runs its scoring
# stage; <name> is the stage's name (its benchmark's: zrc2020, zr2017, std, quesst, resources,
# segmentation, text_segmentation, ...; te_stage_name when it depends on the options).
# --nj 1 without --cmd: one process, log <exp-dir>/log/<name>.log. Otherwise the one N-job plan
# (termeval/run/plan.py, through `python -m termeval.bin`): what the jobs share prepared once,
# the stale shards <exp-dir>/jobs/<name>.*.npz removed, N jobs through $cmd (`--nj N --job JOB`,
# logs <name>.JOB.log, shards <exp-dir>/jobs/<name>.J.npz) and one merge (`--merge N`, log
# <name>.merge.log), tied together by a run id, each given these same arguments; the merge's
# warnings and summary are then shown, and a failed job is named by its own error line.
te_run_stage() {
  local dir=$1 name=$2 module=$3 nj=$4; shift 4
  if [ "$nj" -eq 1 ] && [ "$te_cmd_given" = false ]; then
    local rc=0
    te_run_local "$dir/log/$name.log" "$module" "$@" || rc=$?
    [ $rc = 0 ] && return 0
    # its own error line is on the terminal already; only a kill needs saying
    if [ $rc = 137 ] || [ $rc = 9 ]; then
      echo "$te_script: error: killed (out of memory?), exit code $rc; log: $dir/log/$name.log" >&2
    fi
    exit 1
  fi
  "${te_python[@]}" -m termeval.bin --prog "$te_script" --python "${te_python[0]}" --nj "$nj" --cmd "$cmd" \
    "$module" "$@" || exit 1
}

# te_launch_one <log> <module> args...: the whole step as one job through $cmd (the one
# launcher, termeval/run/launcher.py: quoting for Kaldi's launchers, a failed job named by its
# own error line).
te_launch_one() {
  local log=$1 module=$2; shift 2
  "${te_python[@]}" -m termeval.bin --prog "$te_script" --python "${te_python[0]}" --cmd "$cmd" --log "$log" \
    "$module" "$@" || exit 1
}
