#!/usr/bin/env bash
# run.sh -- the termeval recipe: score spoken term discovery and spoken term detection systems.
# On a fresh machine it first builds tools/venv (path.sh), then scores the bundled synthetic
# example end to end; --corpus zr17-mandarin reproduces a published ZeroSpeech 2017 row.
#
# Usage: ./run.sh [options]
#  e.g.: ./run.sh                          # the bundled example, all stages
#        ./run.sh --stage 3                # resume at stage 3 (earlier stages are skipped)
#        ./run.sh --stage 5 --stop-stage 5 # only the spoken term detection stage
#        ./run.sh --corpus zr17-mandarin   # Kamper et al., ZeroSpeech 2017 Mandarin (real data)
#        /opt/termeval/run.sh              # from any directory: data/, exp/, RESULTS.md go there
# Options (default):
#   --stage N          first stage to run (0)
#   --stop-stage N     last stage to run (100); --stop_stage works too
#   --nj N             parallel jobs for the scoring stages (2)
#   --cmd CMD          job launcher for every scoring stage (from cmd.sh: termeval's utils/run.pl;
#                      e.g. "queue.pl --mem 4G", "slurm.pl --config conf/slurm.conf")
#   --corpus NAME      example | zr17-mandarin (example)
#   --seed N           seed of the generated example (1)
# Stages for --corpus example (outputs):
#   0  generate the example: gold in three forms, classes, STD task  (data/local/example*)
#   1  gold data dirs from the zr, CTM and TextGrid forms; check them identical  (data/example*)
#   2  prepare the discovered classes                       (exp/example_tde/classes)
#   3  term discovery, zrc2020 definitions, with 95% intervals (1000 resamples), and the same
#      output scored as a word segmentation                 (exp/example_tde/scores)
#   4  term discovery, ZeroSpeech 2017 definitions, whole corpus, within/cross speaker
#                                                           (exp/example_tde_zr2017/scores)
#   5  spoken term detection: ATWV/MTWV/Cnxe, DET and TWV plots  (exp/example_std{,_nist2006})
#   6  query-by-example extras: per-document scores, processing load (exp/example_quesst)
#   7  RESULTS.md from every exp/*/scores/scores.json
# For --corpus zr17-mandarin the stages are those of local/run_zr17_mandarin.sh.

# Begin configuration section.
stage=0
stop_stage=100
nj=2
corpus=example
seed=1
# End configuration section.

# termeval's own cmd.sh and path.sh (not the caller's: run.sh may be started from any
# directory; data/, exp/ and RESULTS.md are written in the current directory).
TERMEVAL_ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
. "$TERMEVAL_ROOT/cmd.sh"
. "$TERMEVAL_ROOT/path.sh" || exit 1
. "$TERMEVAL_ROOT/utils/termeval_lib.sh"
. "$TERMEVAL_ROOT/utils/parse_options.sh"
set -euo pipefail
[ $# -eq 0 ] || te_usage
[[ "$stage" =~ ^-?[0-9]+$ ]] || te_die "--stage: expected a whole number, got '$stage'"
[[ "$stop_stage" =~ ^-?[0-9]+$ ]] || te_die "--stop-stage: expected a whole number, got '$stop_stage'"
te_check_int nj "$nj" 1
[[ "$seed" =~ ^[0-9]+$ ]] || te_die "--seed: expected a whole number, got '$seed'"
if [ "$stage" -gt "$stop_stage" ]; then
  te_die "no stage selected (--stage $stage is after --stop-stage $stop_stage)"
fi
te_check_launcher
steps=$TERMEVAL_ROOT/steps
utils=$TERMEVAL_ROOT/utils
local=$TERMEVAL_ROOT/local

log() { echo "$(date '+%Y-%m-%dT%H:%M:%S') $0: $*" >&2; }
start=$SECONDS

case $corpus in
  example)
    [ "$stage" -le 7 ] || te_die "no stage selected (--stage $stage: the example has stages 0-7)" ;;
  zr17-mandarin)
    exec "$local/run_zr17_mandarin.sh" --stage "$stage" --stop-stage "$stop_stage" --nj "$nj" --cmd "$cmd" ;;
  *) te_die "--corpus: expected example or zr17-mandarin, got '$corpus'" ;;
esac

src=data/local/example

if [ $stage -le 0 ] && [ $stop_stage -ge 0 ]; then
  log "stage 0: generate the bundled example under $src (synthetic, deterministic)"
  "${te_python[@]}" "$local/make_example.py" --seed $seed $src
  "${te_python[@]}" "$local/make_example_std.py" --seed $seed ${src}_std
fi

