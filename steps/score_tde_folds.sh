#!/usr/bin/env bash
# Score a class file with the ZeroSpeech 2015 / 2017 definitions: steps/score_tde.sh
# --benchmark zr2015 (the default here) or zr2017; the same options and outputs.
# Usage: steps/score_tde_folds.sh [options] <data-dir> <class-file> <exp-dir>
exec "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/score_tde.sh" --benchmark zr2015 "$@"
