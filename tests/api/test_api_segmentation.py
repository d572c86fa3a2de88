"""The segmentation functions of the Python API (score_segmentation, score_text_segmentation,
export_text, text_to_times): built from the steps' Options, the command line's results, errors
naming the argument."""
from __future__ import annotations

import inspect
import json
import os

import pytest

import termeval
from termeval import command

GOLD = "hello world\nthe baby is going home\n"
SEG = "hel lo world\nthebaby is go ing home\n"
PREP = "h e l l o w o r l d\nt h e b a b y i s g o i n g h o m e\n"


def test_exported_and_documented():
    from termeval import api
    for name in ("score_segmentation", "score_text_segmentation", "export_text", "text_to_times"):
        assert name in termeval.__all__ and name in api.__all__
    sig = inspect.signature(termeval.score_segmentation).parameters
    assert sig["tolerance"].default == 0.02 and sig["bootstrap_unit"].default == "file"
    assert "compat (str, default 'none')" in termeval.score_segmentation.__doc__
    assert inspect.signature(termeval.score_text_segmentation).parameters["word_sep"].default is None
    assert inspect.signature(termeval.export_text).parameters["words"].default == "phones"
    assert inspect.signature(termeval.text_to_times).parameters["unit_sep"].default is None


def test_text_segmentation_equals_the_command(tmp_path):
    for name, text in (("gold.txt", GOLD), ("seg.txt", SEG), ("prep.txt", PREP)):
        (tmp_path / name).write_text(text)
    args = [str(tmp_path / "gold.txt"), str(tmp_path / "seg.txt")]
    assert command.main(["score-text-segmentation", "--prepared", str(tmp_path / "prep.txt"), *args,
                         str(tmp_path / "cmd")]) == 0
    want = json.loads((tmp_path / "cmd" / "scores" / "scores.json").read_text())
    got = termeval.score_text_segmentation(*args, prepared=tmp_path / "prep.txt", exp_dir=tmp_path / "api")
    assert got["wordseg_eval"] == (tmp_path / "cmd" / "scores" / "wordseg_eval.txt").read_text()

    def same(a, b):
        skip = {"stages", "command", "wordseg_eval", "text_segmentation"}
        return {k: v for k, v in a.items() if k not in skip} == {k: v for k, v in b.items() if k not in skip}
    assert same(got, want) and got["text_adjusted_rand_index"] == want["text_adjusted_rand_index"]
    assert same(termeval.score_text_segmentation(*args, prepared=str(tmp_path / "prep.txt")), want)
    for f in ("wordseg_eval.txt", "text_segmentation"):
        assert (tmp_path / "api" / "scores" / f).read_bytes() == (tmp_path / "cmd" / "scores" / f).read_bytes()


def test_export_and_times_equal_the_command(example, tmp_path):
    data = os.path.join(example, "data/example")
    assert command.main(["export-text", data, str(tmp_path / "cmd")]) == 0
    r = termeval.export_text(data, tmp_path / "api")
    assert r["utterances"] > 0 and r["gold"] == os.path.join(tmp_path / "api", "gold.txt")
    for f in ("gold.txt", "prepared.txt", "utt_phones"):
        assert (tmp_path / "api" / f).read_bytes() == (tmp_path / "cmd" / f).read_bytes()
    # the phones as one word each: a segmented text that spells the gold
    (tmp_path / "seg.txt").write_text((tmp_path / "api" / "prepared.txt").read_text())
    assert command.main(["text-to-times", str(tmp_path / "cmd"), str(tmp_path / "seg.txt"), str(tmp_path / "tc")]) == 0
    t = termeval.text_to_times(tmp_path / "api", tmp_path / "seg.txt", tmp_path / "ta")
    assert t["words"] == len((tmp_path / "ta" / "intervals").read_text().splitlines())
    for f in ("intervals", "classes"):
        assert (tmp_path / "ta" / f).read_bytes() == (tmp_path / "tc" / f).read_bytes()
    s = termeval.score_segmentation(data, t["intervals"], level="phone")
    assert s["phone_boundary_fscore"] == 1.0


def test_errors_name_the_argument(example, tmp_path):
    data = os.path.join(example, "data/example")
    cls = os.path.join(example, "data/local/example/classes/example.classes")
    with pytest.raises((TypeError, termeval.InputError), match="segmentation"):
        termeval.score_segmentation(data, {"f1": [(0.0, 0.1)]})
    with pytest.raises(TypeError, match="tolerance"):
        termeval.score_segmentation(data, cls, tolerance="0.02")
    with pytest.raises(termeval.InputError, match=r"^tolerance: must be >= 0, got '-1.0'$"):
        termeval.score_segmentation(data, cls, tolerance=-1)
    with pytest.raises(termeval.InputError, match=r"^tolerance: is in seconds: 20 s is not a boundary tolerance \(20 ms is tolerance=0.02"):
        termeval.score_segmentation(data, cls, tolerance=20)
    with pytest.raises(termeval.InputError, match=r"^score_segmentation: unknown option 'tolerence'"):
        termeval.score_segmentation(data, cls, tolerence=0.02)
    (tmp_path / "g.txt").write_text(GOLD)
    with pytest.raises(termeval.InputError, match=r"^unit_sep and word_sep are both '-'$"):
        termeval.score_text_segmentation(tmp_path / "g.txt", tmp_path / "g.txt", unit_sep="-", word_sep="-")
    with pytest.raises(TypeError, match="gold_text"):
        termeval.score_text_segmentation(["hello world"], tmp_path / "g.txt")
    with pytest.raises(termeval.InputError, match=r"^words: invalid choice: 'x'"):
        termeval.export_text(data, tmp_path / "e", words="x")
    assert not (tmp_path / "e").exists()
    # None is the default
    a, b = termeval.score_segmentation(data, cls, tolerance=None), termeval.score_segmentation(data, cls)
    assert a.pop("stages") and b.pop("stages") and a == b
