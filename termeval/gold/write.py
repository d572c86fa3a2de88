"""The whole preparation (`prepare`) and the atomic writing of the data dir."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence

import numpy as np

from termeval.core import publish
from termeval.core.errors import InputError
from termeval.gold.ctm import derive_words
from termeval.gold.intervals import Intervals, Options, factorize
from termeval.gold.normalize import check_values, check_word_edges, drop_silent_words, fill_gaps, \
    normalize_phone_labels, order_intervals, sort_files_table, unify_files
from termeval.gold.speakers import assign_speakers
from termeval.gold.zr import read_zr
from termeval.core.textio import fmt_time


@dataclass
class PreparedGold:
    files: list[str]
    phones: Intervals
    words: Intervals
    speakers: list[str]
    duration: np.ndarray
    notes: list[str] = field(default_factory=list)


def prepare(phones: Intervals, words: Intervals | None, opts: Options,
            speakers_known: dict[str, str] | None = None, utt2spk: str | None = None,
            spk_rule: str = "auto", words_required: bool = True) -> PreparedGold:
    """Validate, normalise and fill; returns the sorted tables of the data dir. With
    words=None, words are derived from the position suffixes of the phones (CTM); with
    words_required=False an empty word tier is kept (discophon's phone-only alignments)."""
    if not len(phones):
        raise InputError("no phone intervals", phones.paths[0] if phones.paths else None)
    phones = normalize_phone_labels(phones, opts)
    check_values(phones, "phone")
    phones = sort_files_table(phones)
    if words is None:  # before silence is dropped: SIL phones end words in progress
        words = derive_words(order_intervals(phones, opts.sort, "phone"))
    words = drop_silent_words(words, opts)
    check_values(words, "word")
    if opts.drop_silence:
        sil = phones.labels.index(opts.sil_label) if opts.sil_label in phones.labels else -1
        phones = phones.take(np.flatnonzero(phones.label != sil))
        if not len(phones):
            raise InputError("no phone intervals besides silence", phones.paths[0] if phones.paths else None)
        phones = phones.with_files(*factorize([phones.files[c] for c in phones.file.tolist()]))
    phones = order_intervals(phones, opts.sort, "phone")
    phones, words = unify_files(phones, words)
    words = order_intervals(words, opts.sort, "word")
    if not len(words) and words_required:
        raise InputError("no word intervals (besides silence)", words.paths[0] if words.paths else None)
    words = check_word_edges(phones, words, opts)
    if opts.snap_words:
        words = order_intervals(words, False, "word")
    if opts.fill_gaps:
        phones = fill_gaps(phones, opts.sil_label)
    last = np.flatnonzero(np.concatenate((phones.file[1:] != phones.file[:-1], [True])))
    duration = phones.offset[last]
    speakers = assign_speakers(phones.files, utt2spk, speakers_known, spk_rule)
    return PreparedGold(phones.files, phones, words, speakers, duration)


def format_times(values: np.ndarray) -> np.ndarray:
    """fmt_time of many doubles, as an object array. repr() is already the shortest round-trip
    text except for integers ('25.0' -> '25') and exponent forms, which go through fmt_time."""
    out = np.array(list(map(repr, values.tolist())), dtype=object)
    a = np.abs(values)
    odd = np.flatnonzero((values == np.floor(values)) | ((a < 1e-4) & (a > 0)) | (a >= 1e16))
    for j in odd.tolist():
        out[j] = fmt_time(values[j])
    return out


def format_tier(iv: Intervals, chunk: int = 200_000) -> Iterator[str]:
    """The 4-column lines of a sorted tier, `chunk` lines at a time (bounded memory). Offsets
    equal to the next onset of the same file (most of them) reuse its text."""
    n = len(iv)
    files_tab = np.array(iv.files, dtype=object)
    labels_tab = np.array(iv.labels, dtype=object)
    for a in range(0, n, chunk):
        b = min(a + chunk, n)
        on = format_times(iv.onset[a:b])
        off = np.empty(b - a, dtype=object)
        nxt = iv.onset[a + 1:b + 1] if b < n else np.append(iv.onset[a + 1:b], np.nan)
        nfile = iv.file[a + 1:b + 1] if b < n else np.append(iv.file[a + 1:b], -1)
        shared = (nfile == iv.file[a:b]) & (iv.offset[a:b] == nxt)
        shared[-1] = False  # its text is in the next chunk
        off[shared] = on[1:][shared[:-1]]
        rest = np.flatnonzero(~shared)
        off[rest] = format_times(iv.offset[a:b][rest])
        yield "\n".join(map(" ".join, zip(files_tab[iv.file[a:b]], on, off, labels_tab[iv.label[a:b]]))) + "\n"


def data_dir_texts(prep: PreparedGold) -> dict[str, Iterable[str]]:
    """The content of each file of the data dir, as text chunks."""
    spk2utt: dict[str, list[str]] = {}
    for f, s in zip(prep.files, prep.speakers):
        spk2utt.setdefault(s, []).append(f)
    return {
        "phones": format_tier(prep.phones),
        "words": format_tier(prep.words),
        "utt2spk": [f"{f} {s}\n" for f, s in zip(prep.files, prep.speakers)],
        "spk2utt": [f"{s} {' '.join(sorted(us))}\n" for s, us in sorted(spk2utt.items())],
        "reco2dur": [f"{f} {t}\n" for f, t in zip(prep.files, format_times(prep.duration).tolist())],
    }


def same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_data_dir_outputs(names: Sequence[str], data_dir: str, inputs: Sequence[str] = ()) -> None:
    """Refuse a data dir that is a file, an output file that is an input, a data dir that is an
    input directory (before anything is written)."""
    if os.path.exists(data_dir) and not os.path.isdir(data_dir):
        raise InputError("output data dir exists and is not a directory", data_dir)
    for name in names:
        target = os.path.join(data_dir, name)
        for inp in inputs:
            if inp and same_file(target, inp):
                raise InputError(f"output file would overwrite the input {inp}", target)
            if inp and os.path.isdir(inp) and same_file(data_dir, inp):
                raise InputError(f"output data dir is the input directory {inp}; choose another", data_dir)


def write_data_dir(texts: dict[str, Iterable[str]], data_dir: str, inputs: Sequence[str] = ()) -> None:
    """Write all files of the data dir whole (termeval.core.publish): a new dir is renamed into
    place in one step; in an existing dir all files are replaced or none. Refuses to overwrite
    an input file."""
    check_data_dir_outputs(list(texts), data_dir, inputs)

    def fill(paths: dict[str, str]) -> None:
        for name, chunks in texts.items():
            with open(paths[name], "w", encoding="utf-8", newline="\n") as f:
                for text in chunks:
                    f.write(text)

    if not os.path.isdir(data_dir):               # a new dir: renamed into place whole
        with publish.output_dir(data_dir) as tmp:
            fill({name: os.path.join(tmp, name) for name in texts})
        return
    with publish.files(data_dir, list(texts)) as tmps:   # an existing one: all files or none
        fill(tmps)


def prepare_zr(phn: str, wrd: str, data_dir: str, opts: Options = Options(), spk_rule: str = "auto",
               utt2spk: str | None = None) -> PreparedGold:
    """`steps/prepare_gold.sh --format zr` as one call: read, check, prepare and write the data dir."""
    prep = prepare(read_zr(phn), read_zr(wrd), opts, None, utt2spk, spk_rule)
    write_data_dir(data_dir_texts(prep), data_dir, [phn, wrd] + ([utt2spk] if utt2spk else []))
    return prep


def summary(prep: PreparedGold, opts: Options) -> str:
    sil = prep.phones.labels.index(opts.sil_label) if opts.sil_label in prep.phones.labels else -1
    nsil = int(np.count_nonzero(prep.phones.label == sil))
    return (f"{len(prep.files)} files, {len(set(prep.speakers))} speakers, {len(prep.phones)} phones "
            f"({nsil} {opts.sil_label}), {len(prep.words)} words, "
            f"{float(prep.duration.sum()) / 3600:.2f} h")
