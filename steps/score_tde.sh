#!/usr/bin/env bash
# Score a spoken term discovery class file with the ZeroSpeech term discovery metrics, in one
# Python process (termeval/bin/score_tde.py; --nj N or --cmd: N jobs and a merge, termeval/run/driver.py).
# zrc2020 (default): the definitions of tdev2 (PyPI zerospeech-tde 2.0.3, today's ZeroSpeech
# leaderboards), computed exactly but by counting instead of enumerating pairs: NED (+ number
# of pairs) and coverage -> <exp-dir>/scores/matching; grouping and type P/R/F ->
# scores/clustering; token and boundary P/R/F -> scores/parsing; all values at full precision
# plus counts (classes, fragments, discarded fragments by reason) in scores/scores.json;
# per-class diagnostics in <exp-dir>/details/clusters.txt and the discarded fragments in
# <exp-dir>/details/discarded. The classes are prepared into <exp-dir>/classes (as
# steps/prepare_classes.sh does; counts in scores/prepare) unless it was prepared from a class
# file with the same content, the same data dir reco2dur content and the same options.
# zr2015 / zr2017: the fold-based 2015/2017 challenge definitions (bootphon/tde master = zr2015,
# branch zerospeech2017 = zr2017): matching P/R/F with substring completion, NED, coverage,
# grouping, type, token and boundary P/R/F per fold, summarised over the cross-speaker and the
# within-speaker fold sets (cross_<metric>, within_<metric> and _std/_min/_max/_nfolds) in
# scores/{matching,clustering,parsing}; what the original tool silently dropped or truncated in
# scores/tde15_input; per-fold values under "folds" in scores.json; the original tool's text
# files in details/tde15/. The data dir is prepared SIL-less for these:
#   steps/prepare_gold.sh --format zr --fill-gaps false --sort true <phn> <wrd> <data-dir>
# zr2015-doc / lrec2014: the metrics as the seed documents themselves define them (ZeroSpeech
# 2015 page + tdev2 doc + ZRC site / Ludusan et al. LREC 2014;
# docs/tde.md §13), counted: the keys of scores.json listed there (ned, coverage, matching_*,
# grouping_*, type_*, token_*, boundary_*, within_*; zr2015-doc also coverage_discoverable and
# type_3to20_*), with "definitions" naming every rule used; any data dir from
# steps/prepare_gold.sh (SIL lines and gaps are both pauses); classes prepared as for zrc2020.
# The score lines are printed on stdout, progress and logs go to stderr and <exp-dir>/log/
# (<benchmark>.log, e.g. zrc2020.log; with jobs <benchmark>.JOB.log and <benchmark>.merge.log,
# shards <exp-dir>/jobs/<benchmark>.J.npz: the benchmark's name is its stage's). scores/, details/ and units/ are replaced whole by a successful run and left
# as they were by a failed one; one run at a time per exp dir.
#
# Usage: steps/score_tde.sh [options] <data-dir> <class-file> <exp-dir>
#  e.g.: steps/score_tde.sh --nj 4 data/zr17_mandarin downloads/zr17/kamper_mandarin.class exp/zr17_mandarin/kamper
#
# Options:
#   --benchmark <zrc2020|zr2015|zr2017|zr2015-doc|lrec2014>   # default zrc2020
#   --nj <n>                              # default 1; number of jobs: the classes (zrc2020) or
#                                         # folds (zr2015/zr2017; a cross fold split into its
#                                         # matching, pairs and words metrics) are split into n
#                                         # ranges of about equal cost, after the inputs are
#                                         # prepared once (--prepare-only: <exp-dir>/tde/);
#                                         # 1 without --cmd: one process, no launcher
#   --cmd <launcher>                      # default $cmd from the environment (cmd.sh), else termeval's
#                                         # utils/run.pl; e.g. "queue.pl --mem 4G", "slurm.pl"
#   --lenient <true|false>                # default false; zrc2020: as steps/prepare_classes.sh;
#                                         # zr2015/zr2017: unknown file ids, duplicate class ids and
#                                         # fragment lines before the first header handled as the
#                                         # original did (dropped / last wins / joined), and counted
#   --end-tolerance <seconds>             # default 0.01; zrc2020: as steps/prepare_classes.sh
#   --pairs-clustering <pairs|components> # default pairs; zrc2020, zr2015-doc, lrec2014 with a pairs
#                                         # file: one class per pair, or its connected components as
#                                         # classes (as steps/prepare_classes.sh)
#   --workers <n>                         # default 1; zrc2020: edit-distance threads per job
#   --folds <prefix|none|auto>            # default auto; zr2015/zr2017: <prefix>.split,
#                                         # <prefix>.intervals.cross, <prefix>.intervals.within and,
#                                         # when present, <prefix>.classes; none: whole corpus as one
#                                         # cross fold, one within fold per speaker; auto: <data-dir>/folds.*
#                                         # zr2015-doc: none|equal:N|auto (= equal:10);
#                                         # lrec2014: none|random:BxFRAC[:SEED]|auto (= random:50x0.04:777)
#   --measures <list>                     # default all; zr2015/zr2017: comma list of
#                                         # matching,ned,coverage,grouping,token_type,boundary
#   --bootstrap <n>                       # default 0 (off); resamples for confidence intervals
#   --seed <s> / --ci <level>             # default 777 / 0.95; seed and level of the intervals
#   --bootstrap-unit <file|speaker>       # default file; unit of the non-class metrics
#   --report <true|false>                 # default true; <exp-dir>/report.html (docs/report.md)
#   --report-files <n>                    # default 20; recordings in report.html's timeline
#   --textgrids <true|false>              # default false; details/textgrids/<file>.TextGrid: gold
#                                          # phones and words, fragments, errors

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
benchmark=zrc2020
nj=1
cmd=$te_default_cmd
folds=auto
measures=all
lenient=false
workers=1
bootstrap=0
seed=777
ci=0.95
bootstrap_unit=file
end_tolerance=0.01
pairs_clustering=pairs
report=true
report_files=20
textgrids=false
# End configuration section.

