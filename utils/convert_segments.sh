#!/usr/bin/env bash
# Convert a segmentation written by papers' code into the interval file that
# steps/score_segmentation.sh reads: `<utt> <onset> <offset> [<cluster>]` (seconds).
#   malan-list    s-malan/evaluation: per-utterance <utt>.list files (recursive), `<end s> [<label>]`
#                 lines; a segment starts at the previous end (the first at 0)
#   sdhubert-npy  cheoljun95/sdhubert: per-utterance <utt>.npy dicts (`segments`, `segment_features`);
#                 np.save pickles a dict, so --allow-pickle true is required (only numpy arrays
#                 and plain values are unpickled); --centroids labels each segment by the nearest
#                 k-means centre, --reducer maps the centres to clusters; else no labels
#   units         `<utt> <u1> <u2> ...` at --frame-shift seconds per unit; a segment is a run of
#                 equal units (boundaries at label changes), labelled by its unit
# Details: termeval/segmentation/convert.py, docs/segmentation.md.
#
# Usage: utils/convert_segments.sh [options] --from <format> <input> <output>
#  e.g.: utils/convert_segments.sh --from malan-list exp/malan/lists exp/malan/intervals
#        utils/convert_segments.sh --from sdhubert-npy --allow-pickle true --centroids km_centres.npy \
#            --reducer km_16384to4096.npy segments/sdhubert_base exp/sdhubert/intervals
#        utils/convert_segments.sh --from units --frame-shift 0.02 exp/hubert/units.txt exp/hubert/intervals
#        steps/score_segmentation.sh --level syllable data/libri exp/sdhubert/intervals exp/sdhubert
#
# Options (default):
#   --from <malan-list|sdhubert-npy|units>  # required
#   --frame-shift <seconds>                 # ('') units: seconds per unit (required there)
#   --allow-pickle <true|false>             # (false) sdhubert-npy: read the pickled dicts
#   --centroids <file.npy>                  # ('') sdhubert-npy: k-means centres (K, D)
#   --reducer <file.npy>                    # ('') sdhubert-npy: K integers, centre -> cluster

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
from=
frame_shift=
allow_pickle=false
centroids=
reducer=
# End configuration section.

. "$TERMEVAL_ROOT/utils/parse_options.sh"

[ $# -eq 2 ] || te_usage
set -euo pipefail
opts=(--from "$from" --allow-pickle "$allow_pickle")
[ -z "$frame_shift" ] || opts+=(--frame-shift "$frame_shift")
[ -z "$centroids" ] || opts+=(--centroids "$centroids")
[ -z "$reducer" ] || opts+=(--reducer "$reducer")
te_check_options convert_segments "${opts[@]}" -- "$1" "$2"    # the options: the step's Options
[ -e "$1" ] || te_die "$1: no such file or directory"
"${te_python[@]}" -m termeval.bin.convert_segments "${opts[@]}" -- "$1" "$2"
