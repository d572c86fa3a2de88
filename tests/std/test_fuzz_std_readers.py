"""Fuzzing the STD readers (issue 12): random bytes, truncations, mutated valid files, huge and
non-finite numbers and odd encodings either parse or raise termeval.core.errors.InputError with a
one-line message of bounded length, never another exception. Kept fast (< 10 s in all)."""
from __future__ import annotations

import os
import tempfile
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termeval.core.errors import InputError
from termeval.std import kaldi_refs as kaldi
from termeval.std.kaldi import atwv as kaldi_atwv
from termeval.std.detections import read_detections
from termeval.std.ecf import read_ecf
from termeval.std.rttm import read_rttm
from termeval.std.termlist import read_keywords_txt, read_termlist

ECF = b"""<?xml version="1.0" encoding="UTF-8"?>
<ecf source_signal_duration="100" version="1">
  <excerpt audio_filename="F1.wav" channel="1" tbeg="0.000" dur="60.000" source_type="bnews"/>
  <excerpt audio_filename="F2.wav" channel="1" tbeg="10.5" dur="30.25" source_type="cts"/>
</ecf>
"""
RTTM = b"""SPEAKER F1 1 0.000 60.000 <NA> <NA> s1 <NA>
LEXEME F1 1 5.000 0.500 q1 lex s1 <NA>
LEXEME F1 1 5.600 0.300 two lex s1 <NA>
LEXEME F2 1 10.000 0.500 q2 lex s1 <NA>
"""
KWLIST = b"""<kwlist ecf_filename="ecf.xml" language="english" encoding="UTF-8" compareNormalize="lowercase" version="1">
  <kw kwid="K1"><kwtext>q1</kwtext><kwinfo><attr><name>Characters</name><value>2</value></attr></kwinfo></kw>
  <kw kwid="K2"><kwtext>q1 two</kwtext></kw>
</kwlist>
"""
TLIST = b"""<termlist ecf_filename="ecf.xml" language="multiple" version="1">
  <term termid="q1"><termtext>q1</termtext></term>
</termlist>
"""
KWSLIST = b"""<kwslist kwlist_filename="kwlist.xml" language="english" system_id="s" min_score="0" max_score="1">
<detected_kwlist kwid="K1" search_time="1" oov_count="0">
<kw file="F1" channel="1" tbeg="5.01" dur="0.49" score="0.9" decision="YES"/>
<kw file="F2" channel="1" tbeg="30" dur="0.5" score="0.2" decision="NO"/>
</detected_kwlist>
<detected_kwlist kwid="K2" search_time="1" oov_count="0"></detected_kwlist>
</kwslist>
"""
STDLIST = b"""<stdlist termlist_filename="tlist.xml" indexing_time="1" language="multiple" index_size="1" system_id="s">
<detected_termlist termid="q1" term_search_time="1" oov_term_count="0">
<term file="F1" channel="1" tbeg="5.0" dur="0.5" score="0.9" decision="YES"/>
</detected_termlist>
</stdlist>
"""
HITLIST = b"K1 1 500 550 1\nK1 2 1500 1550 1.0\nK2 1 100 160 0\n"
RESULTS = b"K1 1 501 549 0.93\nK1 3 10 20 0.2\nK2 1 100 160 1e-3\n"
KEYWORDS = b"K1 q1\nK2 q1 two\n"

ODD_NUMBERS = [b"1e400", b"-1e999", b"nan", b"inf", b"-inf", b"99999999999", b"-2147483649", b"1e-400",
               b"-0", b"", b"0x10", b"1_0", b"\xef\xbc\x91", b"9" * 400, b"1e308", b"-1", b"+.5", b"NaN(1)"]
ENCODINGS = ["utf-8", "utf-16", "utf-16-le", "latin-1", "utf-8-sig", "cp1252", "utf-32"]


def _read_hitlist(path):
    kaldi.read_hitlist(path, None, 0.01, None, None)


def _read_results(path):
    read_detections(path, fmt="kaldi")
    kaldi_atwv.read_archive(path, {}, {"1": 1})


READERS = {
    "ecf": (read_ecf, ECF), "rttm": (read_rttm, RTTM), "kwlist": (read_termlist, KWLIST),
    "tlist": (read_termlist, TLIST), "kwslist": (read_detections, KWSLIST),
    "stdlist": (read_detections, STDLIST), "hitlist": (_read_hitlist, HITLIST),
    "results": (_read_results, RESULTS), "keywords": (read_keywords_txt, KEYWORDS),
}


@pytest.fixture(scope="module")
def workdir():
    with tempfile.TemporaryDirectory() as d:
        yield d


def check(workdir: str, name: str, data: bytes) -> None:
    reader, _ = READERS[name]
    path = os.path.join(workdir, name)
    with open(path, "wb") as f:
        f.write(data)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            reader(path)
    except InputError as e:
        msg = e.format()
        assert "\n" not in msg and len(msg) < 600 + len(path), msg[:300]


def _numbers(data: bytes) -> list[tuple[int, int]]:
    """Spans of the numeric tokens of a valid file (the places worth breaking)."""
    import re
    return [m.span() for m in re.finditer(rb"[-+0-9.eE]+", data)]


@st.composite
def mutated(draw, data: bytes) -> bytes:
    kind = draw(st.sampled_from(["number", "truncate", "insert", "delete", "encode", "dup"]))
    if kind == "number":
        spans = _numbers(data)
        for _ in range(draw(st.integers(1, 3))):
            a, b = draw(st.sampled_from(spans))
            new = draw(st.one_of(st.sampled_from(ODD_NUMBERS), st.binary(max_size=8)))
            data = data[:a] + new + data[b:]
            spans = _numbers(data) or [(0, 0)]
        return data
    if kind == "truncate":
        return data[: draw(st.integers(0, len(data)))]
    if kind == "insert":
        i = draw(st.integers(0, len(data)))
        return data[:i] + draw(st.binary(min_size=1, max_size=12)) + data[i:]
    if kind == "delete":
        i = draw(st.integers(0, len(data)))
        return data[:i] + data[i + draw(st.integers(1, 20)):]
    if kind == "dup":  # repeated lines / elements
        lines = data.split(b"\n")
        i = draw(st.integers(0, len(lines) - 1))
        return b"\n".join(lines[: i + 1] + lines[i:])
    enc = draw(st.sampled_from(ENCODINGS))
    text = data.decode("utf-8")
    if draw(st.booleans()) and text.startswith("<?xml"):
        text = text.replace('encoding="UTF-8"', f'encoding="{draw(st.sampled_from(["UTF-9", "latin-1", "utf-16", "ebcdic", ""]))}"')
    return text.encode(enc)


FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                      HealthCheck.too_slow])


@pytest.mark.parametrize("name", sorted(READERS))
def test_valid_seed_files_parse(workdir, name):
    reader, data = READERS[name]
    path = os.path.join(workdir, name)
    with open(path, "wb") as f:
        f.write(data)
    reader(path)


@pytest.mark.parametrize("name", sorted(READERS))
@FUZZ
@given(data=st.data())
def test_mutated_files(workdir, name, data):
    check(workdir, name, data.draw(mutated(READERS[name][1])))


@pytest.mark.parametrize("name", sorted(READERS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=300))
def test_random_bytes(workdir, name, raw):
    check(workdir, name, raw)
    check(workdir, name, READERS[name][1][:40] + raw)
