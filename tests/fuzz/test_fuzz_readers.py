"""Property-based fuzzing of every input reader: random bytes, truncations, mutated valid
files, huge and non-finite numbers, odd encodings. Each reader either succeeds or raises
termeval.core.errors.InputError (which the scripts print as one line) - never another exception.
"""
from __future__ import annotations

import os
import tempfile

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from termeval.core import kaldi_files  # noqa: E402
from termeval.classes.parse import parse_class_file  # noqa: E402
from termeval.core.datadir import load_classes, load_gold  # noqa: E402
from termeval.core.errors import InputError  # noqa: E402
from termeval.gold import Options, assign_speakers, parse_textgrid, prepare, read_ctm, \
    read_textgrid_dir, read_zr, validate_data_dir  # noqa: E402
from termeval.quesst import quesst_io as quesst  # noqa: E402  (the QUESST input readers)
from termeval.resources.resources import phase_from_measure, read_resources_file  # noqa: E402
from termeval.tde.zr2015.classfile import read_classfile  # noqa: E402
from termeval.tde.zrc2020.testing import parse_classes  # noqa: E402

FAST = settings(max_examples=int(os.environ.get("TERMEVAL_FUZZ_EXAMPLES", "100")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])

# pieces that broke or could break readers: numbers out of range, non-finite, separators,
# encodings, NUL, odd Unicode digits and spaces, format keywords
NUMBERS = [b"nan", b"inf", b"-inf", b"1e400", b"-1e400", b"1e308", b"-1", b"0", b"-0", b"1e-400",
           b"9" * 400, b"1_0", b"0x10", b"1", b"0.5", b"2", b"5.505", b"10.001", b"3.25", b"-1e-9"]
ODD = [b"\xc2\xb2", b"\xd9\xa3", b"\t", b"\r", b"\r\n", b"\n", b"\n\n", b"  ", b"\x00", b"\xff",
       b"\xfe\xff", b"\xef\xbb\xbf", b"\xc2\xa0", b"\xe2\x80\xa8", b"\x0b", b"\x1c", b"Class",
       b"class 3:", b"Class 1\n", b":", b"=", b"[", b"]", b'"', b"-", b"#", b"SIL", b"_B", b"_E", b"_S",
       b"x" * 300, b"\xe9", b"\xed\xa0\x80", b"A01", b"B02", b"f1", b"u1", b"r1", b"q1", b"d1", b"[index]"]
TOKENS = NUMBERS + ODD


def mutated(samples: list[bytes]) -> st.SearchStrategy[bytes]:
    """Valid samples, mutated by inserting / replacing / deleting pieces, truncated, re-encoded,
    or plain random bytes."""
    @st.composite
    def mutate(draw) -> bytes:
        data = bytearray(draw(st.sampled_from(samples)))
        for _ in range(draw(st.integers(0, 4))):
            op = draw(st.integers(0, 3))
            pos = draw(st.integers(0, len(data)))
            piece = draw(st.sampled_from(NUMBERS if draw(st.integers(0, 2)) else ODD))
            if op == 0:
                data[pos:pos] = piece
            elif op == 1:  # replace a field (up to the next space) or a few bytes
                nxt = data.find(b" ", pos)
                end = nxt if 0 <= nxt - pos <= 12 else min(len(data), pos + draw(st.integers(1, 8)))
                data[pos:end] = piece
            elif op == 2:
                del data[pos:pos + draw(st.integers(1, 8))]
            elif draw(st.integers(0, 3)) == 0:
                del data[pos:]  # truncation
        out = bytes(data)
        enc = draw(st.integers(0, 19))
        if enc == 0:
            out = out.decode("utf-8", "replace").encode("utf-16")
        elif enc == 1:
            out = out.decode("utf-8", "replace").encode("utf-16-le")
        elif enc == 2:
            out = out.decode("utf-8", "replace").encode("latin-1", "replace")
        return out
    return st.one_of(mutate(), mutate(), mutate(), st.binary(max_size=200))


def check(fn, *args, **kwargs):
    """fn(*args) either succeeds or raises InputError."""
    try:
        fn(*args, **kwargs)
    except InputError as e:
        assert str(e) and "\n" not in str(e)


