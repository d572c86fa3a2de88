"""score_segmentation --level syllable end to end on a hand-computed toy: the syllable_* keys,
SD-HuBERT's syllable_purity / cluster_purity / snmi next to termeval's syllable_segment_purity,
--nj 2 through the shell step giving the numbers of one process, and a data dir without
syllables refused in one line."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from termeval.bin import prepare_gold, score_segmentation
from termeval.run.cli import run

PHN = "f1 0.0 0.5 a\nf1 0.5 1.0 b\nf2 0.0 0.6 c\n"
WRD = "f1 0.0 1.0 ab\nf2 0.0 0.6 c\n"
SYL = "f1 0.0 0.3 ba1\nf1 0.3 0.6 na0\nf1 0.6 1.0 ba2\nf2 0.0 0.6 na1\n"
# predicted: f1 boundaries 0.31 (hit of 0.3), 0.7 (miss); f2 one segment
SEG = "f1 0.0 0.31 x\nf1 0.31 0.7 y\nf1 0.7 1.0 x\nf2 0.0 0.6 y\n"


@pytest.fixture()
def toy(tmp_path, capsys):
    for name, text in (("g.phn", PHN), ("g.wrd", WRD), ("g.syl", SYL), ("seg.txt", SEG)):
        (tmp_path / name).write_text(text)
    with pytest.raises(SystemExit) as e:
        run(prepare_gold.main, ["--format", "zr", "--fill-gaps", "false", "--syllables", str(tmp_path / "g.syl"),
                                str(tmp_path / "g.phn"), str(tmp_path / "g.wrd"), str(tmp_path / "data")])
    assert e.value.code == 0, capsys.readouterr().err
    return tmp_path


def scores(exp) -> dict:
    with open(os.path.join(exp, "scores", "scores.json")) as f:
        return json.load(f)


def test_syllable_level_by_hand(toy):
    exp = toy / "exp"
    score_segmentation.main([str(toy / "data"), str(toy / "seg.txt"), str(exp), "--level", "syllable"])
    s = scores(exp)
    assert s["segmentation_syllable"]["level"] == "syllable" and (exp / "scores" / "segmentation_syllable").is_file()
    # internal boundaries: gold 0.3 0.6, predicted 0.31 0.7: 1 hit
    assert (s["syllable_boundary_precision"], s["syllable_boundary_recall"]) == (0.5, 0.5)
    # tokens: [0, .31] ~ [0, .3] hit, [.7, 1] misses [.6, 1], f2 [0, .6] exact: 2 of 4 predicted, 2 of 4 gold
    assert (s["syllable_token_precision"], s["syllable_token_recall"]) == (0.5, 0.5)
    # matched pairs: ba1-x, na0-y, ba2-x, na1-y: each cluster holds two labels once, each label one cluster
    assert s["syllable_matched_pairs"] == 4
    assert (s["syllable_purity"], s["cluster_purity"]) == (0.5, 1.0)
    assert s["snmi"] == pytest.approx(math_snmi())
    assert "syllable_segment_purity" in s and "word_purity" not in s


def math_snmi() -> float:
    import math     # why: only this expected value
    # table: ba1-x 1, ba2-x 1, na0-y 1, na1-y 1 -> I = log 2, H(L) = log 4
    return math.log(2) / math.log(4)


def test_jobs_and_missing_tier(toy, root, tmp_path):
    exp = tmp_path / "exp_jobs"
    args = [str(toy / "data"), str(toy / "seg.txt"), str(exp), "--level", "syllable"]
    for j in (1, 2):
        score_segmentation.main(args + ["--nj", "2", "--job", str(j)])
    score_segmentation.main(args + ["--merge", "2"])
    one = toy / "exp1"
    score_segmentation.main([str(toy / "data"), str(toy / "seg.txt"), str(one), "--level", "syllable"])
    a, b = scores(exp), scores(one)
    for key in ("syllable_boundary_fscore", "syllable_token_fscore", "syllable_purity", "cluster_purity", "snmi"):
        assert a[key] == b[key], key
    os.remove(toy / "data" / "syllables")
    p = subprocess.run([os.path.join(root, "steps", "score_segmentation.sh"), "--level", "syllable",
                        str(toy / "data"), str(toy / "seg.txt"), str(tmp_path / "exp2")], capture_output=True,
                       text=True, cwd=str(tmp_path))
    assert p.returncode == 1 and "needs a data dir prepared with steps/prepare_gold.sh --syllables" in p.stderr
    assert len(p.stderr.strip().splitlines()) <= 2    # the echoed command line, then the error
