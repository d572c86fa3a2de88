#!/usr/bin/env bash
# Prepare gold phone and word alignments as a Kaldi-style data dir:
#   <data-dir>/{phones,words,utt2spk,spk2utt,reco2dur}  (format: termeval/core/datadir.py)
# from ZeroSpeech .phn/.wrd files, Kaldi CTMs, or Praat/MFA TextGrids. The same alignment in
# the three formats gives byte-identical data dirs. Strict: bad input (wrong field counts,
# NaN/negative/zero-length/reversed intervals, out-of-order or overlapping intervals, word
# edges that are not phone edges, unknown phone ids, missing tiers, UTF-16 without BOM,
# empty files, ...) is a one-line error naming file and line, exit 1, and nothing is written;
# the data dir is built in a temp dir and moved into place; inputs are never modified.
#
# Usage: steps/prepare_gold.sh [options] --format zr <phn> <wrd> <data-dir>
#        steps/prepare_gold.sh [options] --format ctm [--phones-txt F] [--segments F] <phone-ctm> <word-ctm|-> <data-dir>
#        steps/prepare_gold.sh [options] --format textgrid [--segments F] <textgrid-dir> <data-dir>
#        steps/prepare_gold.sh [options] --format discophon <alignment-file> <data-dir>   (phones only, no word)
#  e.g.: steps/prepare_gold.sh --format zr downloads/zr17/mandarin.phn downloads/zr17/mandarin.wrd data/mandarin
#        steps/prepare_gold.sh --format ctm --phones-txt data/lang/phones.txt --segments data/train/segments \
#            exp/tri3_ali/phones.ctm exp/tri3_ali/words.ctm data/train_gold
#        steps/prepare_gold.sh --format textgrid --spk-rule whole mfa_out/ data/mfa_gold
#        steps/prepare_gold.sh --format zr --fill-gaps false --syllables gold.syl gold.phn gold.wrd data/gold
#
# Formats:
#   zr        `<file> <onset> <offset> <label>` (seconds); times are kept as the parsed doubles.
#   ctm       `<reco-or-utt> <chan> <start> <dur> <label> [<conf>]`, e.g. ali-to-phones --ctm-output.
#             Integer labels are mapped through --phones-txt (--words-txt for the word CTM);
#             _B/_I/_E/_S position suffixes are stripped; with --segments the keys are
#             utterances and times become recording times (+ segment start); a key that is a
#             recording of the segments file (a NIST word CTM after convert_ctm.pl) is taken
#             as recording-relative. Word CTM `-`:
#             words are derived from the position suffixes (a word runs from _B/_S to _E/_S)
#             and labelled with their phones joined by '+', e.g. `k+ae+t`.
#   textgrid  every *.TextGrid below the directory (file id = basename); tiers --words-tier and
#             --phones-tier, or MFA multi-speaker `<speaker> - words`/`<speaker> - phones`
#             (the speaker then goes to utt2spk). UTF-8 or UTF-16 with BOM. With --segments
#             each TextGrid is one utterance (MFA run on an ESPnet/Kaldi data dir): its name is
#             the utterance id and its times move to recording time (+ segment start).
#   CTM and TextGrid times are rounded to --time-decimals decimals.
# Silence: phones labelled with one of --silence-labels (and empty TextGrid intervals) become
#   --sil-label; SPN/spn stay as they are; silence words are dropped. With --fill-gaps true
#   every gap between phones, and 0..first phone when it starts after 0, becomes a SIL phone
#   (the ZR2017/TDEv2 reference needs labelled silences); nothing is added after the last phone.
#
# Options (default):
#   --format <zr|ctm|textgrid|discophon>  # required (discophon: its alignment-<lang>-<split>.txt)
#   --phones-txt <file>            # ('') ctm: phone symbol table for integer ids (an error otherwise)
#   --words-txt <file>             # ('') ctm: word symbol table for integer ids (an error otherwise)
#   --segments <file>              # ('') ctm, textgrid: <utt> <reco> <start> <end> (an error for zr)
#   --strip-position <true|false>  # (true) ctm: strip _B/_I/_E/_S
#   --words-tier <name>            # (words) textgrid word tier
#   --phones-tier <name>           # (phones) textgrid phone tier
#   --utt2spk <file>               # ('') <file> <speaker> map; otherwise TextGrid speakers, then --spk-rule
#   --spk-rule <rule>              # (auto) auto: the part of the id before its first '-', else the
#                                  # whole id; whole; prefix:N; field:SEP:K (K-th field, 1-based)
#   --sil-label <label>            # (SIL)
#   --silence-labels "<labels>"    # ("SIL sil sp NSN") phone labels meaning silence
#   --fill-gaps <true|false>       # (true) label gaps as silence; false: keep gaps (ZR2015/2017 tools)
#   --drop-silence <true|false>    # (false) remove input silence phones first
#   --sort <true|false>            # (false) sort out-of-order intervals instead of failing
#                                  # (needed for the ZR2015 sample.phn and ZR2017 TDE17 mandarin.phn)
#   --boundary-tolerance <sec>     # (0.001) max distance of a word edge from a phone edge
#   --snap-words <true|false>      # (false) move word edges onto that phone edge (TDEv2 compares
#                                  # boundaries with exact float equality)
#   --time-decimals <n>            # (6) ctm/textgrid time rounding
#   --strip-stress <true|false>    # (false) strip a final stress digit (AH1 -> AH)
#   --validate <true|false>        # (true) run utils/validate_alignment_dir.sh on the result
#   --syllables <path>             # ('') a syllable alignment, written as the tier <data-dir>/syllables
#                                  # (scored by steps/score_segmentation.sh --level syllable)
#   --syllables-format <fmt>       # (auto) zr: `<file> <onset> <offset> <label>`; textgrid: a TextGrid
#                                  # dir, tier --syllables-tier; sdhubert-json: SD-HuBERT's LibriSpeech
#                                  # syllable JSON; auto: a dir is textgrid, *.json sdhubert-json, else zr
#   --syllables-tier <name>        # (syllables) textgrid syllable tier (or `<speaker> - syllables`)
# Syllables follow the word rules (silence dropped, values, order and overlaps checked, --sort);
#   each must lie in a file of the data dir and end by its reco2dur (+ --boundary-tolerance);
#   their times are taken as file times (--segments does not apply to them).

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
format=
phones_txt=
words_txt=
segments=
strip_position=true
words_tier=words
phones_tier=phones
utt2spk=
spk_rule=auto
sil_label=SIL
silence_labels="SIL sil sp NSN"
fill_gaps=true
drop_silence=false
sort=false
boundary_tolerance=0.001
snap_words=false
time_decimals=6
strip_stress=false
validate=true
syllables=
syllables_format=auto
syllables_tier=syllables
# End configuration section.

