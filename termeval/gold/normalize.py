"""Label normalisation, interval checks (values, order, overlap, word edges) and silence
filling of the interval tables."""
from __future__ import annotations

import math
import re

import numpy as np

from termeval.gold.intervals import Intervals, Options, dict_codes, factorize, relabel
from termeval.core.intervals import nearest_edges
from termeval.core.textio import fmt_time

_STRESS_RE = re.compile(r"[0-9]$")


def normalize_phone_labels(iv: Intervals, opts: Options) -> Intervals:
    sil = set(opts.silence_labels) | {""}

    def fn(lab: str) -> str:
        if lab in sil:
            return opts.sil_label
        if opts.strip_stress and len(lab) > 1:
            stripped = _STRESS_RE.sub("", lab)
            if stripped in sil:
                return opts.sil_label
            return stripped
        return lab

    iv.labels, iv.label = relabel(iv.labels, iv.label, fn)
    return iv


def drop_silent_words(iv: Intervals, opts: Options) -> Intervals:
    sil = set(opts.silence_labels) | {"", opts.sil_label}
    drop = np.array([lab in sil for lab in iv.labels], dtype=bool)
    if len(iv) and drop.any():
        return iv.take(np.flatnonzero(~drop[iv.label]))
    return iv


def check_values(iv: Intervals, what: str) -> None:
    """Negative, zero-length and reversed intervals (NaN was rejected when parsing)."""
    if not len(iv):
        return
    bad = (iv.onset < 0) | (iv.offset <= iv.onset) | ~np.isfinite(iv.onset) | ~np.isfinite(iv.offset)
    if bad.any():
        i = int(np.argmax(bad))
        a, b = iv.onset[i], iv.offset[i]
        if not (math.isfinite(a) and math.isfinite(b)):
            msg = "time is not a finite number"
        elif a < 0:
            msg = f"negative onset {fmt_time(a)}"
        elif a == b:
            msg = f"zero-length {what} interval at {fmt_time(a)}"
        else:
            msg = f"reversed {what} interval: offset {fmt_time(b)} before onset {fmt_time(a)}"
        raise iv.error(i, msg)


def order_intervals(iv: Intervals, sort: bool, what: str) -> Intervals:
    """Group by file (C order of ids) and check (or, with sort, impose) time order and no
    overlap within each file."""
    if not len(iv):
        return iv
    # file table is sorted (factorize), so codes order like the ids
    if sort:
        idx = np.lexsort((iv.offset, iv.onset, iv.file))
    else:
        idx = np.argsort(iv.file, kind="stable")
        f, on = iv.file[idx], iv.onset[idx]
        bad = (f[1:] == f[:-1]) & (on[1:] < on[:-1])
        if bad.any():
            k = int(np.argmax(bad))
            i, j = int(idx[k + 1]), int(idx[k])
            raise iv.error(i, f"{what} interval {fmt_time(iv.onset[i])}..{fmt_time(iv.offset[i])} of "
                              f"'{iv.file_name(i)}' starts before the previous one ({iv.where(j)}, onset "
                              f"{fmt_time(iv.onset[j])}): intervals must be in time order within a file "
                              "(or use --sort true)")
    out = iv.take(idx)
    same = out.file[1:] == out.file[:-1]
    ov = same & (out.onset[1:] < out.offset[:-1])
    if ov.any():
        k = int(np.argmax(ov))
        raise out.error(k + 1, f"{what} interval {fmt_time(out.onset[k + 1])}..{fmt_time(out.offset[k + 1])} "
                               f"of '{out.file_name(k + 1)}' overlaps {fmt_time(out.onset[k])}.."
                               f"{fmt_time(out.offset[k])} ({out.where(k)})")
    return out


def unify_files(phones: Intervals, words: Intervals) -> tuple[Intervals, Intervals]:
    """Re-code both tiers over one sorted file table (the phones' files); words in a file with
    no phones are an error."""
    table = phones.files
    index = {f: i for i, f in enumerate(table)}
    remap = np.array([index.get(f, -1) for f in words.files], dtype=np.int64)
    wf = remap[words.file] if len(words) else words.file
    if len(words) and np.any(wf < 0):
        i = int(np.argmax(wf < 0))
        raise words.error(i, f"word in file '{words.file_name(i)}', which has no phones")
    return phones, words.with_files(table, wf)