if [ $stage -le 1 ] && [ $stop_stage -ge 1 ]; then
  log "stage 1: gold data dirs from the ZeroSpeech, Kaldi CTM and TextGrid forms"
  "$steps"/prepare_gold.sh --format zr $src/zr/example.phn $src/zr/example.wrd data/example
  "$steps"/prepare_gold.sh --format ctm --phones-txt $src/ctm/phones.txt --segments $src/ctm/segments \
    $src/ctm/phones.ctm $src/ctm/words.ctm data/example_ctm
  "$steps"/prepare_gold.sh --format textgrid $src/textgrid data/example_textgrid
  for d in data/example_ctm data/example_textgrid; do
    for f in phones words utt2spk spk2utt reco2dur; do
      cmp -s data/example/$f $d/$f || { echo "$0: $d/$f differs from data/example/$f" >&2; exit 1; }
    done
  done
  # the 2015/2017 challenge definitions read SIL-less alignments (pauses are gaps)
  "$steps"/prepare_gold.sh --format zr --drop-silence true --fill-gaps false \
    $src/zr/example.phn $src/zr/example.wrd data/example_nosil
fi

if [ $stage -le 2 ] && [ $stop_stage -ge 2 ]; then
  log "stage 2: prepare the discovered classes of the simulated system"
  "$steps"/prepare_classes.sh data/example $src/classes/example.classes exp/example_tde
fi

if [ $stage -le 3 ] && [ $stop_stage -ge 3 ]; then
  log "stage 3: term discovery scores, zrc2020 definitions (NED, coverage, grouping, type, token, boundary)"
  "$steps"/score_tde.sh --benchmark zrc2020 --nj $nj --cmd "$cmd" --bootstrap 1000 --seed 1 \
    data/example $src/classes/example.classes exp/example_tde
  # the same output read as a word segmentation (boundary/token F at 20 ms, R-value, V-measure, ...)
  "$steps"/score_segmentation.sh --nj $nj --cmd "$cmd" --tolerance 0.02 \
    data/example $src/classes/example.classes exp/example_tde
fi

if [ $stage -le 4 ] && [ $stop_stage -ge 4 ]; then
  log "stage 4: term discovery scores, ZeroSpeech 2017 definitions (matching, within/cross speaker)"
  "$steps"/score_tde.sh --benchmark zr2017 --folds none --nj $nj --cmd "$cmd" \
    data/example_nosil $src/classes/example.classes exp/example_tde_zr2017
fi

if [ $stage -le 5 ] && [ $stop_stage -ge 5 ]; then
  log "stage 5: spoken term detection (MediaEval SWS 2013 operating point): ATWV, MTWV, Cnxe, DET"
  "$steps"/score_std.sh --nj $nj --cmd "$cmd" --preset sws2013 --breakdown attr:NGram,ngram,freq ${src}_std/kws ${src}_std/detections.stdlist.xml exp/example_std
  # the same detections as a BABEL/Kaldi KWSLIST, at the NIST STD 2006 operating point
  "$steps"/score_std.sh --nj $nj --cmd "$cmd" --preset nist2006 ${src}_std/kws ${src}_std/detections.kwslist.xml exp/example_std_nist2006
fi

if [ $stage -le 6 ] && [ $stop_stage -ge 6 ]; then
  log "stage 6: query-by-example extras: per-document (QUESST) scores and processing load"
  "${te_python[@]}" "$local/make_example_quesst.py" reference data/local/example_quesst/kws
  "$utils"/measure_resources.sh exp/example_quesst index -- \
    "${te_python[@]}" "$local/make_example_quesst.py" index data/local/example_quesst/kws exp/example_quesst/index.npz
  "$utils"/measure_resources.sh exp/example_quesst search -- \
    "${te_python[@]}" "$local/make_example_quesst.py" search data/local/example_quesst/kws exp/example_quesst/index.npz \
    exp/example_quesst/quesst.stdlist.xml
  "$steps"/score_quesst.sh --nj $nj --cmd "$cmd" --default-score -10 data/local/example_quesst/kws \
    exp/example_quesst/quesst.stdlist.xml exp/example_quesst
  "$steps"/score_resources.sh data/local/example_quesst/kws exp/example_quesst
fi

if [ $stage -le 7 ] && [ $stop_stage -ge 7 ]; then
  log "stage 7: summary table RESULTS.md"
  "$utils"/summarize_scores.sh exp
fi

headline="grep -H -E '^(ned|coverage|token_fscore|cross_ned|atwv|mtwv|act_twv|min_cnxe|word_boundary_fscore) ' exp/*/scores/*"
if [ "$stop_stage" -ge 7 ]; then
  log "done in $((SECONDS - start)) s. Summary: RESULTS.md; headline scores: $headline"
elif [ "$stop_stage" -ge 3 ]; then      # RESULTS.md is stage 7's: not written by this run
  log "done in $((SECONDS - start)) s (stages $stage-$stop_stage; RESULTS.md: --stage 7). Headline scores: $headline"
else
  log "done in $((SECONDS - start)) s (stages $stage-$stop_stage: nothing scored yet;" \
    "./run.sh --stage $((stop_stage + 1)) goes on)"
fi
