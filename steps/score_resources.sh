#!/usr/bin/env bash
# Processing-load figures of MediaEval SWS 2013 (Rodriguez-Fuentes and Penagarikano 2013 §4.3, docs/std.md §5): ISF (indexing CPU time / audio
# duration), SSF (search CPU time / (query duration x audio duration), per hour by default),
# PMU per phase in GB (2^30 bytes) and PL = lambda*ISF*PMU_i + (1-lambda)*SSF*PMU_s, from
# <exp-dir>/resources/{index,search} (utils/measure_resources.sh) and/or a key=value
# --resources-file (docs/std.md §5.2) for figures measured elsewhere. Writes
# <exp-dir>/scores/resources and scores.json.
#
# Usage: steps/score_resources.sh [options] <kws-data-dir-or-ecf> <exp-dir>
#  e.g.: steps/score_resources.sh data/example_std/kws exp/example_std
#        steps/score_resources.sh --resources-file conf/mysys.resources data/dev/kws exp/mysys
#
# T_audio comes from the ECF (ecf.xml or *.ecf.xml in the kws dir, or an ECF file; a data
# dir with reco2dur or a reco2dur-style file also works). T_query (all query examples) from
# --query-durations, --query-duration, the resources file, <kws-data-dir>/query2dur, or
# `duration` attributes of every term in the term list, in that order.
#
# Options:
#   --lambda <x>              # default 0.1
#   --ssf-unit <hour|second>  # default hour (as the seed's example)
#   --resources-file <file>   # default "": [audio]/[index]/[search]/[report] key=value file
#   --query-durations <file>  # default "": `<example-id> <seconds>` (e.g. queries' utt2dur)
#   --query-duration <s>      # default "": total query duration in seconds
#   --audio-duration <s>      # default "": total audio duration in seconds (overrides the ECF)
#   --report <true|false>     # default true; <exp-dir>/report.html (docs/report.md)
#   --report-files <n>        # default 20; recordings in report.html's timeline
#   --textgrids <true|false>  # default false; true is refused (no timeline)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
lambda=
ssf_unit=
resources_file=
query_durations=
query_duration=
audio_duration=
report=true
report_files=20
textgrids=false
# End configuration section.

echo "$0 $*" >&2

. "$TERMEVAL_ROOT/utils/parse_options.sh"

if [ $# -ne 2 ]; then
  te_usage
fi
set -euo pipefail

ref=$1
dir=$2
[ -e "$ref" ] || te_die "$ref: no such file or directory"
[ -z "$resources_file" ] || [ -f "$resources_file" ] || te_die "--resources-file: $resources_file: no such file"

opts=()
[ -n "$lambda" ] && opts+=(--lambda "$lambda")
[ -n "$ssf_unit" ] && opts+=(--ssf-unit "$ssf_unit")
[ -n "$resources_file" ] && opts+=(--resources-file "$resources_file")
[ -n "$query_durations" ] && opts+=(--query-durations "$query_durations")
[ -n "$query_duration" ] && opts+=(--query-duration "$query_duration")
[ -n "$audio_duration" ] && opts+=(--audio-duration "$audio_duration")
te_report_options
te_check_writable "$dir/log"
te_lock "$dir" 1
# one process, log/resources.log (the stage's name, termeval/resources/stage.py); the figures on stdout
te_run_stage "$dir" resources score_resources 1 "${opts[@]}" "$ref" "$dir"
