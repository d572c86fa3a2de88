"""Breakdowns of STD / QUESST scores by groups of terms, several kinds in one run (issue 14 §4;
F4DE scores one `-q` attribute per run). A group is scored as if its terms were the whole
term list (F4DE -q semantics): its own term averages, its own maximum-TWV threshold.

Kinds (`--breakdown` is a comma list of them):
  attr:NAME  the value of the term-list attribute NAME (kwinfo/terminfo); '(none)' if absent
  ngram      number of words of the term text ('1', '2', ...)
  freq       number of reference occurrences (STD) or target documents (QUESST), in the bins
             of --freq-bins, e.g. 1,2,5,10 -> '1', '2-4', '5-9', '10+' ('0' under -inc)
  oov        'iv' if every word of the term is in the --lexicon (Kaldi words.txt), else 'oov'
  phones     length in phones from the --lexicon (Kaldi lexicon.txt, first pronunciation of each
             word: '1', '2', ...); terms with a word not in it form the group 'oov'
  qtype      QUESST query type: the term attribute 'qtype' or 'type', or the sibling
             ground-truth dirs <kws-dir>_T1, _T2, ... (QUESST 2015 layout) listing its queries
"""
from __future__ import annotations

import glob
import os
import re

import numpy as np

from termeval.core.errors import InputError
from termeval.core.numbers import fmt_value
from termeval.core.textio import atomic_write, iter_lines
from termeval.std.lexicon import phone_length
from termeval.std.termlist import check_attribute, read_termlist

NONE = "(none)"


def parse_kinds(spec: str, have_lexicon: bool, quesst: bool = False) -> list[str]:
    """Validate `--breakdown`; '' = the default (ngram,freq, + oov with a lexicon, + qtype for
    QUESST when types are available is left to the caller); 'none' = no breakdown."""
    if spec.strip() == "":
        kinds = ["ngram", "freq"] + (["oov"] if have_lexicon else [])
        return kinds
    if spec.strip() == "none":
        return []
    kinds = [k.strip() for k in spec.split(",") if k.strip()]
    for k in kinds:
        if k in ("ngram", "freq", "oov", "phones") or (k == "qtype" and quesst):
            continue
        if k.startswith("attr:") and len(k) > 5:
            continue
        if k.startswith("categories:"):
            raise InputError("--breakdown categories:FILE is Kaldi's per-category table: use it with --compat kaldi")
        raise InputError(f"unknown --breakdown kind '{k}' (attr:NAME, ngram, freq, oov, phones"
                         f"{', qtype' if quesst else ''})")
    if "oov" in kinds and not have_lexicon:
        raise InputError("--breakdown oov needs --lexicon words.txt")
    if "phones" in kinds and not have_lexicon:
        raise InputError("--breakdown phones needs --lexicon lexicon.txt")
    if len(set(kinds)) != len(kinds):
        raise InputError(f"--breakdown lists a kind twice: {spec}")
    return kinds


def check_attributes(kinds: list[str], attrs: list[dict], path: str | None = None) -> None:
    """Every attr:NAME kind names an attribute some term has (else every group is '(none)')."""
    for k in kinds:
        if k.startswith("attr:"):
            check_attribute(attrs, k[5:], f"--breakdown {k}", path)


def parse_bins(spec: str) -> list[int]:
    try:
        b = [int(x) for x in spec.split(",") if x.strip()]
    except ValueError:
        raise InputError(f"--freq-bins must be increasing integers >= 1, got '{spec}'") from None
    if not b or b[0] < 1 or any(y <= x for x, y in zip(b, b[1:])):
        raise InputError(f"--freq-bins must be increasing integers >= 1, got '{spec}'")
    return b


def read_lexicon(path: str) -> set[str]:
    """Words of a Kaldi words.txt (`word id`) or a plain word list (first field of a line)."""
    words = set()
    for _, line in iter_lines(path):
        f = line.split()
        if f:
            words.add(f[0])
    if not words:
        raise InputError("empty lexicon", path)
    return words


