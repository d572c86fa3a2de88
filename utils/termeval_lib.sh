# utils/termeval_lib.sh -- sourced by every termeval step script (never run directly).
# Finds termeval's install root from the script's own location, so steps work when called by
# absolute or relative path from any directory (a Kaldi or ESPnet recipe root); relative path
# arguments stay relative to the caller's directory, and jobs run from there through the
# caller's launcher (so queue.pl/slurm.pl read the recipe's conf/).
# Defines:
#   TERMEVAL_ROOT        the install root (exported)
#   te_python            command array: termeval's Python (utils/termeval_python.sh)
#   te_default_cmd       $cmd from the environment if set, else termeval's utils/run.pl
#   te_usage [MSG]       one error line (MSG, or the argument count against the Usage line), the
#                        usage lines, exit 1
#   te_check_options M ... parse termeval.bin.M's arguments locally before any job (PARSE_ONLY)
#   te_die MSG           "<script>: error: MSG" on stderr, exit 1
#   te_launch ...        run "$cmd [JOB=1:N] <log> <python-module> args..." with every argument
#                        quoted for Kaldi launchers; on failure print each failing job's own
#                        error line (or "killed (out of memory?)") under the launcher's line
#   te_launch_split ...  a step whose jobs each take a share of the work: one process for --nj 1,
#                        else N jobs and a --merge job (sets te_log to the scoring process's log)
#   te_check_*           option checks (te_check_int NAME VALUE MIN, te_check_bool, ...)
TERMEVAL_ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
export TERMEVAL_ROOT
te_python=("$TERMEVAL_ROOT/utils/termeval_python.sh")
te_default_cmd=${cmd:-$TERMEVAL_ROOT/utils/run.pl}
te_script=$(basename "$0")

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
# The largest --bootstrap (termeval.bootstrap.MAX_RESAMPLES; docs/uncertainty.md).
te_max_bootstrap=100000
# te_check_bootstrap: --bootstrap 0..te_max_bootstrap and --seed >= 0 whole numbers, --ci strictly
# between 0 and 1, --bootstrap-unit file|speaker (where the step has it).
te_check_bootstrap() {
  te_check_int bootstrap "$bootstrap" 0 "$te_max_bootstrap"
  te_check_int seed "$seed" 0
  [[ "$ci" =~ ^0?\.[0-9]+$ ]] && [[ "$ci" =~ [1-9] ]] || te_die "--ci: expected a level strictly between 0 and 1, got '$ci'"
  # read only by a merge job, after the other jobs: checked here
  [ -z "${bootstrap_unit+set}" ] || te_check_choice bootstrap-unit "$bootstrap_unit" file speaker
}
# te_check_choice <option> <value> <choice>...
te_check_choice() {
  local opt=$1 val=$2 c; shift 2
  for c in "$@"; do [ "$val" = "$c" ] && return 0; done
  te_die "--$opt: expected one of $*, got '$val'"
}
# te_check_dir / te_check_file <what> <path>
te_check_file() { [ -f "$2" ] || te_die "$1 $2: no such file"; }
te_check_dir() { [ -d "$2" ] || te_die "$1 $2: no such directory"; }
# te_check_writable <dir>: the exp dir can be created and written (not under a read-only place).
te_check_writable() {
  mkdir -p "$1" 2>/dev/null && [ -w "$1" ] || te_die "$1: cannot create or write this directory"
}

