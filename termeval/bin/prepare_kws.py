#!/usr/bin/env python3
"""Build a keyword-search data dir (ecf.xml, rttm, kwlist.xml, hitlist, utt.map, trials,
keywords.txt, categories, frame_length) from word alignments and a keyword list, for
steps/score_std.sh (both modes), Kaldi's local/kws/score.sh and F4DE's KWSEval.

Usage: python -m termeval.bin.prepare_kws [options] <data-dir> <kws-dir>
 e.g.: python -m termeval.bin.prepare_kws --keywords keywords.txt data/example data/example/kws

<data-dir>: a termeval data dir (`words`, `utt2spk`, `reco2dur`: steps/prepare_gold.sh), or a
  Kaldi data dir with a word CTM (`ctm` in it, or --ctm) plus segments/utt2dur/reco2dur/utt2spk.
Keywords: --keywords FILE (`kwid word ...` lines, or a plain list of single words which get ids
  KW-0001, ...) or --kwlist KWLIST/TLIST XML. Multi-word keywords occur where F4DE finds them:
  successive words of the same speaker at most 0.5 s apart. A keyword that never occurs is kept
  (F4DE and compute-atwv leave it out of the averages) and listed in a warning.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import Sequence

from termeval.run.cli import make_parser, run, seconds_up_to, str2bool
from termeval.core.errors import InputError


def get_parser() -> argparse.ArgumentParser:
    p = make_parser(__doc__)
    p.add_argument("data_dir")
    p.add_argument("kws_dir")
    p.add_argument("--keywords", default=None, help="`kwid word ...` lines or a plain word list")
    p.add_argument("--kwlist", default=None, help="KWLIST (or TLIST) XML")
    p.add_argument("--plain-list", type=str2bool, default=None,
                   help="true: every line of --keywords is a keyword text (ids generated); "
                        "default: a plain list iff every line is a single word")
    p.add_argument("--frame-shift", type=seconds_up_to(1.0), default=0.01, help="hitlist frame length (s), in (0, 1]")
    p.add_argument("--ecf-source-type", default="splitcts",
                   help="ECF source_type: bnews, cts, splitcts (F4DE counts it half), confmtg")
    p.add_argument("--language", default="english", help="language attribute of ecf.xml/kwlist.xml")
    p.add_argument("--ctm", default=None, help="word CTM of a Kaldi data dir (default <data-dir>/ctm)")
    p.add_argument("--words-txt", default=None, help="Kaldi words.txt: OOV category")
    p.add_argument("--lexicon", default=None, help="Kaldi lexicon.txt: Phones category")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = get_parser().parse_args(argv)
    from termeval.kws.alignment import read_alignment
    from termeval.std.lexicon import read_keyword_list, read_lexicon, read_words_txt
    from termeval.kws.prepare import build_files, publish_dir
    if (args.keywords is None) == (args.kwlist is None):
        raise InputError("give exactly one of --keywords FILE and --kwlist XML")
    src = args.keywords or args.kwlist
    if not os.path.isfile(src):
        raise InputError("not found", src)
    for opt in ("ctm", "words_txt", "lexicon"):
        v = getattr(args, opt)
        if v is not None and not os.path.isfile(v):
            raise InputError(f"--{opt.replace('_', '-')}: not found", v)
    terms = read_keyword_list(src, args.plain_list)
    vocab = read_words_txt(args.words_txt) if args.words_txt else None
    lexicon = read_lexicon(args.lexicon) if args.lexicon else None
    ali = read_alignment(args.data_dir, args.ctm)
    with tempfile.TemporaryDirectory(prefix="prepare_kws.") as work:
        files, summary = build_files(ali, terms, args.frame_shift, args.ecf_source_type, args.language,
                                     vocab, lexicon, work)
    publish_dir(files, args.kws_dir)
    prog = os.path.basename(sys.argv[0])
    if summary.no_occurrence:
        shown = " ".join(summary.no_occurrence[:10]) + (" ..." if len(summary.no_occurrence) > 10 else "")
        print(f"{prog}: warning: {len(summary.no_occurrence)} keyword(s) never occur: {shown} "
              "(kept; as in F4DE and compute-atwv they do not enter ATWV/MTWV unless "
              "--include-notarget-terms true)", file=sys.stderr)
    print(f"{prog}: {summary.n_keywords} keywords, {summary.n_occurrences} occurrences in "
          f"{summary.n_utterances} utterances, trials {summary.trials:g} s -> {args.kws_dir}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