def put(directory: str, name: str, data: bytes) -> str:
    path = os.path.join(directory, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return path


PHN = [b"f1 0 0.5 a\nf1 0.5 1 b\nf2 0 0.25 SIL\nf2 0.25 1.5 c\n", b"f1 0.0 1e-05 a\nf1 1e-05 2.5 b\n"]
WRD = [b"f1 0 1 ab\nf2 0.25 1.5 c\n", b"f1 0 2.5 w\n"]


@FAST
@given(phn=mutated(PHN), wrd=mutated(WRD), sort=st.booleans(), fill=st.booleans())
def test_zr_files(phn, wrd, sort, fill):
    with tempfile.TemporaryDirectory() as d:
        p, w = put(d, "x.phn", phn), put(d, "x.wrd", wrd)
        check(read_zr, p)

        def full():
            prepare(read_zr(p), read_zr(w), Options(sort=sort, fill_gaps=fill))
        check(full)


CTM = [b"u1 1 0.00 0.10 SIL\nu1 1 0.10 0.20 k_B\nu1 1 0.30 0.10 ae_I\nu1 1 0.40 0.20 t_E\n",
       b"r1 A 0 0.5 1 0.9\nr1 A 0.5 0.5 2\n"]
WCTM = [b"u1 1 0.10 0.50 cat\n", b"r1 A 0 1 1990\n"]
SEGMENTS = [b"u1 r1 1.5 3.0\nu2 r1 3.0 -1\n", b"u1 r1 0 10\n"]
SYMBOLS = [b"<eps> 0\nSIL 1\nk_B 2\nae_I 3\nt_E 4\n", b"a 1\nb 2\n"]


@FAST
@given(ctm=mutated(CTM), wctm=mutated(WCTM), seg=mutated(SEGMENTS), sym=mutated(SYMBOLS),
       use=st.integers(0, 3))
def test_ctm_files(ctm, wctm, seg, sym, use):
    with tempfile.TemporaryDirectory() as d:
        c, w = put(d, "p.ctm", ctm), put(d, "w.ctm", wctm)
        s, t = put(d, "segments", seg), put(d, "phones.txt", sym)

        def full():
            symbols = kaldi_files.read_symbol_table(t) if use & 1 else None
            segments = kaldi_files.read_segments(s) if use & 2 else None
            phones = read_ctm(c, symbols, t, segments, s, Options(), "phone")
            words = read_ctm(w, None, None, segments, s, Options(), "word") if use == 3 else None
            prepare(phones, words, Options(sort=True))
        check(full)


@FAST
@given(seg=mutated(SEGMENTS), sym=mutated(SYMBOLS), u2s=mutated([b"f1 s1\nf2 s2\n", b"a-1 a\n"]),
       dur=mutated([b"f1 1.5\nf2 3.25\n", b"a 0.01\n"]))
def test_kaldi_files(seg, sym, u2s, dur):
    with tempfile.TemporaryDirectory() as d:
        check(kaldi_files.read_segments, put(d, "segments", seg))
        check(kaldi_files.read_symbol_table, put(d, "words.txt", sym))
        check(kaldi_files.read_utt2spk, put(d, "utt2spk", u2s))
        check(assign_speakers, ["f1", "f2"], os.path.join(d, "utt2spk"), None, "auto")
        check(kaldi_files.read_durations, put(d, "reco2dur", dur))
        check(kaldi_files.read_durations, os.path.join(d, "reco2dur"), positive=False)


TEXTGRIDS = [
    b'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\nxmax = 1\ntiers? <exists>\n'
    b'size = 2\nitem []:\n    item [1]:\n        class = "IntervalTier"\n        name = "phones"\n'
    b'        xmin = 0\n        xmax = 1\n        intervals: size = 2\n        intervals [1]:\n'
    b'            xmin = 0\n            xmax = 0.5\n            text = "a"\n        intervals [2]:\n'
    b'            xmin = 0.5\n            xmax = 1\n            text = ""\n    item [2]:\n'
    b'        class = "IntervalTier"\n        name = "words"\n        xmin = 0\n        xmax = 1\n'
    b'        intervals: size = 1\n        intervals [1]:\n            xmin = 0\n'
    b'            xmax = 0.5\n            text = "w"\n',
    b'File type = "ooTextFile short"\n"TextGrid"\n\n0\n1\n<exists>\n2\n"IntervalTier"\n"phones"\n'
    b'0\n1\n1\n0\n1\n"a"\n"IntervalTier"\n"words"\n0\n1\n1\n0\n1\n"w"\n',
]


@FAST
@given(tg=mutated(TEXTGRIDS))
def test_textgrid(tg):
    with tempfile.TemporaryDirectory() as d:
        p = put(d, "tg/x.TextGrid", tg)
        check(parse_textgrid, p)

        def full():
            phones, words, known = read_textgrid_dir(os.path.join(d, "tg"))
            prepare(phones, words, Options(), known)
        check(full)


CLASSES = [b"Class 0 [i,j,E,O]\nA01 0.1 0.5\nB02 1.25 2\n\nClass 3:\nA01 3.0 3.3\n\n",
           b"Class 1\r\nA01\t0 1\r\n\r\nclass 2\nB02 0 5.5\n",
           b"A01 1 2 B02 3 4 0.9\nA01 5 6 A01 7 8.5\n"]
DURATIONS = {"A01": 10.0, "B02": 5.5}


@FAST
@given(text=mutated(CLASSES), lenient=st.booleans(), fmt=st.sampled_from(["auto", "class", "pairs"]))
def test_class_and_pairs_files(text, lenient, fmt):
    with tempfile.TemporaryDirectory() as d:
        p = put(d, "x.class", text)
        check(parse_class_file, p, DURATIONS, lenient=lenient, fmt=fmt)
        check(read_classfile, p, {"A01": 0, "B02": 1})
        check(parse_classes, p)


RESOURCES = [b"[audio]\nt_omega_s = 3600\nt_query_s = auto:q2d\n[index]\nwall_s = 5\ncores = 4\n"
             b"pmu_gb = 1\n[search]\ncpu_s = 5  # comment\npeak_mem_kb = 100\n[report]\nlambda = 0.1\n"
             b"ssf_unit = hour\nhardware = \"x\"\n"]


@FAST
@given(text=mutated(RESOURCES), kv=mutated([b"exit_status=0\ncpu_s=1.5\nwall_s=2\npeak_mem_kb=1000\n"]))
def test_resources_files(text, kv):
    with tempfile.TemporaryDirectory() as d:
        check(read_resources_file, put(d, "r.conf", text))
        check(phase_from_measure, put(d, "index", kv))


DATA = {"phones": [b"A01 0 5 SIL\nA01 5 10 a\nB02 0 5.5 b\n"], "words": [b"A01 5 10 w\nB02 0 5.5 v\n"],
        "utt2spk": [b"A01 A\nB02 B\n"], "spk2utt": [b"A A01\nB B02\n"], "reco2dur": [b"A01 10\nB02 5.5\n"],
        "segments": [b"c0000000-0000000 A01 1 2\nc0000000-0000001 B02 0 1\n"],
        "class_names": [b"c0000000 1\n"]}


@FAST
@given(which=st.sampled_from(sorted(DATA)), data=st.data())
def test_prepared_dirs(which, data):
    blob = data.draw(mutated(DATA[which]))
    with tempfile.TemporaryDirectory() as d:
        for name, samples in DATA.items():
            put(d, ("classes/" if name in ("segments", "class_names") else "") + name,
                blob if name == which else samples[0])

        def full():
            gold = load_gold(d)
            load_classes(os.path.join(d, "classes"), gold)
        check(full)
        check(validate_data_dir, d)


@FAST
@given(docs=mutated([b"d1\nd2 extra\n"]), queries=mutated([b"q1\nq2\n"]),
       targets=mutated([b"q1 d1\nq2 d2\n"]), det=mutated([b"q1 d1 0.5\nq2 d2 -1.5\n", b"q1 d1 1 YES\n"]))
def test_quesst_lists(docs, queries, targets, det):
    with tempfile.TemporaryDirectory() as d:
        put(d, "kws/documents", docs)
        put(d, "kws/queries", queries)
        put(d, "kws/targets", targets)
        check(quesst.load_reference, os.path.join(d, "kws"))
        check(quesst.read_pair_scores, put(d, "det.txt", det), "pairs")
