"""The bad inputs of issue 40 (items 11-14) through the API: termeval.InputError carrying the
line the step prints after `<step>: error: `, for the same input, its options named as Python
arguments (issue 40 item 17: `format='kaldi'`, not `--format kaldi`)."""
from __future__ import annotations

import os
import subprocess

import pytest

import termeval


def step_error(root, script, *argv, cwd) -> str:
    r = subprocess.run([os.path.join(root, script), *map(str, argv)], capture_output=True, text=True, cwd=cwd)
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
    errors = [line for line in r.stderr.splitlines() if ": error: " in line]
    assert len(errors) == 1, r.stderr
    return errors[0].split(": error: ", 1)[1]


def test_std_empty_detection_list_and_empty_kwtext(example, tmp_path, root):
    kws = os.path.join(example, "data/local/example_std/kws")
    (tmp_path / "det.xml").write_text("")
    with pytest.raises(termeval.InputError) as e:
        termeval.score_std(kws, tmp_path / "det.xml")
    assert str(e.value) == step_error(root, "steps/score_std.sh", kws, tmp_path / "det.xml", tmp_path / "e1",
                                      cwd=tmp_path).replace("--format kaldi", "format='kaldi'")
    assert "empty file: not a detection list" in str(e.value)
    bad = tmp_path / "kws"
    bad.mkdir()
    for name in os.listdir(kws):
        text = open(os.path.join(kws, name), encoding="utf-8").read()
        (bad / name).write_text(text.replace("<termtext>river</termtext>", "<termtext></termtext>"))
    det = os.path.join(example, "data/local/example_std/detections.stdlist.xml")
    with pytest.raises(termeval.InputError) as e:
        termeval.score_std(bad, det)
    assert str(e.value) == step_error(root, "steps/score_std.sh", bad, det, tmp_path / "e2", cwd=tmp_path)
    assert str(e.value).startswith(f"{bad}/tlist.xml:4: term 'q002': empty <termtext>")


def test_std_exponential_term_attr(example, tmp_path, monkeypatch):
    from termeval.std import userregex
    monkeypatch.setattr(userregex, "MATCH_SECONDS", 0.2)
    kws = os.path.join(example, "data/local/example_std/kws")
    long = tmp_path / "kws"         # a term whose NGram is 60 digits long
    long.mkdir()
    for name in os.listdir(kws):
        text = open(os.path.join(kws, name), encoding="utf-8").read()
        (long / name).write_text(text.replace("<value>1</value>", "<value>" + "1" * 60 + "</value>", 1))
    det = os.path.join(example, "data/local/example_std/detections.stdlist.xml")
    with pytest.raises(termeval.InputError, match=r"^term_attr: the regular expression '\(1\|11\)\+!' took over 0.2 s"):
        termeval.score_std(long, det, term_attr="NGram:(1|11)+!")


def test_text_segmentation_control_character(tmp_path, root):
    (tmp_path / "gold.txt").write_text("ab cd\nef gh\n")
    (tmp_path / "seg.txt").write_text("ab cd\nef\x1fgh\n")
    with pytest.raises(termeval.InputError) as e:
        termeval.score_text_segmentation(tmp_path / "gold.txt", tmp_path / "seg.txt")
    assert str(e.value) == step_error(root, "steps/score_text_segmentation.sh", "gold.txt", "seg.txt", "exp",
                                      cwd=tmp_path).replace("seg.txt", str(tmp_path / "seg.txt"), 1) \
        .replace("--word-sep", "word_sep")
    assert str(e.value) == f"{tmp_path}/seg.txt:2: holds the character U+001F (a control character or separator): " \
                           "words are separated by spaces or tabs (or word_sep)"
