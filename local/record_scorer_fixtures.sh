#!/usr/bin/env bash
# Re-record the published scorers' outputs on the generated cases of tests/differential/cases.py
# (tests/fixtures/differential/<tool>.json), which tests/differential compares termeval with on
# every run. Each tool is run from its own checkout, named by its variable; a tool whose variable
# is unset is skipped with a note. Nothing of the tools is copied into the repository, and this
# script builds nothing: give it checkouts and an interpreter that has their dependencies.
#   harwath    $HARWATH_DIR    jasonppy/syllable-discovery (unit_analysis_boundary_only.py)
#   sdhubert   $SDHUBERT_DIR   cheoljun95/sdhubert (evaluate_boundary.py, evaluate_purity.py)
#   sylreg     $SYLREG_DIR     ryota-komatsu/speaker_disentangled_hubert with src/s5hubert (eval.py),
#                              and $SDHUBERT_DIR (its utils/syllable.py)
#   discophon  $DISCOPHON_DIR  a directory holding the discophon 0.2.0 package (a venv's site-packages)
#   malan      $MALAN_DIR      s-malan/evaluation (boundary_word.py; needs praat-textgrids, tqdm)
#   unsupseg   $UNSUPSEG_DIR   felixkreuk/UnsupSeg (utils.py; scipy; torch and wandb are stubbed)
#   vqwordseg  $VQWORDSEG_DIR  kamperh/vqwordseg (eval_segmentation.py; scikit-learn, tqdm)
#   wordseg    $WORDSEG_DIR    bootphon/wordseg (wordseg.evaluate; scikit-learn, setuptools)
# The tests then compare against the new fixtures; with the same variables set (and
# $TERMEVAL_REF_PYTHON), tests/differential also runs the tools live on a share of the cases.
#
# Usage: local/record_scorer_fixtures.sh [options] [<tool> ...]   (default: every tool)
#  e.g.: HARWATH_DIR=~/src/syllable-discovery local/record_scorer_fixtures.sh --python ~/venvs/ref/bin/python harwath
# Options:
#   --python <py>            # interpreter with the tools' dependencies (default: termeval's own)
#   --discophon-python <py>  # interpreter of discophon's environment (default: --python)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

python=
discophon_python=

echo "$0 $*" >&2
. "$TERMEVAL_ROOT/utils/parse_options.sh"
set -euo pipefail

tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(harwath sdhubert sylreg discophon malan unsupseg vqwordseg wordseg)
[ -n "$python" ] || python=$("${te_python[@]}" -c "import sys; print(sys.executable)")
[ -n "$discophon_python" ] || discophon_python=$python
cd "$TERMEVAL_ROOT"
for tool in "${tools[@]}"; do
  case $tool in
    harwath) var=HARWATH_DIR ;; sdhubert) var=SDHUBERT_DIR ;; sylreg) var=SYLREG_DIR ;;
    discophon) var=DISCOPHON_DIR ;; malan) var=MALAN_DIR ;; unsupseg) var=UNSUPSEG_DIR ;;
    vqwordseg) var=VQWORDSEG_DIR ;; wordseg) var=WORDSEG_DIR ;;
    *) te_die "unknown tool '$tool' (harwath sdhubert sylreg discophon malan unsupseg vqwordseg wordseg)" ;;
  esac
  if [ -z "${!var:-}" ]; then
    echo "$0: note: \$$var is not set: $tool not recorded" >&2
    continue
  fi
  py=$python
  [ "$tool" != discophon ] || py=$discophon_python
  # vqwordseg's greedy one-to-one mapping follows the hash seed (not recorded; the rest does not)
  PYTHONHASHSEED=0 "${te_python[@]}" -m tests.differential.record "$tool" --python "$py"
done
