#!/usr/bin/env python3
"""Prepare gold phone/word alignments as a data dir (phones, words, utt2spk, spk2utt, reco2dur).

Usage: python -m termeval.bin.prepare_gold --format zr [options] <phn> <wrd> <data-dir>
       python -m termeval.bin.prepare_gold --format ctm [options] <phone-ctm> <word-ctm|-> <data-dir>
       python -m termeval.bin.prepare_gold --format textgrid [options] <textgrid-dir> <data-dir>
 e.g.: python -m termeval.bin.prepare_gold --format zr downloads/zr17/mandarin.phn \\
           downloads/zr17/mandarin.wrd data/mandarin

Formats, label and silence rules, checks and speaker rules: see termeval/gold/ and
steps/prepare_gold.sh --help. Strict: the first problem is a one-line error naming file and
line (exit 1) and nothing is written; the data dir is built in a temp dir and moved into place.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
from typing import Sequence

from termeval.run.cli import int_range, make_parser, nonneg_float, run, str2bool
from termeval.core.errors import InputError
from termeval import gold


def main(argv: Sequence[str] | None = None) -> int:
    # millions of short strings and tuples, no cycles: the cyclic GC would only cost time
    enabled = gc.isenabled()
    gc.disable()
    try:
        return prepare_main(argv)
    finally:
        if enabled:
            gc.enable()


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help)."""
    p = make_parser(__doc__)
    p.add_argument("--format", choices=("zr", "ctm", "textgrid"), required=True)
    p.add_argument("--phones-txt", default="", help="ctm: phones.txt mapping integer phone ids")
    p.add_argument("--words-txt", default="", help="ctm: words.txt mapping integer word ids")
    p.add_argument("--segments", default="",
                   help="ctm, textgrid: Kaldi segments (CTM keys / TextGrid names are utterances)")
    p.add_argument("--strip-position", type=str2bool, default=True,
                   help="ctm: strip _B/_I/_E/_S from phones (default true)")
    p.add_argument("--words-tier", default="words", help="textgrid: word tier name (default words)")
    p.add_argument("--phones-tier", default="phones", help="textgrid: phone tier name (default phones)")
    p.add_argument("--utt2spk", default="", help="'<file> <speaker>' map (overrides --spk-rule)")
    p.add_argument("--spk-rule", default="auto", help="auto|whole|prefix:N|field:SEP:K (default auto)")
    p.add_argument("--sil-label", default="SIL", help="label of silence phones (default SIL)")
    p.add_argument("--silence-labels", default=" ".join(gold.DEFAULT_SILENCE_LABELS),
                   help="phone labels meaning silence (default '%(default)s'; empty marks always)")
    p.add_argument("--fill-gaps", type=str2bool, default=True, help="label gaps as silence (default true)")
    p.add_argument("--drop-silence", type=str2bool, default=False,
                   help="remove input silence phones first (default false)")
    p.add_argument("--sort", type=str2bool, default=False,
                   help="sort intervals instead of rejecting out-of-order ones (default false)")
    p.add_argument("--boundary-tolerance", type=nonneg_float, default=0.001,
                   help="max distance (s) of a word edge from a phone edge (default 0.001)")
    p.add_argument("--snap-words", type=str2bool, default=False,
                   help="move word edges onto the nearest phone edge (default false)")
    p.add_argument("--time-decimals", type=int_range(0, 9), default=6,
                   help="ctm/textgrid: round times to this many decimals (default 6)")
    p.add_argument("--strip-stress", type=str2bool, default=False,
                   help="strip a final stress digit from phones (AH1 -> AH; default false)")
    p.add_argument("inputs", nargs="+")
    return p


def prepare_main(argv: Sequence[str] | None = None) -> int:
    p = get_parser()
    a = p.parse_args(argv)
    texts, used, line = prepare_texts(p, a)
    gold.write_data_dir(texts, a.inputs[-1], used)
    print(f"{os.path.basename(sys.argv[0])}: {a.inputs[-1]}: {line}", file=sys.stderr)


def prepare_texts(p: argparse.ArgumentParser, a: argparse.Namespace) -> tuple[dict, list[str], str]:
    """Read, check and prepare the inputs of the parsed options `a` (the last input is the data
    dir, not read): (the data dir's texts, the input files to protect, the summary line).
    Nothing is written (termeval.api prepares gold in memory with it)."""
    nin = {"zr": 3, "ctm": 3, "textgrid": 2}[a.format]
    if len(a.inputs) != nin:
        p.error(f"--format {a.format} takes {nin} arguments, got {len(a.inputs)}")
    if not a.sil_label or any(c.isspace() for c in a.sil_label):
        p.error("--sil-label must be one non-empty token")
    opts = gold.Options(sil_label=a.sil_label, silence_labels=tuple(a.silence_labels.split()),
                        fill_gaps=a.fill_gaps, drop_silence=a.drop_silence, sort=a.sort,
                        boundary_tolerance=a.boundary_tolerance, snap_words=a.snap_words,
                        time_decimals=a.time_decimals, strip_stress=a.strip_stress,
                        strip_position=a.strip_position)
    inputs = a.inputs[:-1]
    for path in inputs + [a.phones_txt, a.words_txt, a.segments, a.utt2spk]:
        if path and path != "-" and not os.path.exists(path):
            raise InputError("no such file or directory", path)
    for opt, val, formats in (("--phones-txt", a.phones_txt, ("ctm",)), ("--words-txt", a.words_txt, ("ctm",)),
                              ("--segments", a.segments, ("ctm", "textgrid"))):
        if val and a.format not in formats:
            raise InputError(f"{opt} applies to --format {' and '.join(formats)} only, not to --format "
                             f"{a.format} (its labels and times are used as they are)")
    known = None
    if a.format == "zr":
        phones, words = gold.read_zr(inputs[0]), gold.read_zr(inputs[1])
    elif a.format == "ctm":
        phones_txt = gold.read_symbol_table(a.phones_txt) if a.phones_txt else None
        words_txt = gold.read_symbol_table(a.words_txt) if a.words_txt else None
        segments = gold.read_segments(a.segments) if a.segments else None
        phones = gold.read_ctm(inputs[0], phones_txt, a.phones_txt, segments, a.segments, opts, "phone")
        words = None if inputs[1] == "-" else \
            gold.read_ctm(inputs[1], words_txt, a.words_txt, segments, a.segments, opts, "word")
    else:
        segments = gold.read_segments(a.segments) if a.segments else None
        phones, words, known = gold.read_textgrid_dir(inputs[0], opts, a.words_tier, a.phones_tier,
                                                      segments, a.segments)
    prep = gold.prepare(phones, words, opts, known, a.utt2spk or None, a.spk_rule)
    extra = [x for x in (a.phones_txt, a.words_txt, a.segments, a.utt2spk) if x]
    return gold.data_dir_texts(prep), [x for x in inputs if x != "-"] + extra, gold.summary(prep, opts)

if __name__ == "__main__":
    run(main)