def sort_files_table(iv: Intervals) -> Intervals:
    """Make the file table sorted (C order) so that codes order like the ids."""
    order = sorted(range(len(iv.files)), key=iv.files.__getitem__)
    if order == list(range(len(iv.files))):
        return iv
    new_index = np.empty(len(order), dtype=np.int64)
    new_index[np.array(order, dtype=np.int64)] = np.arange(len(order))
    tab = [iv.files[i] for i in order]
    merged, remap = dict_codes(tab)  # merge duplicates (e.g. utterances mapped to one reco)
    if len(merged) != len(tab):
        return iv.with_files(*factorize([iv.files[c] for c in iv.file.tolist()]))
    return iv.with_files(tab, new_index[iv.file])


def phone_edges(phones: Intervals) -> tuple[np.ndarray, np.ndarray]:
    """(file, time) of every phone onset and offset of sorted, non-overlapping phones: the
    interleaved sequence on0 off0 on1 off1 ... is already sorted within each file."""
    f = np.repeat(phones.file, 2)
    t = np.column_stack((phones.onset, phones.offset)).ravel()
    keep = np.concatenate(([True], (f[1:] != f[:-1]) | (t[1:] != t[:-1])))
    return f[keep], t[keep]


def check_word_edges(phones: Intervals, words: Intervals, opts: Options) -> Intervals:
    """Every word edge must be within the tolerance of a phone edge of its file."""
    if not len(words):
        return words
    ef, et = phone_edges(phones)
    nearest = {}
    first_bad = []
    for name in ("onset", "offset"):
        qt = getattr(words, name)
        near = nearest_edges(ef, et, words.file, qt, len(phones.files))
        bad = ~(np.abs(near - qt) <= opts.boundary_tolerance)  # NaN (no edge) is bad too
        nearest[name] = near
        if bad.any():
            first_bad.append((int(np.argmax(bad)), name == "offset", name))
    if first_bad:  # report the first word (in time order) with a bad edge
        i, _, name = min(first_bad)
        qt, near = getattr(words, name), nearest[name]
        where = "no phone edge in its file" if np.isnan(near[i]) else \
            f"the nearest phone edge is {fmt_time(near[i])}"
        raise words.error(i, f"word '{words.label_name(i)}' {name} {fmt_time(qt[i])} in "
                             f"'{words.file_name(i)}' is not a phone edge ({where}; tolerance "
                             f"{opts.boundary_tolerance:g} s)")
    if opts.snap_words:
        words.onset, words.offset = nearest["onset"].copy(), nearest["offset"].copy()
        check_values(words, "word")
    return words


def fill_gaps(phones: Intervals, sil_label: str) -> Intervals:
    """Insert a silence interval into every gap between consecutive phones of a file and
    before a first phone that starts after 0 (phones are sorted and non-overlapping)."""
    n = len(phones)
    if n == 0:
        return phones
    f, on, off = phones.file, phones.onset, phones.offset
    first = np.concatenate(([True], f[1:] != f[:-1]))
    lead = first & (on > 0)
    inner = np.concatenate(([False], (~first[1:]) & (on[1:] > off[:-1])))
    gap = lead | inner
    if not gap.any():
        return phones
    pos = np.flatnonzero(gap)
    g_on = np.where(lead[pos], 0.0, off[np.maximum(pos - 1, 0)])
    labels = list(phones.labels)
    if sil_label in labels:
        sil = labels.index(sil_label)
    else:
        labels.append(sil_label)
        sil = len(labels) - 1
    return Intervals(phones.files, np.insert(f, pos, f[pos]), np.insert(on, pos, g_on),
                     np.insert(off, pos, on[pos]), labels, np.insert(phones.label, pos, sil),
                     np.insert(phones.line, pos, 0), np.insert(phones.src, pos, -1), phones.paths)
