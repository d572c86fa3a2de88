"""The DiscoPhon benchmark's layout (discophon 0.2.0 `benchmark.py`): which (language, split)
pairs a predictions dir holds, where their gold is, and its output file scores.jsonl.

Predictions: `units-<code>-<split>.jsonl`, listed in sorted order of their names; an unknown
language code or split is an error (as discophon), train splits are skipped, and only the
files matching the pattern are looked at. Gold: `<dataset>/alignment/alignment-<code>-<split>.txt`
(discophon insists on the whole dataset tree, audio folders included; only these files are read
here). scores.jsonl: discophon's rows `{"language","split","metric","score"}`, metric by metric
(pnmi, per, f1, r_val), each over the pairs in order, numbers as polars writes them.
"""
from __future__ import annotations

import json
import os
from typing import NamedTuple

from termeval.core.errors import InputError
from termeval.units.languages import EVALUATED_SPLITS, KNOWN_SPLITS, LANGUAGES

METRICS = ("pnmi", "per", "f1", "r_val")


class Pair(NamedTuple):
    language: str
    split: str
    units: str          # its units-<code>-<split>.jsonl
    alignment: str      # its alignment-<code>-<split>.txt

    @property
    def name(self) -> str:
        return f"{self.language}_{self.split}"


def available(predictions: str, dataset: str, languages: str = "", splits: str = "") -> list[Pair]:
    """The pairs scored, in discophon's order (InputError naming a file it would refuse)."""
    if not os.path.isdir(predictions):
        raise InputError("not a directory (the predictions are units-<code>-<split>.jsonl files in it)", predictions)
    stems = sorted(n[:-len(".jsonl")] for n in os.listdir(predictions)
                   if n.startswith("units-") and n.endswith(".jsonl") and os.path.isfile(os.path.join(predictions, n)))
    pairs = []
    for stem in stems:
        parts = stem.split("-")
        code, split = parts[1], "-".join(parts[2:])
        path = os.path.join(predictions, stem + ".jsonl")
        if code not in LANGUAGES:
            raise InputError(f"unknown language code '{code}': name the files units-{{code}}-{{split}}.jsonl with the "
                             f"ISO 639-3 code of a DiscoPhon language ({', '.join(sorted(LANGUAGES))})", path)
        if split not in KNOWN_SPLITS:
            raise InputError(f"unknown split '{split}': name the files units-{{code}}-{{split}}.jsonl with a split "
                             f"among {', '.join(sorted(KNOWN_SPLITS))}", path)
        if split in EVALUATED_SPLITS:
            pairs.append(Pair(code, split, path, os.path.join(dataset, "alignment", f"alignment-{code}-{split}.txt")))
    want_l = [x for x in languages.split(",") if x]
    want_s = [x for x in splits.split(",") if x]
    pairs = [p for p in pairs if (not want_l or p.language in want_l) and (not want_s or p.split in want_s)]
    for x in want_l:
        if not any(p.language == x for p in pairs):
            raise InputError(f"--languages {x}: no units-{x}-<split>.jsonl to score", predictions)
    if not pairs:
        raise InputError("nothing to evaluate: expected units-{code}-{split}.jsonl, with the ISO 639-3 code of a "
                         "DiscoPhon language and the dev or test split", predictions)
    for p in pairs:
        if not os.path.isfile(p.alignment):
            raise InputError(f"no gold for {os.path.basename(p.units)} (the dataset's alignment/ holds "
                             f"alignment-<code>-<split>.txt)", p.alignment)
    return pairs


def polars_float(x: float) -> str:
    """A double as polars' write_ndjson writes it: the shortest round-trip digits, positional
    from 1e-5 to below 1e16 (with `.0` when whole), exponent form elsewhere (`1e-7`, `1e+16`)."""
    r = repr(float(x))
    if r in ("nan", "inf", "-inf"):
        return "null"
    if "e" not in r:
        return r
    mant, exp = r.split("e")
    e = int(exp)
    if e == -5:                         # Python writes 1.5e-05, polars 0.000015
        sign = "-" if mant.startswith("-") else ""
        digits = mant.lstrip("-").replace(".", "")
        return f"{sign}0.0000{digits}"
    return f"{mant}e{'+' if e > 0 else '-'}{abs(e)}"


def jsonl_rows(pairs: list[Pair], scores: dict[str, dict]) -> str:
    """scores.jsonl: metric-major rows of every pair (scores[pair.name][metric])."""
    out = []
    for m in METRICS:
        for p in pairs:
            v = scores[p.name].get(m)
            out.append(f'{{"language":{json.dumps(p.language)},"split":{json.dumps(p.split)},'
                       f'"metric":"{m}","score":{"null" if v is None else polars_float(v)}}}\n')
    return "".join(out)
