"""A gold data dir -> texts a text segmenter reads and is scored on (utils/export_text.sh).

Each utterance (a file of the data dir, or a span of a Kaldi segments file) becomes one line;
a word is the string of the phones whose midpoints lie in it (phones outside every word, i.e.
silences, are left out), or its word label (--words labels). Writes into <out>/:
  gold.txt       the words of each utterance, separated by spaces; a word's phones written
                 together (wordseg's gold) or separated by --unit-sep
  prepared.txt   the phones of each utterance separated by spaces (wordseg-prep's output)
  utt_phones     `<utt> <file> <phone> <onset> <offset> ...` per line of the texts: the
                 phones with their file-relative times, read back by termeval.textseg.totimes
Utterances without a word are left out (wordseg drops blank lines); each is listed on stderr
as a count.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Callable

import numpy as np

from termeval.core.datadir import load_gold
from termeval.core.errors import InputError
from termeval.segmentation.inputs import load_utterances
from termeval.core.textio import atomic_write, fast_fmt_times


@dataclass
class Utterance:
    id: str
    file: str
    phones: list[str]
    onset: list[float]
    offset: list[float]
    words: list[tuple[str, int, int]]     # (label, first phone, last phone + 1)


OUTPUTS = ("gold.txt", "prepared.txt", "utt_phones")


def utterances(data_dir: str, segments: str | None = None) -> tuple[list[Utterance], int]:
    """The utterances of the data dir with their in-word phones, and how many had no word."""
    gold = load_gold(data_dir)
    utts = load_utterances(gold, segments)
    ph, wd = gold.phones, gold.words
    out, empty = [], 0
    for u in range(len(utts)):
        f = int(utts.reco[u])
        pa, pb = int(ph.starts[f]), int(ph.starts[f + 1])
        wa, wb = int(wd.starts[f]), int(wd.starts[f + 1])
        mids = (ph.onset[pa:pb] + ph.offset[pa:pb]) / 2
        wmid = (wd.onset[wa:wb] + wd.offset[wa:wb]) / 2
        keep = np.nonzero((wmid >= utts.start[u]) & (wmid < utts.end[u]))[0] + wa
        phones, on, off, words = [], [], [], []
        for w in keep.tolist():
            i0 = pa + int(np.searchsorted(mids, wd.onset[w], side="left"))
            i1 = pa + int(np.searchsorted(mids, wd.offset[w], side="left"))
            if i1 <= i0:
                raise InputError(f"word '{wd.labels[wd.label[w]]}' at {wd.onset[w]} s of file "
                                 f"'{gold.files[f]}' covers no phone", os.path.join(data_dir, "words"))
            k = len(phones)
            for i in range(i0, i1):
                phones.append(ph.labels[ph.label[i]])
                on.append(float(ph.onset[i]))
                off.append(float(ph.offset[i]))
            words.append((wd.labels[wd.label[w]], k, len(phones)))
        if not words:
            empty += 1
            continue
        out.append(Utterance(utts.ids[u], gold.files[f], phones, on, off, words))
    return out, empty


def word_strings(u: Utterance, words: str = "phones", unit_sep: str = "") -> list[str]:
    if words == "labels":
        return [w for w, _, _ in u.words]
    return [unit_sep.join(u.phones[a:b]) for _, a, b in u.words]


OUTPUTS = ("gold.txt", "prepared.txt", "utt_phones")


def prepare(data_dir: str, words: str = "phones", unit_sep: str = "",
           segments: str | None = None) -> Callable[[str], tuple[int, int]]:
    """Read and check the data dir (InputError before anything is written); returns
    write(out_dir), which writes the OUTPUTS there and returns (utterances written, left out)
    (termeval.run.driver.run_task publishes them whole)."""
    utts, empty = utterances(data_dir, segments)
    if unit_sep and any(unit_sep in p for u in utts for p in u.phones):
        raise InputError(f"--unit-sep '{unit_sep}' occurs inside a phone label", os.path.join(data_dir, "phones"))

    def write(out_dir: str) -> tuple[int, int]:
        _write(out_dir, utts, words, unit_sep)
        return len(utts), empty
    return write


def _write(out_dir: str, utts: list[Utterance], words: str, unit_sep: str) -> None:
    with atomic_write(os.path.join(out_dir, "gold.txt")) as f:
        for u in utts:
            f.write(" ".join(word_strings(u, words, unit_sep)) + "\n")
    with atomic_write(os.path.join(out_dir, "prepared.txt")) as f:
        for u in utts:
            f.write(" ".join(u.phones) + "\n")
    with atomic_write(os.path.join(out_dir, "utt_phones")) as f:
        for u in utts:
            on, off = fast_fmt_times(np.asarray(u.onset)), fast_fmt_times(np.asarray(u.offset))
            f.write(" ".join([u.id, u.file] + [x for t in zip(u.phones, on, off) for x in t]) + "\n")


# ----------------------------------------------------------------------------- the step (termeval/steps)


def run(opts, run_task) -> dict:
    """export_text on its ExportTextOptions, written through the driver's `run_task`: {"utterances",
    "without_words", "gold", "prepared", "utt_phones"} (the three files' paths)."""
    write = prepare(opts.data_dir, opts.words, opts.unit_sep, opts.segments)
    n, empty = run_task("export_text", opts.out_dir, OUTPUTS, write, inputs=opts.paths("input"))
    return {"utterances": n, "without_words": empty,
            **{name.split(".")[0]: os.path.join(opts.out_dir, name) for name in OUTPUTS}}


def show(opts, res: dict) -> None:
    """The command line's closing line."""
    print(f"export_text: {res['utterances']} utterances in {opts.out_dir}/gold.txt, prepared.txt, utt_phones"
          + (f"; {res['without_words']} without a word left out" if res["without_words"] else ""), file=sys.stderr)
