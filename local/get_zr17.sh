#!/usr/bin/env bash
# Download the ZeroSpeech 2017 term discovery resources shipped by the reference tool: the
# source distribution of zerospeech-tde 2.0.3 (tdev2, what today's ZeroSpeech leaderboards
# run) from the Python package registry, and unpack its tde/share/ directory (gold .phn/.wrd
# of mandarin, english, french and buckeye, the Kamper et al. ZR2017 Mandarin submission
# kamper_mandarin.class, Buckeye gold word classes, test fixtures) into <dir>/zr17/.
# Nothing downloaded is committed (downloads/ is git-ignored). Does nothing if already done.
#
# Usage: local/get_zr17.sh [options]
#  e.g.: local/get_zr17.sh --dir downloads
#
# Options:
#   --dir <dir>        # default downloads; the archive goes there, the files to <dir>/zr17/
#   --version <v>      # default 2.0.3

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

dir=downloads
version=2.0.3

echo "$0 $*" >&2
. "$TERMEVAL_ROOT/utils/parse_options.sh"

if [ $# -ne 0 ]; then
  te_usage
fi
set -euo pipefail

out=$dir/zr17
if [ -f "$out/.done" ]; then
  echo "$0: $out already prepared" >&2
  exit 0
fi
mkdir -p "$dir"
archive=$dir/zerospeech-tde-$version.tar.gz
if [ ! -f "$archive" ]; then
  "$TERMEVAL_ROOT/tools/venv/bin/python" -m pip download --no-deps --no-binary :all: "zerospeech-tde==$version" -d "$dir" >&2 || {
    echo "$0: could not download zerospeech-tde==$version from the package registry" >&2; exit 1; }
fi
[ -f "$archive" ] || { echo "$0: expected $archive after pip download" >&2; exit 1; }
tmp=$(mktemp -d "$dir/.zr17.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$archive" -C "$tmp" "zerospeech-tde-$version/tde/share"
rm -rf "$out"
mv "$tmp/zerospeech-tde-$version/tde/share" "$out"
rm -f "$out/__init__.py"
for f in mandarin.phn mandarin.wrd kamper_mandarin.class buckeye.phn buckeye.wrd gold.class; do
  [ -s "$out/$f" ] || { echo "$0: $out/$f is missing from the archive" >&2; exit 1; }
done
touch "$out/.done"
echo "$0: ZeroSpeech 2017 resources in $out ($(ls "$out" | wc -l) files)" >&2
