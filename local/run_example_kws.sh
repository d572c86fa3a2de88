#!/usr/bin/env bash
# Keyword search on the bundled example, the whole path a Kaldi/ESPnet user runs:
# word alignments (data/example, ./run.sh --stop-stage 1) -> kws dir (steps/prepare_kws.sh)
# -> Kaldi's local/kws/score.sh path (KST, ntrue-scale sweep, compute-atwv, metrics.txt,
# per-category-score.txt, F4DE's sum.txt/bsum.txt) -> the same KST results scored like F4DE.
#
# Usage: local/run_example_kws.sh [data-dir] [out-data-dir] [exp-dir]
#  e.g.: local/run_example_kws.sh data/example data/example_kws exp/example_kws
. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1
set -euo pipefail
data=${1:-data/example}
out=${2:-data/example_kws}
exp=${3:-exp/example_kws}
te_check_dir "data dir" "$data"
steps=$TERMEVAL_ROOT/steps
# keyword list, lexicon, kws dir (steps/prepare_kws.sh) and a simulated system's results (costs);
# the kws dir as README's example makes it (--ecf-source-type cts: its table's numbers)
"${te_python[@]}" "$TERMEVAL_ROOT/local/make_example_kws.py" "$data" "$out"
"$steps"/prepare_kws.sh --keywords "$out/keywords.txt" --lexicon "$out/lexicon.txt" \
  --ecf-source-type cts "$data" "$out/kws"
# like local/kws/score.sh: KST with the ntrue-scale sweep, compute-atwv, metrics.txt, F4DE reports
"$steps"/score_std.sh --compat kaldi --kst true --ntrue-scale auto --f4de-reports true \
  "$out/kws" "$out/results" "$exp"
cat "$exp/metrics.txt"
# the KST-normalised results (probabilities) scored like F4DE, and with F4DE's own duration rule
"$steps"/score_std.sh --preset nist2006 --plots false --breakdown ngram,phones --lexicon "$out/lexicon.txt" \
  --f4de-reports true "$out/kws" "$exp/details/results" "${exp}_f4de" | grep -E '^(atwv|mtwv|otwv) '
"$steps"/score_std.sh --preset nist2006 --plots false --compat f4de \
  "$out/kws" "$exp/details/results" "${exp}_compat_f4de" | grep -E '^(atwv|mtwv|otwv) '
# without KST: the posteriors exp(-cost) scored as compute-atwv does, and like F4DE
awk '{print $1, $2, $3, $4, exp(-$5)}' "$out/results" > "$out/posteriors"
"$steps"/score_std.sh --compat kaldi "$out/kws" "$out/posteriors" "${exp}_posteriors"
cat "${exp}_posteriors/metrics.txt"
"$steps"/score_std.sh --preset nist2006 --plots false "$out/kws" "$out/posteriors" "${exp}_posteriors_f4de" \
  | grep -E '^(atwv|mtwv|otwv) '
