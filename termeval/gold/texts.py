"""The gold preparation of steps/prepare_gold.sh as one library call on its options: read,
check and prepare the inputs into the texts of a data dir, nothing written (the step writes
them, termeval.prepare_gold keeps them in memory)."""
from __future__ import annotations

import os

from termeval.core.errors import InputError
from termeval.core.kaldi_files import read_segments, read_symbol_table
from termeval.gold.ctm import read_ctm
from termeval.gold.discophon import no_words, read_discophon
from termeval.gold.intervals import Options
from termeval.gold.options import GoldOptions
from termeval.gold.syllables import prepare_syllables, read_syllables
from termeval.gold.textgrid import read_textgrid_dir
from termeval.gold.write import data_dir_texts, format_tier, prepare, summary
from termeval.gold.zr import read_zr


def preparation_options(a: GoldOptions) -> Options:
    """The label, silence and time rules of the options (termeval.gold.Options)."""
    return Options(sil_label=a.sil_label, silence_labels=tuple(a.silence_labels.split()),
                   fill_gaps=a.fill_gaps, drop_silence=a.drop_silence, sort=a.sort,
                   boundary_tolerance=a.boundary_tolerance, snap_words=a.snap_words,
                   time_decimals=a.time_decimals, strip_stress=a.strip_stress,
                   strip_position=a.strip_position)


def check_inputs(a: GoldOptions) -> None:
    """Every input exists; the options naming files apply to the format."""
    for path in a.sources + [a.phones_txt, a.words_txt, a.segments, a.utt2spk, a.syllables]:
        if path and path != "-" and not os.path.exists(path):
            raise InputError("no such file or directory", path)
    for opt, val, formats in (("--phones-txt", a.phones_txt, ("ctm",)), ("--words-txt", a.words_txt, ("ctm",)),
                              ("--segments", a.segments, ("ctm", "textgrid"))):
        if val and a.format not in formats:
            raise InputError(f"{opt} applies to --format {' and '.join(formats)} only, not to --format "
                             f"{a.format} (its labels and times are used as they are)")


def prepare_texts(a: GoldOptions) -> tuple[dict, list[str], str]:
    """Read, check and prepare the inputs of the options `a` (validated: a.inputs ends with the
    data dir, not read): (the data dir's texts, the input files to protect, the summary line).
    Nothing is written."""
    opts = preparation_options(a)
    check_inputs(a)
    inputs = a.sources
    known = None
    if a.format == "zr":
        phones, words = read_zr(inputs[0]), read_zr(inputs[1])
    elif a.format == "ctm":
        phones_txt = read_symbol_table(a.phones_txt) if a.phones_txt else None
        words_txt = read_symbol_table(a.words_txt) if a.words_txt else None
        segments = read_segments(a.segments) if a.segments else None
        phones = read_ctm(inputs[0], phones_txt, a.phones_txt, segments, a.segments, opts, "phone")
        words = None if inputs[1] == "-" else \
            read_ctm(inputs[1], words_txt, a.words_txt, segments, a.segments, opts, "word")
    elif a.format == "discophon":      # phones only: the data dir has no word
        phones = read_discophon(inputs[0])
        words = no_words(phones)
    else:
        segments = read_segments(a.segments) if a.segments else None
        phones, words, known = read_textgrid_dir(inputs[0], opts, a.words_tier, a.phones_tier,
                                                 segments, a.segments)
    prep = prepare(phones, words, opts, known, a.utt2spk or None, a.spk_rule, words_required=a.format != "discophon")
    extra = [x for x in (a.phones_txt, a.words_txt, a.segments, a.utt2spk, a.syllables) if x]
    texts, line = data_dir_texts(prep), summary(prep, opts)
    if a.syllables:
        syl = prepare_syllables(read_syllables(a.syllables, a.syllables_format, a.syllables_tier, opts),
                                prep.files, prep.duration, opts)
        texts["syllables"] = format_tier(syl)
        line = line.replace(" words,", f" words, {len(syl)} syllables,", 1)
    return texts, [x for x in inputs if x != "-"] + extra, line
