#!/usr/bin/env bash
# Reproduce the published ZeroSpeech 2017 track-2 leaderboard row of Kamper et al. (Mandarin)
# with the zrc2020 (tdev2) definitions, end to end: download the gold and the submission
# (local/get_zr17.sh, from the package registry), prepare the gold data dir and the classes,
# score, and print the scores next to the published values (percent, 2 decimals):
#   NED 88.07, coverage 100.0, grouping 20.24/31.48/24.64, token 7.01/9.61/8.11,
#   type 6.79/10.88/8.36, boundary 42.59/75.64/54.49.
#
# Usage: local/run_zr17_mandarin.sh [options]
#  e.g.: local/run_zr17_mandarin.sh --nj 2
#
# Options:
#   --stage <n>        # default 0 (0: download, 1: gold data dir, 2: score, 3: compare)
#   --stop-stage <n>   # default 100; last stage to run
#   --nj <n>           # default 1
#   --cmd <launcher>   # default $cmd from the environment, else termeval's utils/run.pl
#   --data <dir>       # default downloads/zr17 (filled by local/get_zr17.sh); an existing copy
#                      # of tde/share, e.g. ../shared/data/zr17, skips the download
#   --dir <dir>        # default exp/zr17_mandarin/kamper

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

stage=0
stop_stage=100
nj=1
cmd=$te_default_cmd
data=downloads/zr17
dir=exp/zr17_mandarin/kamper

echo "$0 $*" >&2
. "$TERMEVAL_ROOT/utils/parse_options.sh"

if [ $# -ne 0 ]; then
  te_usage
fi
set -euo pipefail

gold=data/zr17_mandarin
if [ $stage -le 0 ] && [ $stop_stage -ge 0 ] && [ ! -f "$data/kamper_mandarin.class" ]; then
  [ "$data" = downloads/zr17 ] || { echo "$0: no $data/kamper_mandarin.class" >&2; exit 1; }
  "$TERMEVAL_ROOT/local/get_zr17.sh" --dir downloads
fi
if [ $stage -le 1 ] && [ $stop_stage -ge 1 ]; then
  # the tdev2 phone files already label pauses SIL: nothing is added
  "$TERMEVAL_ROOT/steps/prepare_gold.sh" --format zr "$data/mandarin.phn" "$data/mandarin.wrd" $gold
fi
if [ $stage -le 2 ] && [ $stop_stage -ge 2 ]; then
  "$TERMEVAL_ROOT/steps/score_tde.sh" --benchmark zrc2020 --nj $nj --cmd "$cmd" $gold "$data/kamper_mandarin.class" $dir
fi
if [ $stage -le 3 ] && [ $stop_stage -ge 3 ]; then
  "${te_python[@]}" - "$dir/scores/scores.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
published = {"ned": 88.07, "coverage": 100.0,
             "grouping_precision": 20.24, "grouping_recall": 31.48, "grouping_fscore": 24.64,
             "token_precision": 7.01, "token_recall": 9.61, "token_fscore": 8.11,
             "type_precision": 6.79, "type_recall": 10.88, "type_fscore": 8.36,
             "boundary_precision": 42.59, "boundary_recall": 75.64, "boundary_fscore": 54.49}
bad = 0
print(f"{'metric':<20} {'ours':>20} {'ours %':>8} {'published %':>12}")
for k, v in published.items():
    ours = s[k]
    ok = ours is not None and round(100 * ours, 2) == v
    bad += not ok
    print(f"{k:<20} {ours!r:>20} {100 * ours:8.2f} {v:12.2f} {'ok' if ok else 'DIFFERENT'}")
print(f"ned_pairs {s['ned_pairs']}; classes {s['counts']['classes']}, fragments {s['counts']['fragments']}"
      f" ({s['counts']['fragments_kept']} with a transcription)")
print("reproduces the published ZeroSpeech 2017 row" if not bad else f"{bad} values differ from the published row")
sys.exit(1 if bad else 0)
PY
fi
