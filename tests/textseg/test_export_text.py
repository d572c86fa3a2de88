"""utils/export_text.sh and utils/text_to_times.sh (termeval.textseg.export, .totimes): a data
dir -> gold/prepared texts -> a segmenter's text -> intervals and classes scored by
score_segmentation and score_tde's preparation."""
from __future__ import annotations

import os

import pytest

from termeval.bin import export_text, score_segmentation, text_to_times
from termeval.core.errors import InputError
from termeval.gold import prepare_zr

PHN = """f1 0.00 0.10 SIL
f1 0.10 0.30 tʃ
f1 0.30 0.50 a
f1 0.50 0.80 b
f1 0.80 1.00 SIL
f2 0.00 0.40 d
f2 0.40 0.90 iː
f3 0.00 0.50 SIL
"""
WRD = """f1 0.10 0.50 cha
f1 0.50 0.80 bee
f2 0.00 0.90 dee
"""


@pytest.fixture()
def data(tmp_path):
    (tmp_path / "x.phn").write_text(PHN, encoding="utf-8")
    (tmp_path / "x.wrd").write_text(WRD, encoding="utf-8")
    prepare_zr(str(tmp_path / "x.phn"), str(tmp_path / "x.wrd"), str(tmp_path / "data"))
    return tmp_path


def test_export_texts(data):
    export_text.main([str(data / "data"), str(data / "text")])
    t = data / "text"
    # f3 has no word: left out; SIL phones are in no word
    assert (t / "gold.txt").read_text(encoding="utf-8") == "tʃa b\ndiː\n"
    assert (t / "prepared.txt").read_text(encoding="utf-8") == "tʃ a b\nd iː\n"
    assert (t / "utt_phones").read_text(encoding="utf-8").splitlines() == [
        "f1 f1 tʃ 0.1 0.3 a 0.3 0.5 b 0.5 0.8", "f2 f2 d 0 0.4 iː 0.4 0.9"]
    export_text.main(["--words", "labels", str(data / "data"), str(data / "labels")])
    assert (data / "labels" / "gold.txt").read_text() == "cha bee\ndee\n"
    export_text.main(["--unit-sep", "-", str(data / "data"), str(data / "sep")])
    assert (data / "sep" / "gold.txt").read_text(encoding="utf-8") == "tʃ-a b\nd-iː\n"


def test_text_to_times_and_segmentation_score(data):
    export_text.main([str(data / "data"), str(data / "text")])
    (data / "seg.txt").write_text("tʃ ab\nd iː\n", encoding="utf-8")
    text_to_times.main([str(data / "text"), str(data / "seg.txt"), str(data / "times")])
    assert (data / "times" / "intervals").read_text(encoding="utf-8").splitlines() == [
        "f1 0.1 0.3 tʃ", "f1 0.3 0.8 ab", "f2 0 0.4 d", "f2 0.4 0.9 iː"]
    classes = (data / "times" / "classes").read_text(encoding="utf-8")
    assert classes.startswith("Class 1 ab\nf1 0.3 0.8\n\nClass 2 d\n")
    score_segmentation.main([str(data / "data"), str(data / "times" / "intervals"), str(data / "exp")])
    import json
    s = json.load(open(data / "exp" / "scores" / "scores.json"))
    # no token is right (cha/bee vs tʃ/ab, dee vs d/iː): 4 segments, 3 words
    assert s["word_token_precision"] == 0.0 and s["word_segments"] == 4


@pytest.mark.parametrize("seg,opts,message", [
    ("tʃ ab\nd\n", [], "seg.txt:2: the words end before the gold phones do"),
    ("tʃ abx\nd iː\n", [], "seg.txt:1: word 'abx' does not spell the next gold phones"),
    ("tʃ-a b\nd-i\n", ["--unit-sep", "-"], "seg.txt:2: unknown unit 'i' in word 'di'"),
    ("tʃ ab\n", [], "1 utterances (non-blank lines)"),
])
def test_text_to_times_bad_input(data, seg, opts, message):
    export_text.main([str(data / "data"), str(data / "text")])
    (data / "seg.txt").write_text(seg, encoding="utf-8")
    with pytest.raises(InputError) as e:
        text_to_times.main(opts + [str(data / "text"), str(data / "seg.txt"), str(data / "times")])
    assert message in str(e.value)
    assert not (data / "times").exists()


def _step(root, *args):
    import subprocess
    return subprocess.run([os.path.join(root, "utils", "text_to_times.sh"), *args], capture_output=True, text=True)


@pytest.mark.parametrize("bad", ["abc", "nan", "inf"])
def test_text_to_times_refuses_phone_times_that_are_not_numbers(data, root, bad):
    export_text.main([str(data / "data"), str(data / "text")])
    up = data / "text" / "utt_phones"
    up.write_text(up.read_text(encoding="utf-8").replace("0.4 0.9", f"0.4 {bad}"), encoding="utf-8")
    (data / "seg.txt").write_text("tʃ ab\nd iː\n", encoding="utf-8")
    r = _step(root, str(data / "text"), str(data / "seg.txt"), str(data / "times"))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    what = "is not a number" if bad == "abc" else "is not a finite number"
    assert [l for l in r.stderr.splitlines() if "error" in l] == [
        f"text_to_times.py: error: {up}:2: phone offset '{bad}' {what}"]
    assert not (data / "times").exists()


@pytest.mark.parametrize("sep", ["\x1f", "\x1c", "\x01", "\x85", "\u2028"])
def test_text_to_times_refuses_control_characters_as_separators(data, root, sep):
    """Words are separated by spaces or tabs only (str.split() would split on U+001F too)."""
    export_text.main([str(data / "data"), str(data / "text")])
    (data / "seg.txt").write_text(f"tʃ ab\nd{sep}iː\n", encoding="utf-8")
    r = _step(root, str(data / "text"), str(data / "seg.txt"), str(data / "times"))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    errors = [l for l in r.stderr.split("\n") if "error" in l]
    assert errors == [f"text_to_times.py: error: {data / 'seg.txt'}:2: holds the character U+{ord(sep):04X} "
                      "(a control character or separator): words are separated by spaces or tabs only"]
    assert not (data / "times").exists()
    # chosen as the unit separator, it is one
    (data / "seg.txt").write_text(f"tʃ a{sep}b\nd{sep}iː\n", encoding="utf-8")
    assert _step(root, "--unit-sep", sep, str(data / "text"), str(data / "seg.txt"), str(data / "times")).returncode == 0
