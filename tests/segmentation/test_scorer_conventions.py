"""Conventions of the named scorers that their own code fixes (issue 40, items 22-25), on
hand-computed cases: silence is a gap for every named scorer (jasonppy's alignment strings have
no SIL); SD-HuBERT/SylReg snmi over the entropy of every gold syllable; discophon's values from
the counts and its boundaries from label changes; each scorer's own frame shift."""
from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest

from termeval.bin import score_segmentation
from termeval.gold import prepare_zr
from termeval.segmentation import compare
from termeval.segmentation.options import SegmentationOptions
from termeval.segmentation.scorers import rasanen
from termeval.segmentation.stage import settings_of
from termeval.segmentation.scorers.common import speech_only

from test_segmentation_cli import PHN, SEG, WRD
from test_segmentation_scorers import P, iv, total, utts


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    d = tmp_path_factory.mktemp("conventions")
    (d / "toy.phn").write_text(PHN)
    (d / "toy.wrd").write_text(WRD)
    (d / "seg.txt").write_text(SEG)
    prepare_zr(str(d / "toy.phn"), str(d / "toy.wrd"), str(d / "data"))
    return d


def run(toy, name: str, *args: str, seg: str = "seg.txt") -> dict:
    exp = str(toy / name)
    score_segmentation.main([*args, str(toy / "data"), str(toy / seg), exp])
    with open(os.path.join(exp, "scores", "scores.json")) as f:
        return json.load(f)


# ---------------------------------------------------------------- 22: SIL is a gap

def test_harwath_phone_level_has_no_silence_boundaries(toy):
    s = run(toy, "h_phone", "--compat", "harwath", "--level", "phone")
    # f1: phones SIL a b c SIL -> gold 0.1 0.3 0.5 0.8 (not 0 and 1.0, the SIL edges); predicted
    # 0 .11 .49 .82 1.0: 3 hits. f2: d e -> 0 .4 .9, predicted 0 .45 .9: 2 hits. With the SIL
    # phones as gold intervals, 0 and 1.0 of f1 would be two more gold boundaries, both hit (7/9).
    assert (s["phone_boundary_precision"], s["phone_boundary_recall"]) == (5 / 8, 5 / 7)
    assert s["segmentation_phone"]["counts"]["boundary_ref"] == 7


def test_speech_only_drops_every_silence_label():
    ref = iv([(0, 0.0, 0.1, "SIL"), (0, 0.1, 0.2, "a"), (0, 0.2, 0.3, "sp"), (0, 0.3, 0.4, "b"), (0, 0.4, 0.5, "NSN")])
    kept = speech_only(ref)
    assert [ref.labels[x] for x in kept.label] == ["a", "b"]
    words = iv([(0, 0.1, 0.2, "w")])
    assert speech_only(words) is words


# ---------------------------------------------------------------- 24: discophon's values and boundaries

def test_rasanen_values_from_the_counts():
    r_val = 1 - math.sqrt(2) / 2
    assert rasanen.values(np.array([3, 0, 0])) == {"precision": None, "recall": 0.0, "fscore": 0.0, "os": -1.0,
                                                   "rvalue": r_val}
    assert rasanen.values(np.array([0, 2, 0])) == {"precision": 0.0, "recall": None, "fscore": 0.0, "os": None,
                                                   "rvalue": None}
    assert set(rasanen.values(np.array([0, 0, 0])).values()) == {None}
    v = rasanen.values(np.array([4, 2, 1]))      # TP 1, FP 1, FN 3
    r, os_ = 1 / 4, 2 / 4 - 1
    assert v["fscore"] == 2 / (2 + 1 + 3) and v["os"] == os_
    assert v["rvalue"] == 1 - (math.sqrt((1 - r) ** 2 + os_ ** 2) + abs(r - os_ - 1) / math.sqrt(2)) / 2


def test_rasanen_boundaries_are_label_changes():
    u = utts([1.0])
    ref = iv([(0, 0.0, 0.5, "a"), (0, 0.5, 1.0, "b")])
    one_cluster = iv([(0, 0.0, 0.3, "x"), (0, 0.3, 0.5, "x"), (0, 0.5, 1.0, "x")])
    assert total(rasanen.score(ref, one_cluster, u, P())) == [1, 0, 0]        # no predicted boundary
    unlabelled = iv([(0, 0.0, 0.3), (0, 0.3, 0.5), (0, 0.5, 1.0)], labelled=False)
    assert total(rasanen.score(ref, unlabelled, u, P())) == [1, 2, 1]          # each segment a run
    # a prediction ending before the utterance end: its end is the end of its last run, no boundary
    short = iv([(0, 0.0, 0.5, "x"), (0, 0.5, 0.96, "y")])
    assert total(rasanen.score(ref, short, u, P())) == [1, 1, 1]
    # units running past the audio: their label changes there count (discophon's do)
    long = iv([(0, 0.0, 0.5, "x"), (0, 0.5, 1.0, "y"), (0, 1.0, 1.02, "x"), (0, 1.02, 1.04, "y")])
    assert total(rasanen.score(ref, long, u, P())) == [1, 3, 1]