echo "$0 $*" >&2

. "$TERMEVAL_ROOT/utils/parse_options.sh"

[ $# -eq 3 ] || te_usage
set -euo pipefail

data=$1
classfile=$2
dir=$3

opts=(--benchmark "$benchmark" --lenient "$lenient" --end-tolerance "$end_tolerance" --workers "$workers"
      --pairs-clustering "$pairs_clustering"
      --folds "$folds" --measures "$measures" --bootstrap "$bootstrap" --seed "$seed" --ci "$ci"
      --bootstrap-unit "$bootstrap_unit")
te_report_options
# every option is checked by the step's Options (termeval/tde/options.py: the values, their
# bounds, an option the benchmark does not read), before anything runs
te_check_options score_tde --nj "$nj" "${opts[@]}" "$data" "$classfile" "$dir"
te_check_dir "data dir" "$data"
case "$benchmark" in
  zr2015|zr2017)
    for f in phones words utt2spk reco2dur; do
      [ -f "$data/$f" ] || te_die "$data/$f: no such file (prepare it with steps/prepare_gold.sh --format zr --fill-gaps false)"
    done
    [ -e "$classfile" ] || te_die "$classfile: no such file" ;;
  *)
    for f in phones words reco2dur $([ "$benchmark" = zrc2020 ] || echo utt2spk); do
      te_check_file "data dir file" "$data/$f"
    done
    te_check_file "class file" "$classfile" ;;
esac
if [ "$nj" -gt 1 ] || [ "$te_cmd_given" = true ]; then
  te_check_launcher
fi
te_check_writable "$dir/log"
te_lock "$dir" "$nj"

# the benchmark's name is its stage's (termeval/tde/benchmarks.py): logs log/$benchmark[.JOB|.merge].log;
# with jobs, what they share (the classes; zr2015/zr2017: the parsed inputs) is prepared once
# first (the one plan, termeval/run/plan.py); the --folds auto and SIL warnings come with the scores
te_run_stage "$dir" "$benchmark" score_tde "$nj" "${opts[@]}" "$data" "$classfile" "$dir"

if [ -d "$dir/details" ]; then
  echo "$0: $benchmark scores in $dir/scores, details in $dir/details" >&2
else
  echo "$0: $benchmark scores in $dir/scores" >&2
fi
