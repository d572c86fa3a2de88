# utils/parse_options.sh -- command-line options for termeval scripts (our own implementation
# of Kaldi's contract). Source it after declaring every option as a shell variable with a
# default:
#     nj=4; stage=0; use_foo=false
#     . utils/parse_options.sh
# * --foo-bar value and --foo-bar=value both set $foo_bar ('-' becomes '_', so --stop-stage
#   and --stop_stage are the same option).
# * An option whose variable was not declared is an error (exit 1): the declarations are the
#   option list. A variable whose default is true/false only accepts true or false.
# * --config FILE (repeatable) sources FILE (bash name=value lines) before the command line is
#   applied, so explicit options win. A missing config file is an error.
# * --help / -h prints $help_message if the script set one, otherwise the script's header
#   comment (the '#' lines after the shebang), to stderr, and exits 0.
# * Parsing stops at the first argument that does not start with '--', or after '--'; the
#   remaining arguments are left in "$@".
# * If the script declares cmd, an empty --cmd is rejected.

__po_usage() {
  if [ -n "${help_message:-}" ]; then
    printf '%s\n' "$help_message" >&2
  else
    "$(dirname "${BASH_SOURCE[0]}")/usage.sh" "$0"   # the caller's header comment
  fi
}

# Errors are one line, "<script>: error: <what>" (docs/errors.md §1).
__po_prog=${0%/}
__po_prog=${__po_prog##*/}     # basename, without a process

# Pass 1: config files, sourced in order before any other option.
__po_n=$#
for ((__po_i = 1; __po_i <= __po_n; __po_i++)); do
  __po_arg=${!__po_i}
  case "$__po_arg" in
    --) break ;;
    --config|--config=*)
      if [ "$__po_arg" = "--config" ]; then
        __po_j=$((__po_i + 1)); __po_file=${!__po_j:-}
      else
        __po_file=${__po_arg#--config=}
      fi
      if [ -z "$__po_file" ] || [ ! -r "$__po_file" ]; then
        echo "$__po_prog: error: --config: cannot read config file '$__po_file'" >&2; exit 1
      fi
      . "$__po_file" || { echo "$__po_prog: error: --config: error sourcing config file $__po_file" >&2; exit 1; } ;;
    --*) ;;
    *) break ;;
  esac
done

# Pass 2: the options themselves.
while [ $# -gt 0 ]; do
  case "$1" in
    --help|-h) __po_usage; exit 0 ;;
    --) shift; break ;;
    --*=*) __po_name=${1%%=*}; __po_value=${1#*=}; shift ;;
    --*)
      if [ $# -lt 2 ]; then echo "$__po_prog: error: option $1 needs a value" >&2; exit 1; fi
      __po_name=$1; __po_value=$2; shift 2 ;;
    *) break ;;
  esac
  __po_var=${__po_name#--}; __po_var=${__po_var//-/_}
  [ "$__po_var" = config ] && continue
  if ! [[ "$__po_var" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || [ -z "${!__po_var+set}" ]; then
    echo "$__po_prog: error: invalid option $__po_name (see $0 --help)" >&2; exit 1
  fi
  case "${!__po_var}" in
    true|false)
      case "$__po_value" in
        true|false) ;;
        *) echo "$__po_prog: error: $__po_name: expected \"true\" or \"false\", got '$__po_value'" >&2; exit 1 ;;
      esac ;;
  esac
  printf -v "$__po_var" '%s' "$__po_value"
done

# For the caller's usage error (te_usage in utils/termeval_lib.sh): the number of arguments
# left and the first option that came after them (options go before the arguments).
te_nargs=$#
te_late_option=
for __po_arg in "$@"; do
  case "$__po_arg" in --) break ;; --?*) te_late_option=${__po_arg%%=*}; break ;; esac
done

if [ -n "${cmd+set}" ] && [ -z "$cmd" ]; then
  echo "$__po_prog: error: --cmd: empty argument to --cmd option" >&2; exit 1
fi
unset __po_n __po_i __po_j __po_arg __po_file __po_name __po_value __po_var __po_prog
unset -f __po_usage
true
