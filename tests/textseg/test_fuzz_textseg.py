"""Fuzzing the text segmentation readers and measures: random texts either score (values in
[0, 1], ARI <= 1, F between P and R) or fail with one InputError, never another exception."""
from __future__ import annotations

import json
import os
import tempfile

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from termeval.bin import score_text_segmentation as ste  # noqa: E402
from termeval.core.errors import InputError  # noqa: E402

FAST = settings(max_examples=int(os.environ.get("TERMEVAL_FUZZ_EXAMPLES", "60")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
PIECES = ["a", "b", "ab", "iː", "_", " ", "  ", "\t", "\n", "\n\n", "-", "\xa0", "\r\n", "\u2028", "é", "\x00"]
text = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@FAST
@given(gold=text, seg=text, prep=st.one_of(st.none(), text), compat=st.sampled_from(["none", "wordseg"]),
       unit_sep=st.sampled_from([None, "-"]))
def test_random_texts(gold, seg, prep, compat, unit_sep):
    with tempfile.TemporaryDirectory() as d:
        files = {"g": gold, "s": seg, "p": prep}
        for k, v in files.items():
            if v is not None:
                with open(os.path.join(d, k), "w", encoding="utf-8") as f:
                    f.write(v)
        args = ["--compat", compat] + (["--unit-sep", unit_sep] if unit_sep else []) + \
            (["--prepared", os.path.join(d, "p")] if prep is not None else [])
        try:
            ste.main(args + [os.path.join(d, "g"), os.path.join(d, "s"), os.path.join(d, "exp")])
        except InputError as e:
            assert "\n" not in str(e)
            assert not os.path.exists(os.path.join(d, "exp", "scores"))
            return
        s = json.load(open(os.path.join(d, "exp", "scores", "scores.json")))
        words = (gold + " " + seg).split()
        if unit_sep:           # '_-' with --unit-sep - is the word '_'
            words += ["".join(w.split(unit_sep)) for w in words]
        placeholder = compat == "wordseg" and "_" in words
        for fam in ("token", "type", "boundary_all", "boundary_noedge"):
            if fam == "type" and placeholder:
                continue        # wordseg's `_` placeholder can give type scores above 1 (reproduced)
            p, r, f = (s[f"text_{fam}_{m}"] for m in ("precision", "recall", "fscore"))
            for v in (p, r, f):
                assert v is None or 0.0 <= v <= 1.0
            if p is not None and r is not None:
                assert min(p, r) - 1e-12 <= f <= max(p, r) + 1e-12
        if prep is not None:
            assert s["text_adjusted_rand_index"] <= 1.0
