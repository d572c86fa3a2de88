#!/usr/bin/env bash
# utils/usage.sh -- print a script's usage (its header comment: the '#' lines after the
# shebang) to stderr. Step scripts call it when their arguments are wrong; parse_options.sh
# prints the same text for --help.
# Usage: utils/usage.sh <script>
if [ "${1:-}" = --help ]; then set -- "$0"; fi       # its own header
awk 'NR==1 && /^#!/ {next} /^#/ {sub(/^# ?/, ""); print; next} {exit}' "$1" >&2