echo "$0 $*" >&2

. "$TERMEVAL_ROOT/utils/parse_options.sh"

usage() { te_usage; }
case "$format" in
  zr|ctm) [ $# -eq 3 ] || usage ;;
  textgrid|discophon) [ $# -eq 2 ] || usage ;;
  *) echo "$te_script: error: --format: expected zr, ctm, textgrid or discophon, got '$format'" >&2; usage ;;
esac
set -euo pipefail

data=${@: -1}
for f in "${@:1:$#-1}" ${phones_txt:+"$phones_txt"} ${words_txt:+"$words_txt"} \
         ${segments:+"$segments"} ${utt2spk:+"$utt2spk"} ${syllables:+"$syllables"}; do
  [ "$f" = "-" ] || [ -e "$f" ] || te_die "$f: no such file or directory"
done

"${te_python[@]}" -m termeval.bin.prepare_gold --format "$format" \
  --phones-txt "$phones_txt" --words-txt "$words_txt" --segments "$segments" \
  --strip-position "$strip_position" --words-tier "$words_tier" --phones-tier "$phones_tier" \
  --utt2spk "$utt2spk" --spk-rule "$spk_rule" --sil-label "$sil_label" \
  --silence-labels "$silence_labels" --fill-gaps "$fill_gaps" --drop-silence "$drop_silence" \
  --sort "$sort" --boundary-tolerance "$boundary_tolerance" --snap-words "$snap_words" \
  --time-decimals "$time_decimals" --strip-stress "$strip_stress" --syllables "$syllables" \
  --syllables-format "$syllables_format" --syllables-tier "$syllables_tier" -- "$@"

if $validate; then
  "$TERMEVAL_ROOT/utils/validate_alignment_dir.sh" --boundary-tolerance "$boundary_tolerance" --sil-label "$sil_label" "$data"
fi
echo "$0: prepared gold alignments in $data" >&2