def test_rasanen_cli_without_predicted_boundary(toy):
    (toy / "one.txt").write_text("f1 0.0 1.0 k\nf2 0.0 0.9 k\n")
    s = run(toy, "r_none", "--compat", "rasanen", seg="one.txt")
    assert s["word_boundary_precision"] is None and s["word_boundary_recall"] == 0.0
    assert s["word_boundary_fscore"] == 0.0 and s["word_boundary_os"] == -1.0
    assert s["word_boundary_rvalue"] == pytest.approx(0.2928932188134524, abs=1e-15)


def test_rasanen_reads_ends_past_the_utterance(toy):
    # f2 ends at 0.90: units to 0.94 with a change at 0.92 count (one false positive more)
    (toy / "long.txt").write_text("f1 0.0 0.11 1\nf1 0.11 1.0 2\nf2 0.0 0.4 1\nf2 0.4 0.92 2\nf2 0.92 0.94 1\n")
    s = run(toy, "r_long", "--compat", "rasanen", seg="long.txt")
    st = s["segmentation"]["counts"]
    # gold internal: f1 100 500 800, f2 400; predicted f1 110, f2 400 920 (0.94: the last end)
    assert (st["boundary_ref"], st["boundary_pred"], st["boundary_hits"]) == (4, 3, 2)
    assert st["segments_past_utterance_end"] == 2      # 0.4-0.92 and 0.92-0.94


# ---------------------------------------------------------------- 25: each scorer's own frame shift

def test_malan_alone_scores_the_frames_of_its_row_in_all(toy, capsys):
    alone = run(toy, "m_alone", "--compat", "malan-strict")
    printed = capsys.readouterr().out
    every = run(toy, "m_all", "--compat", "all")
    row = {r["scorer"]: r for r in every["segmentation"]["compare"]}["malan-strict"]
    st = alone["segmentation"]
    assert (st["frame_shift"], st["tolerance_frames"]) == (0.02, 1) and row["frame_shift"] == 0.02
    assert (alone["word_boundary_precision"], alone["word_boundary_recall"], alone["word_boundary_fscore"]) == \
        (row["precision"], row["recall"], row["fscore"])
    assert "tolerance 0.02 s = 1 frames of 0.02 s" in printed
    # --frame-shift given: the scorer and its row of --compat all use it
    given = run(toy, "m_given", "--compat", "malan-strict", "--frame-shift", "0.01")
    rows = {r["scorer"]: r for r in run(toy, "m_all_given", "--compat", "all", "--frame-shift", "0.01")
            ["segmentation"]["compare"]}
    assert given["segmentation"]["tolerance_frames"] == 2 and rows["malan-strict"]["frame_shift"] == 0.01
    assert given["word_boundary_fscore"] == rows["malan-strict"]["fscore"]


def test_frame_shift_defaults():
    def fs(compat, given=None):
        return settings_of(SegmentationOptions(data_dir="d", segmentation="s", compat=compat, frame_shift=given))
    assert [fs(m).frame_shift for m in ("none", "vqwordseg", "harwath", "unsupseg", "malan-strict", "malan-lenient")] \
        == [0.01, 0.01, 0.01, 0.01, 0.02, 0.02]
    assert fs("malan-lenient", 0.01).frame_shift == 0.01 and fs("malan-lenient", 0.01).frame_shift_given
    assert [compare.settings_of(fs("all"), m).frame_shift for m in ("vqwordseg", "unsupseg", "malan-strict")] == \
        [0.01, 0.01, 0.02]
    assert [compare.settings_of(fs("all", 0.02), m).frame_shift for m in ("vqwordseg", "unsupseg", "malan-strict")] \
        == [0.02, 0.02, 0.02]


# ---------------------------------------------------------------- 23: snmi's entropy

def test_snmi_entropy_counts_every_gold_syllable_in_any_job_split():
    from termeval.segmentation.report import merge, metric_values
    from termeval.segmentation.stats import Settings, job_stats
    u = utts([1.0, 1.0])
    ref = iv([(0, 0.0, 0.5, "ba1"), (0, 0.5, 1.0, "na0"), (1, 0.0, 0.5, "ta1"), (1, 0.5, 1.0, "ba2")])
    pred = iv([(0, 0.0, 0.5, "x"), (0, 0.5, 1.0, "y")])          # the second utterance has no prediction
    s = Settings(0.05, 0.01, "syllable", "harwath")

    def snmi(parts):
        m = merge([{**job_stats(ref, pred, u, np.array(p), s), "has_labels": False} for p in parts])
        return {x.name: x.value for x in metric_values(m, s, ["x", "y"], False, [])[0]}

    one, two = snmi([[0, 1]]), snmi([[0], [1]])
    # pairs ba-x, na-y: I = log 2; gold (trimmed) ba 2, na 1, ta 1: H = -(1/2 log 1/2 + 2 (1/4 log 1/4))
    h = -(0.5 * math.log(0.5) + 2 * 0.25 * math.log(0.25))
    assert one["snmi"] == pytest.approx(math.log(2) / h, abs=1e-15) and two["snmi"] == one["snmi"]
    assert one["syllable_purity"] == one["cluster_purity"] == 1.0
