#!/usr/bin/env python3
"""Prepare gold phone/word alignments as a data dir (phones, words, utt2spk, spk2utt, reco2dur).

Usage: python -m termeval.bin.prepare_gold --format zr [options] <phn> <wrd> <data-dir>
       python -m termeval.bin.prepare_gold --format ctm [options] <phone-ctm> <word-ctm|-> <data-dir>
       python -m termeval.bin.prepare_gold --format textgrid [options] <textgrid-dir> <data-dir>
       python -m termeval.bin.prepare_gold --format discophon [options] <alignment-file> <data-dir>
 e.g.: python -m termeval.bin.prepare_gold --format zr downloads/zr17/mandarin.phn \\
           downloads/zr17/mandarin.wrd data/mandarin

Formats, label and silence rules, checks and speaker rules: see termeval/gold/ and
steps/prepare_gold.sh --help. Strict: the first problem is a one-line error naming file and
line (exit 1) and nothing is written; the data dir is built in a temp dir and moved into place
(termeval.run.driver.run_task). The options: termeval/gold/options.py (GoldOptions); the
preparation: termeval/gold/texts.py (prepare_texts).
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
from typing import Sequence

from termeval import gold
from termeval.gold.options import GoldOptions
from termeval.run import driver
from termeval.core.warn import warn
from termeval.run.cli import options_of, parser_for, run


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
    """The options of this step (its --help): GoldOptions (the inputs and the data dir its last field)."""
    p = parser_for(GoldOptions, __doc__)
    p._option_string_actions["--format"].required = True
    return p


def prepare_main(argv: Sequence[str] | None = None) -> int:
    p = get_parser()
    a = options_of(p, p.parse_args(argv))
    texts, used, line = gold.prepare_texts(a)
    gold.check_data_dir_outputs(list(texts), a.data_dir, used)
    driver.run_task("prepare_gold", a.data_dir, list(texts), lambda tmp: gold.write_data_dir(texts, tmp),
                    inputs=used)
    if "syllables" not in texts and os.path.isfile(os.path.join(a.data_dir, "syllables")):
        warn("prepare_gold", f"{a.data_dir}/syllables is left from an earlier preparation and was not replaced "
                             "(no --syllables): remove it, or prepare with --syllables, before --level syllable")
    print(f"{os.path.basename(sys.argv[0])}: {a.data_dir}: {line}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
