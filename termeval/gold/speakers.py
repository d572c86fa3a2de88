"""Speaker of each file: an utt2spk file, the TextGrid tier speaker, or a rule on the id."""
from __future__ import annotations

import re
from typing import Callable

from termeval.core.errors import InputError
from termeval.core.kaldi_files import read_utt2spk


def speaker_rule(rule: str) -> Callable[[str], str]:
    """auto | whole | prefix:N | field:SEP:K (see the module docstring)."""
    if rule == "auto":
        return lambda f: f.split("-", 1)[0] or f
    if rule == "whole":
        return lambda f: f
    if rule.startswith("prefix:"):
        try:
            n = int(rule[7:])
            assert n > 0
        except (ValueError, AssertionError):
            raise InputError(f"bad --spk-rule '{rule}': expected prefix:N with N > 0") from None
        return lambda f: f[:n]
    if rule.startswith("field:"):
        parts = rule.split(":")
        try:
            assert len(parts) == 3 and parts[1]
            sep, k = parts[1], int(parts[2])
            assert k > 0
        except (ValueError, AssertionError):
            raise InputError(f"bad --spk-rule '{rule}': expected field:SEP:K (K >= 1), e.g. field:_:3") from None

        def get(f: str) -> str:
            fields = f.split(sep)
            return fields[k - 1] if len(fields) >= k and fields[k - 1] else f
        return get
    raise InputError(f"unknown --spk-rule '{rule}' (auto, whole, prefix:N, field:SEP:K)")


def assign_speakers(files: list[str], utt2spk: str | None, known: dict[str, str] | None,
                    rule: str) -> list[str]:
    if utt2spk:
        table = read_utt2spk(utt2spk)
        missing = [f for f in files if f not in table]
        if missing:
            raise InputError(f"{len(missing)} file id(s) have no speaker, e.g. '{missing[0]}'", utt2spk)
        return [table[f][0] for f in files]
    fn = speaker_rule(rule)
    known = known or {}
    spk = [known.get(f) or fn(f) for f in files]
    for f, s in zip(files, spk):
        if not s or re.search(r"\s", s):
            raise InputError(f"speaker '{s}' of file '{f}' is empty or contains whitespace; check --spk-rule")
    return spk
