#!/usr/bin/env bash
# Score a spoken-term-discovery class file with the ZeroSpeech 2015 / 2017 challenge definitions
# (bootphon/tde master = zr2015, branch zerospeech2017 = zr2017): matching P/R/F with substring
# completion, NED, coverage, grouping, type, token and boundary P/R/F, each computed per fold and
# summarised over the cross-speaker ("total") and the within-speaker fold sets as mean, std, min,
# max and number of valid folds. Per-fold values match the original tool to 1e-9.
# steps/score_tde.sh --benchmark zr2015|zr2017 hands over to this script.
#
# Usage: steps/score_tde_folds.sh [options] <data-dir> <class-file> <exp-dir>
#  e.g.: steps/score_tde_folds.sh --benchmark zr2017 --folds <challenge-dir>/mandarin \
#          data/mandarin_tde17 downloads/zr17/kamper_mandarin.class exp/kamper_mandarin_zr2017
#
# <data-dir>   gold prepared WITHOUT silence lines (pauses are gaps, as in the 2015/2017 files):
#              steps/prepare_gold.sh --format zr --fill-gaps false --sort true <phn> <wrd> <data-dir>
# <class-file> discovered classes (ZeroSpeech class-file format), or a class dir prepared by
#              steps/prepare_classes.sh
# Outputs: <exp-dir>/scores/{matching,clustering,parsing} (cross_<metric>, within_<metric> and
#   their _std/_min/_max/_nfolds variants), <exp-dir>/scores/tde15_input (what the original tool
#   silently dropped or truncated, counted), <exp-dir>/scores/scores.json (all of it + per-fold
#   values under "folds"), <exp-dir>/details/tde15/{matching,group,token_type,nlp,boundary}
#   (the original tool's text layout), logs in <exp-dir>/log/.
#
# Options (default):
#   --benchmark <zr2015|zr2017>   zr2015: TDE15 quirks; zr2017: TDE17 quirks (zr2015)
#   --folds <prefix|none|auto>    <prefix>.split, <prefix>.intervals.cross, <prefix>.intervals.within
#                                 and, when present, <prefix>.classes (gold n-gram classes; else they
#                                 are generated: repeated 3-20-grams inside contiguous segments);
#                                 none: whole corpus as one cross fold, one within fold per speaker
#                                 (utt2spk), no VAD truncation; auto: <data-dir>/folds.* if there,
#                                 else the whole corpus as none, said on stderr and recorded in
#                                 scores.json (folds_used, warnings) (auto)
#   --measures <list>             comma list of matching,ned,coverage,grouping,token_type,boundary (all)
#   --lenient <true|false>        true: unknown file ids, duplicate class ids and fragment lines before
#                                 the first header are handled as the original did (dropped / last
#                                 wins / joined to the next class) and counted; false: error (false)
#   --nj <n>                      parallel jobs over folds (1)
#   --cmd <cmd>                   job launcher ($cmd from the environment, else termeval's utils/run.pl)
#   --bootstrap <n>               resamples for percentile intervals of the fold means (0 = off; docs/uncertainty.md)
#   --seed <s> / --ci <level>     seed and level of the intervals (777 / 0.95)
#   --bootstrap-unit <file|speaker>  unit of the coverage/token/type/boundary intervals (file)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

benchmark=zr2015
folds=auto
measures=all
lenient=false
nj=1
cmd=$te_default_cmd
bootstrap=0
seed=777
ci=0.95
bootstrap_unit=file

echo "$0 $*" >&2
. "$TERMEVAL_ROOT/utils/parse_options.sh"

[ $# -eq 3 ] || te_usage
set -euo pipefail
te_check_bootstrap

data=$1
classes=$2
dir=$3

te_check_choice benchmark "$benchmark" zr2015 zr2017
te_check_int nj "$nj" 1
te_check_dir "data dir" "$data"
for f in phones words utt2spk reco2dur; do
  [ -f "$data/$f" ] || te_die "$data/$f: no such file (prepare it with steps/prepare_gold.sh --format zr --fill-gaps false)"
done
[ -e "$classes" ] || te_die "$classes: no such file"
if [ "$folds" = auto ]; then
  # the challenge's fold files are not public: without them, the whole corpus (said before any job)
  if [ -f "$data/folds.split" ] && [ -f "$data/folds.intervals.cross" ] && [ -f "$data/folds.intervals.within" ]; then
    :
  elif [ -f "$data/folds.split" ] || [ -f "$data/folds.intervals.cross" ] || [ -f "$data/folds.intervals.within" ]; then
    te_die "--folds auto: $data has some of folds.split, folds.intervals.cross, folds.intervals.within but not all"
  else
    echo "$0: warning: --folds auto: no fold files in $data (folds.split, folds.intervals.cross," \
         "folds.intervals.within; the public data has none): scoring the whole corpus as --folds none" >&2
  fi
elif [ "$folds" != none ]; then
  for s in split intervals.cross intervals.within; do
    [ -f "$folds.$s" ] || te_die "--folds: $folds.$s: no such file (--folds <prefix>|none|auto)"
  done
fi
if grep -q -m1 ' SIL$' "$data/phones"; then
  echo "$0: warning: $data/phones has SIL lines; the $benchmark definitions expect pauses as gaps" \
       "(prepare with --fill-gaps false), otherwise SIL is scored as a phone" >&2
fi
te_check_launcher
te_check_writable "$dir/log"
mkdir -p "$dir/tde15"
rm -f "$dir"/tde15/folds.*.json

te_launch JOB=1:$nj "$dir/log/score_tde_folds.JOB.log" score_tde_folds --benchmark "$benchmark" \
  --folds "$folds" --measures "$measures" --lenient "$lenient" --bootstrap "$bootstrap" --seed "$seed" --ci "$ci" --bootstrap-unit "$bootstrap_unit" --job JOB --nj "$nj" "$data" "$classes" "$dir"
te_launch "$dir/log/score_tde_folds.merge.log" score_tde_folds --benchmark "$benchmark" \
  --folds "$folds" --measures "$measures" --lenient "$lenient" --bootstrap "$bootstrap" --seed "$seed" --ci "$ci" --bootstrap-unit "$bootstrap_unit" --merge "$nj" "$data" "$classes" "$dir"
grep -v '^#' "$dir/log/score_tde_folds.merge.log" >&2 || true

echo "$0: $benchmark scores in $dir/scores/{matching,clustering,parsing}, details in $dir/details/tde15" >&2