def freq_label(n: int, bins: list[int]) -> str:
    if n < bins[0]:
        return "0" if n == 0 else f"<{bins[0]}"
    for lo, hi in zip(bins, bins[1:]):
        if lo <= n < hi:
            return str(lo) if hi == lo + 1 else f"{lo}-{hi - 1}"
    return f"{bins[-1]}+"


def _group_order(labels: list, kind: str, bins: list[int]) -> list[str]:
    present = {x for x in labels if x is not None}
    if kind == "freq":
        order = ["0", f"<{bins[0]}"] + [freq_label(b, bins) for b in bins]
        return [g for g in dict.fromkeys(order) if g in present]
    if kind == "ngram":
        return sorted(present, key=int)
    if kind == "phones":
        return sorted(present, key=lambda g: (g == "oov", int(g) if g != "oov" else 0))
    if kind == "oov":
        return [g for g in ("iv", "oov") if g in present]
    return sorted(present, key=lambda g: (g == NONE, g))


def query_types(kws_dir: str, ids: list[str], attrs: list[dict]) -> list[str] | None:
    """Type of each query: attribute 'qtype'/'type', else the <kws-dir>_T* sibling dirs."""
    for name in ("qtype", "type"):
        if attrs and any(name in a for a in attrs):
            return [a.get(name, NONE) for a in attrs]
    base = os.path.normpath(kws_dir)
    sib = sorted(d for d in glob.glob(base + "_T*") if os.path.isdir(d))
    if not sib:
        return None
    label = {}
    for d in sib:
        t = d[len(base) + 1:]
        tl = sorted(glob.glob(os.path.join(d, "*.tlist.xml")) + glob.glob(os.path.join(d, "tlist.xml"))
                    + glob.glob(os.path.join(d, "kwlist.xml")))
        if not tl:
            continue
        for q in read_termlist(tl[0]).ids:
            label.setdefault(q, t)
    return [label.get(q, NONE) for q in ids]


def labels(kind: str, texts: list[str], attrs: list[dict], nref: np.ndarray,
           bins: list[int], lexicon: set[str] | None = None, qtypes: list[str] | None = None
           ) -> list[str]:
    """Group label of every term for one breakdown kind."""
    if kind.startswith("attr:"):
        name = kind[5:]
        return [a.get(name, NONE) if a else NONE for a in (attrs or [{}] * len(texts))]
    if kind == "ngram":
        return [str(max(1, len(t.split()))) for t in texts]
    if kind == "freq":
        return [freq_label(int(n), bins) for n in nref]
    if kind == "oov":
        return ["iv" if all(w in lexicon for w in t.split()) else "oov" for t in texts]
    if kind == "phones":   # lexicon: word -> phones (termeval.std.lexicon.read_lexicon)
        n = [phone_length(t.split(), lexicon) for t in texts]
        return ["oov" if x is None else str(x) for x in n]
    if kind == "qtype":
        if qtypes is None:
            raise InputError("--breakdown qtype: no query types (no 'qtype'/'type' term attribute "
                             "and no <kws-dir>_T1, _T2, ... ground-truth dirs)")
        return qtypes
    raise InputError(f"unknown breakdown kind '{kind}'")


def groups(kind: str, lab: list, bins: list[int]) -> list[tuple[str, np.ndarray]]:
    """(group name, boolean term mask) in display order; terms labelled None are left out."""
    arr = np.asarray(lab, dtype=object)
    return [(g, arr == g) for g in _group_order(lab, kind, bins)]


def file_name(kind: str) -> str:
    """details/breakdown_<kind>.tsv, the attribute name made file-safe."""
    return "breakdown_" + re.sub(r"[^A-Za-z0-9_.-]", "_", kind.replace(":", "_")) + ".tsv"


def _fmt(v) -> str:
    return fmt_value(v, "NA")


def write_table(path: str, columns: list[str], rows: list[tuple[str, dict]]) -> None:
    """TSV: `group` then `columns` in the one number format (core.numbers; 'NA' where undefined)."""
    with atomic_write(path) as f:
        f.write("\t".join(["group"] + columns) + "\n")
        for g, r in rows:
            f.write("\t".join([g.replace("\t", " ")] + [_fmt(r.get(c)) for c in columns]) + "\n")
