#!/usr/bin/env bash
# Build a keyword-search data dir from word alignments and a keyword list: ecf.xml, rttm
# (LEXEME lines), kwlist.xml, Kaldi's hitlist (kwid utt start-frame end-frame), utt.map, trials,
# keywords.txt, categories, frame_length (+ segments). steps/score_std.sh scores it in both modes
# (default F4DE-like and --compat kaldi), Kaldi's local/kws/score.sh and F4DE's KWSEval read it.
#
# Usage: steps/prepare_kws.sh [options] <data-dir> <kws-dir>
#  e.g.: steps/prepare_kws.sh --keywords keywords.txt data/example data/example/kws
#        steps/prepare_kws.sh --kwlist kwlist.xml --ctm exp/tri3b_ali_dev/ctm data/dev data/dev/kws
#
# <data-dir>: a termeval data dir (words, utt2spk, reco2dur; steps/prepare_gold.sh turns Kaldi
#   CTMs, MFA TextGrids and ZeroSpeech files into one), or a Kaldi data dir with a word CTM
#   (<utt|reco> <chan> <start> <dur> <word>) as <data-dir>/ctm or --ctm, plus segments
#   (optional), utt2dur or reco2dur, utt2spk.
# Multi-word keywords occur where F4DE finds them: successive words of one speaker at most
# 0.5 s apart (KWSEval -F). A keyword that never occurs is kept and listed in a warning.
# Refused (file and line): a keyword with an empty or missing kwtext, a kwid empty or with
# whitespace, control characters or noncharacters (U+0001, U+FFFE) in a keyword, a list without
# keywords, an utterance (segments) ending more than 0.01 s after its recording (reco2dur).
#
# Options (default):
#   --keywords FILE           kwid word [word ...] lines, or a plain list of single words (ids KW-0001...)
#   --kwlist XML              a KWLIST (or TLIST) instead of --keywords
#   --plain-list ""           true: every --keywords line is a keyword text (ids generated)
#   --frame-shift 0.01        seconds per hitlist frame, in (0, 1]
#   --ecf-source-type splitcts   ECF source_type (bnews, cts, splitcts, confmtg); F4DE counts
#                             splitcts excerpts half, and trials is written to match
#   --language english        language attribute of ecf.xml and kwlist.xml
#   --ctm ""                  word CTM of a Kaldi data dir (default <data-dir>/ctm)
#   --words-txt ""            Kaldi words.txt: OOV=0|1 category
#   --lexicon ""              Kaldi lexicon.txt: Phones=NNN category (first pronunciation)

. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../utils/termeval_lib.sh" || exit 1

# Begin configuration section.
keywords=
kwlist=
plain_list=
frame_shift=0.01
ecf_source_type=splitcts
language=english
ctm=
words_txt=
lexicon=
# End configuration section.

echo "$0 $*" >&2
. "$TERMEVAL_ROOT/utils/parse_options.sh"

[ $# -eq 2 ] || te_usage
set -euo pipefail

data=$1
kws=$2
te_check_dir "data dir" "$data"
opts=(--frame-shift "$frame_shift" --ecf-source-type "$ecf_source_type" --language "$language")
[ -n "$keywords" ] && opts+=(--keywords "$keywords")
[ -n "$kwlist" ] && opts+=(--kwlist "$kwlist")
[ -n "$plain_list" ] && opts+=(--plain-list "$plain_list")
[ -n "$ctm" ] && opts+=(--ctm "$ctm")
[ -n "$words_txt" ] && opts+=(--words-txt "$words_txt")
[ -n "$lexicon" ] && opts+=(--lexicon "$lexicon")
"${te_python[@]}" -m termeval.bin.prepare_kws "${opts[@]}" "$data" "$kws"
