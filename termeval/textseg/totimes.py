"""A segmented text -> times, through the gold phones of each utterance (the utt_phones file
utils/export_text.sh wrote), so a text segmenter is scored by steps/score_segmentation.sh and
by the term-discovery benchmarks (steps/score_tde.sh), as Ludusan et al. (2014) proposed.

Line i of the segmented text is utterance i of utt_phones; its words must spell that
utterance's phones in order (written together, or separated by --unit-sep). A word spans from
the onset of its first phone to the offset of its last. Words are separated by spaces or tabs:
any other control character or Unicode separator in the segmented text (U+001F, U+0085, ...)
is refused naming the line, unless --unit-sep holds it; phone times that are not finite
numbers with 0 <= onset <= offset are refused naming utt_phones and the line. Writes
  <out>/intervals  `<file> <onset> <offset> <word>` (score_segmentation.sh's interval input)
  <out>/classes    a ZeroSpeech class file, one class per distinct word (score_tde.sh's input)
"""
from __future__ import annotations

import os
import sys
import unicodedata
from typing import Callable

from termeval.core.errors import InputError
from termeval.core.textio import atomic_write, iter_lines, parse_float


OUTPUTS = ("intervals", "classes")


def read_utt_phones(path: str) -> list[tuple[str, str, list[str], list[str], list[str]]]:
    out = []
    for n, line in iter_lines(path):
        f = line.split()
        if not f:
            continue
        if len(f) < 5 or (len(f) - 2) % 3:
            raise InputError("expected `<utt> <file> (<phone> <onset> <offset>)...`", path, n)
        for on, off in zip(f[3::3], f[4::3]):       # kept as text (exact), checked as numbers
            a, b = parse_float(on, path, n, "phone onset"), parse_float(off, path, n, "phone offset")
            if not 0 <= a <= b:
                raise InputError(f"phone interval {on}..{off}: expected 0 <= onset <= offset", path, n)
        out.append((f[0], f[1], f[2::3], f[3::3], f[4::3]))
    return out


def check_separators(line: str, path: str, n: int, unit_sep: str | None) -> None:
    """Words are separated by spaces or tabs only: any other control character or Unicode
    separator (U+001F, U+001C, U+0085, U+2028, ...; str.split() would take many of them as a
    word boundary) is refused, unless it is in --unit-sep."""
    for c in line:
        if c in " \t" or (unit_sep and c in unit_sep):
            continue
        if c.isspace() or unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp"):
            raise InputError(f"holds the character U+{ord(c):04X} (a control character or separator): "
                             "words are separated by spaces or tabs only", path, n)


def map_words(words: list[str], phones: list[str], path: str, line: int,
              units: list[list[str]] | None = None) -> list[tuple[int, int]]:
    """(first phone, last phone + 1) of each word; an error names the word that does not fit."""
    spans, k = [], 0
    for j, w in enumerate(words):
        a = k
        if units is not None:
            for unit in units[j]:
                if k >= len(phones) or phones[k] != unit:
                    where = f"phone {k + 1} is '{phones[k]}'" if k < len(phones) else "no phone is left"
                    raise InputError(f"unknown unit '{unit}' in word '{w}': {where} in the gold", path, line)
                k += 1
        else:
            acc = ""
            while len(acc) < len(w) and k < len(phones):
                acc += phones[k]
                k += 1
            if acc != w:
                raise InputError(f"word '{w}' does not spell the next gold phones "
                                 f"'{' '.join(phones[a:k]) or 'none left'}'", path, line)
        spans.append((a, k))
    if k != len(phones):
        raise InputError(f"the words end before the gold phones do ({len(phones) - k} phones left: "
                         f"{' '.join(phones[k:k + 5])}...)", path, line)
    return spans


OUTPUTS = ("intervals", "classes")


def prepare(utt_phones: str, segmented: str, unit_sep: str | None = None) -> Callable[[str], int]:
    """Read and map the segmented text (InputError before anything is written); returns
    write(out_dir), which writes the OUTPUTS there and returns the number of words
    (termeval.run.driver.run_task publishes them whole)."""
    utts = read_utt_phones(utt_phones)
    lines = []
    for n, ln in iter_lines(segmented):
        check_separators(ln, segmented, n, unit_sep)
        if ln.strip():
            lines.append((n, ln.strip()))
    if len(lines) != len(utts):
        raise InputError(f"{len(lines)} utterances (non-blank lines), {utt_phones} has {len(utts)}", segmented)
    rows, by_word = [], {}
    for (n, line), (_, file, phones, on, off) in zip(lines, utts):
        toks = line.split()
        units = None
        if unit_sep:
            units = [[u for u in t.split(unit_sep) if u] for t in toks]
            toks = ["".join(u) for u in units]
        for w, (a, b) in zip(toks, map_words(toks, phones, segmented, n, units)):
            rows.append((file, on[a], off[b - 1], w))
            by_word.setdefault(w, []).append((file, on[a], off[b - 1]))

    def write(out_dir: str) -> int:
        _write(out_dir, rows, by_word)
        return len(rows)
    return write


def _write(out_dir: str, rows: list[tuple[str, str, str, str]], by_word: dict[str, list]) -> None:
    with atomic_write(os.path.join(out_dir, "intervals")) as f:
        f.writelines(f"{r[0]} {r[1]} {r[2]} {r[3]}\n" for r in rows)
    with atomic_write(os.path.join(out_dir, "classes")) as f:
        for k, w in enumerate(sorted(by_word), 1):
            f.write(f"Class {k} {w}\n")
            f.writelines(f"{fl} {a} {b}\n" for fl, a, b in by_word[w])
            f.write("\n")


# ----------------------------------------------------------------------------- the step (termeval/steps)


def run(opts, run_task) -> dict:
    """text_to_times on its TextToTimesOptions: {"words", "intervals", "classes"} (paths)."""
    write = prepare(opts.utt_phones(), opts.segmented, opts.unit_sep)
    n = run_task("text_to_times", opts.out_dir, OUTPUTS, write, inputs=[*opts.paths("input"), opts.utt_phones()])
    return {"words": n, **{name: os.path.join(opts.out_dir, name) for name in OUTPUTS}}


def show(opts, res: dict) -> None:
    print(f"text_to_times: {res['words']} words -> {opts.out_dir}/intervals, {opts.out_dir}/classes", file=sys.stderr)