# te_quote_for_launcher ARG: print ARG so that Kaldi's run.pl/queue.pl/slurm.pl (which join
# their arguments with spaces, double-quoting those with whitespace) hand it to bash intact.
te_quote_for_launcher() {
  local a=$1
  if [[ "$a" =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]]; then
    printf '%s' "$a"
  elif ! [[ "$a" =~ [[:space:]] ]]; then
    printf '%q' "$a"                         # no whitespace: the launcher passes it as is
  elif ! [[ "$a" =~ [\"\$\`\\] ]]; then
    printf '%s' "$a"                         # the launcher wraps it in "..."
  elif [[ "$a" != *\'* ]] && [[ "$a" == *\"* ]]; then
    printf '%s' "$a"                         # the launcher wraps it in '...'
  else
    te_die "cannot pass this argument through a job launcher (whitespace with quotes, \$ or \\): $a"
  fi
}

# te_check_launcher: the first word of $cmd must be an executable (on PATH or a path).
te_check_launcher() {
  local first=${cmd%% *}
  command -v "$first" >/dev/null 2>&1 \
    || te_die "--cmd: launcher '$first' not found (not on PATH and not a file; e.g. --cmd $TERMEVAL_ROOT/utils/run.pl)"
}

# te_check_options <module> [args...]: parse the arguments of termeval.bin.<module> here, before
# any job is queued (termeval.cli PARSE_ONLY: no work is done); a refused option is one line.
te_check_options() {
  local module=$1 out err; shift
  [[ " ${te_checked_modules:-} " == *" $module "* ]] && return 0   # its jobs, then its merge
  out=$(TERMEVAL_PARSE_ONLY=1 "${te_python[@]}" -m "termeval.bin.$module" "${@//JOB/1}" 2>&1 >/dev/null) \
    && { te_checked_modules="${te_checked_modules:-} $module"; return 0; }
  err=$(printf '%s\n' "$out" | grep -E 'error: ' | tail -n1)
  [ -n "$err" ] || err="error: $(printf '%s\n' "$out" | tail -n1)"
  err=${err#*error: }
  te_die "${err#argument }"
}

# te_launch [JOB=1:N] <log> <module> [args...]: run termeval.bin.<module> through $cmd (its
# options checked first, here: te_check_options).
te_launch() {
  local range=() log module q=() a
  if [[ "$1" =~ ^[A-Za-z]+=[0-9]+(:[0-9]+)?$ ]]; then range=("$1"); shift; fi
  log=$1 module=$2; shift 2
  te_check_options "$module" "$@"
  for a in "$@"; do q+=("$(te_quote_for_launcher "$a")") || exit 1; done
  te_check_launcher
  mkdir -p "$(dirname "$log")"
  # shellcheck disable=SC2086  # $cmd is a command line ("queue.pl --mem 4G"), split on purpose
  if $cmd "${range[@]}" "$log" "$(te_quote_for_launcher "${te_python[0]}")" -m "termeval.bin.$module" "${q[@]}"; then
    return 0
  fi
  te_report_failed_jobs "$log" "${range[@]}"
  exit 1
}

# te_report_failed_jobs <log-pattern> [JOB=a:b]: the failing jobs' own error lines on stderr.
te_report_failed_jobs() {
  local pattern=$1 range=${2:-} name first last t logs=() f code line shown=0
  if [ -n "$range" ]; then
    name=${range%%=*}; first=${range#*=}; last=${first#*:}; first=${first%%:*}
    for ((t = first; t <= last; t++)); do logs+=("${pattern//$name/$t}"); done
  else
    logs=("$pattern")
  fi
  for f in "${logs[@]}"; do
    if [ ! -f "$f" ]; then
      continue
    fi
    # Kaldi run.pl/queue.pl: "# Ended (code N)", slurm.pl/queue.pl: "# Finished ... with status N"
    code=$(sed -n -e 's/^# Ended (code \([0-9]*\)).*/\1/p' -e 's/^# Finished .* with status \([0-9]*\).*/\1/p' "$f" | tail -n1)
    [ -n "$code" ] && [ "$code" = 0 ] && continue
    if [ "$code" = 137 ] || [ "$code" = 9 ]; then
      echo "$te_script: error: job killed (out of memory?), exit code $code; log: $f" >&2; shown=1; continue
    fi
    line=$(grep -v '^#' "$f" | grep -E 'error:|Error:|Error$|[A-Za-z]+Error|Killed|command not found|No such file' | tail -n1)
    [ -n "$line" ] || line=$(grep -v '^#' "$f" | grep -v '^[[:space:]]*$' | tail -n1)
    if [ -n "$line" ]; then
      echo "$te_script: error: ${line:0:300} (log: $f)" >&2
      if grep -q '^Traceback' "$f"; then
        echo "$te_script: internal error, please report it with the traceback in $f" >&2
      fi
      shown=1
    fi
  done
  [ $shown = 1 ] || echo "$te_script: error: job failed; no job log was written (is the launcher working? pattern: $pattern)" >&2
}

# te_launch_split <log-dir> <module> <nj> <job-dir> <job-file-glob> args...: with nj 1 one process
# (log <log-dir>/<module>.log); else N jobs (`--nj N --job JOB`, each writing its share into
# <job-dir>) and one `--merge N` process, whose log becomes te_log; the job files are removed
# after a successful merge.
te_launch_split() {
  local logdir=$1 module=$2 nj=$3 jobdir=$4 glob=$5; shift 5
  te_log=$logdir/$module.log
  if [ "$nj" -eq 1 ]; then
    te_launch "$te_log" "$module" "$@"
    return
  fi
  rm -f "$jobdir"/$glob 2>/dev/null || true
  te_launch JOB=1:$nj "$logdir/$module.JOB.log" "$module" "$@" --nj "$nj" --job JOB
  te_log=$logdir/$module.merge.log
  te_launch "$te_log" "$module" "$@" --merge "$nj"
  rm -f "$jobdir"/$glob
  rmdir "$jobdir" 2>/dev/null || true
}
