"""Property-based fuzzing of the segmentation readers (termeval.segmentation.inputs): the Kaldi
`segments` file of the utterances, interval files, class files and vqwordseg interval
directories, mutated as in test_fuzz_readers.py and scored through to the job statistics in
both modes. Each input is either scored or refused with termeval's one-line InputError."""
from __future__ import annotations

import os
import tempfile

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

from termeval.gold import prepare_zr  # noqa: E402
from termeval.segmentation.inputs import cut_tier, load_gold_tier, load_utterances, read_segmentation  # noqa: E402
import numpy as np  # noqa: E402

from termeval.segmentation.stats import Settings, job_stats  # noqa: E402
from test_fuzz_readers import FAST, check, mutated, put  # noqa: E402

PHN = b"f1 0 0.1 SIL\nf1 0.1 0.3 a\nf1 0.3 0.5 b\nf1 0.5 0.8 c\nf2 0 0.4 d\nf2 0.4 0.9 e\n"
WRD = b"f1 0.1 0.5 ab\nf1 0.5 0.8 c\nf2 0 0.4 d\nf2 0.4 0.9 e\n"
SEGMENTS = [b"u1 f1 0.0 0.5\nu2 f1 0.5 0.8\nu3 f2 0 -1\n", b"u1 f1 0.1 0.79\n"]
INTERVALS = [b"f1 0.00 0.11 1\nf1 0.11 0.49 2\nf1 0.49 0.8 3\nf2 0.0 0.45 2\nf2 0.45 0.9 3\n",
             b"u1 0.0 0.11 1\nu1 0.11 0.5 2\nu3 0.0 0.41 2\nu3 0.41 0.9 3\n",
             b"f1 0 0.5\nf2 0.4 0.4\nf2 0.4 0.9\n"]
CLASSES = [b"Class 1\nf1 0.1 0.5\nf2 0.0 0.4\n\nClass 2\nf1 0.5 0.8\nf2 0.4 0.9\n"]
FRAMES = [b"0 11 1_\n11 49 2_\n49 80 3_\n", b"0 0 1_\n0 40 2_\n40 40 3_\n40 95 1_\n", b""]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("seg_fuzz")
    (d / "g.phn").write_bytes(PHN)
    (d / "g.wrd").write_bytes(WRD)
    prepare_zr(str(d / "g.phn"), str(d / "g.wrd"), str(d / "data"))
    return str(d / "data")


def score(data: str, seg_path: str, segments: str | None, compat: str, level: str) -> None:
    s = Settings(0.02, 0.01, level, compat)
    gold, tier = load_gold_tier(data, level)
    utts = load_utterances(gold, segments)
    ref = cut_tier(tier, utts)
    pred = read_segmentation(seg_path, gold, utts, s.frame_shift, compat)
    for share in np.array_split(np.arange(len(utts)), 2):   # two jobs' shares of utterances
        job_stats(ref, pred, utts, share, s)


MODES = st.sampled_from(["none", "vqwordseg"])
LEVELS = st.sampled_from(["word", "phone"])


@FAST
@given(text=mutated(INTERVALS), seg=mutated(SEGMENTS), use_seg=st.booleans(), compat=MODES, level=LEVELS)
def test_interval_files(data_dir, text, seg, use_seg, compat, level):
    with tempfile.TemporaryDirectory() as d:
        p, s = put(d, "seg.txt", text), put(d, "segments", seg)
        check(score, data_dir, p, s if use_seg else None, compat, level)


@FAST
@given(text=mutated(CLASSES), seg=mutated(SEGMENTS), use_seg=st.booleans(), compat=MODES)
def test_class_files(data_dir, text, seg, use_seg, compat):
    with tempfile.TemporaryDirectory() as d:
        p, s = put(d, "seg.class", b"Class 1\n" + text if text[:1] == b"f" else text), put(d, "segments", seg)
        check(score, data_dir, p, s if use_seg else None, compat, "word")


@FAST
@given(f1=mutated(FRAMES), f2=mutated(FRAMES), seg=mutated(SEGMENTS), use_seg=st.booleans(), compat=MODES,
       name=st.sampled_from(["f1", "u1", "x"]))
def test_interval_directories(data_dir, f1, f2, seg, use_seg, compat, name):
    with tempfile.TemporaryDirectory() as d:
        put(d, f"iv/{name}.txt", f1)
        put(d, "iv/f2.txt" if not use_seg else "iv/u3.txt", f2)
        s = put(d, "segments", seg)
        check(score, data_dir, os.path.join(d, "iv"), s if use_seg else None, compat, "word")
