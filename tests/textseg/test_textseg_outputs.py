"""The outputs of the text segmentation steps: the --summary file and the exp dir's scores/ and
details/ behind the output guard (an input is never overwritten or deleted), --summary inside
the exp dir published with the scores, export_text and text_to_times whole or not at all."""
from __future__ import annotations

import json
import os

import pytest

from termeval.bin import export_text, score_text_segmentation as ste, text_to_times
from termeval.core.errors import InputError
from termeval.gold import prepare_zr

GOLD = "hello world\nthe baby is going home\n"
SEG = "hel lo world\nthebaby is go ing home\n"


@pytest.fixture()
def texts(tmp_path):
    (tmp_path / "gold.txt").write_text(GOLD)
    (tmp_path / "seg.txt").write_text(SEG)
    return tmp_path


def test_summary_equal_to_the_gold_is_refused(texts):
    gold, exp = texts / "gold.txt", texts / "exp"
    with pytest.raises(InputError) as e:
        ste.main(["--summary", str(gold), str(gold), str(texts / "seg.txt"), str(exp)])
    assert str(gold) in str(e.value) and "input" in str(e.value)
    assert gold.read_text() == GOLD and not exp.exists()


@pytest.mark.parametrize("sub", ["scores", "details"])
def test_an_input_inside_the_outputs_is_refused(texts, sub):
    exp = texts / "exp"
    (exp / sub).mkdir(parents=True)
    seg = exp / sub / "seg.txt"
    seg.write_text(SEG)
    with pytest.raises(InputError) as e:
        ste.main([str(texts / "gold.txt"), str(seg), str(exp)])
    assert str(seg) in str(e.value)
    assert seg.read_text() == SEG and sorted(os.listdir(exp)) == [sub]


@pytest.mark.parametrize("where", ["scores/summary.json", "details/text_segmentation/s.json", "summary.json",
                                   "sub/summary.json"])
def test_summary_inside_the_exp_dir_is_published_with_the_scores(texts, where, capsys):
    exp = texts / "exp"
    args = ["--summary", str(exp / where), str(texts / "gold.txt"), str(texts / "seg.txt"), str(exp)]
    for _ in range(2):                       # a re-run replaces it, it does not remove it
        ste.main(args)
        assert (exp / where).read_text() == (exp / "details" / "text_segmentation" / "summary.json").read_text()
    assert list(json.loads((exp / where).read_text())) == ["over", "under", "mis", "correct"]
    assert (exp / "scores" / "scores.json").is_file() and (exp / "scores" / "wordseg_eval.txt").is_file()
    assert not [n for n in os.listdir(exp) if n.startswith(".")]


def test_summary_outside_the_exp_dir_and_without_exp_dir(texts):
    import termeval
    ste.main(["--summary", str(texts / "out" / "s.json"), str(texts / "gold.txt"), str(texts / "seg.txt"),
              str(texts / "exp")])
    want = (texts / "exp" / "details" / "text_segmentation" / "summary.json").read_text()
    assert (texts / "out" / "s.json").read_text() == want
    termeval.score_text_segmentation(texts / "gold.txt", texts / "seg.txt", summary=texts / "api.json")
    assert (texts / "api.json").read_text() == want


def test_unit_sep_equal_to_word_sep_is_refused_when_parsing(texts, capsys):
    with pytest.raises(SystemExit) as e:
        ste.main(["--unit-sep", "-", "--word-sep", "-", str(texts / "gold.txt"), str(texts / "seg.txt"),
                  str(texts / "exp")])
    assert e.value.code == 2
    assert "error: --unit-sep and --word-sep are both '-'" in capsys.readouterr().err
    assert not (texts / "exp").exists()


# ---- export_text, text_to_times ----------------------------------------------------------------

PHN = "f1 0.00 0.10 SIL\nf1 0.10 0.30 a\nf1 0.30 0.50 b\nf2 0.00 0.40 c\n"
WRD = "f1 0.10 0.30 x\nf1 0.30 0.50 y\nf2 0.00 0.40 z\n"


@pytest.fixture()
def data(tmp_path):
    (tmp_path / "x.phn").write_text(PHN)
    (tmp_path / "x.wrd").write_text(WRD)
    prepare_zr(str(tmp_path / "x.phn"), str(tmp_path / "x.wrd"), str(tmp_path / "data"))
    export_text.main([str(tmp_path / "data"), str(tmp_path / "text")])
    return tmp_path


def test_segmented_text_at_an_output_path_is_refused(data):
    out = data / "times"
    out.mkdir()
    (out / "classes").write_text("ab\nc\n")
    with pytest.raises(InputError) as e:
        text_to_times.main([str(data / "text"), str(out / "classes"), str(out)])
    assert str(out / "classes") in str(e.value)
    assert (out / "classes").read_text() == "ab\nc\n" and sorted(os.listdir(out)) == ["classes"]
    (data / "seg.txt").write_text("ab\nc\n")
    text_to_times.main([str(data / "text"), str(data / "seg.txt"), str(out)])
    assert (out / "intervals").read_text() == "f1 0.1 0.5 ab\nf2 0 0.4 c\n"
    assert sorted(os.listdir(out)) == ["classes", "intervals"]


def test_export_input_at_an_output_path_is_refused(data):
    segs = data / "text" / "utt_phones"
    before = segs.read_text()
    with pytest.raises(InputError) as e:
        export_text.main(["--segments", str(segs), str(data / "data"), str(data / "text")])
    assert str(segs) in str(e.value) and segs.read_text() == before


@pytest.mark.parametrize("step", ["export_text", "text_to_times"])
def test_outputs_appear_whole_or_not_at_all(data, monkeypatch, step):
    from termeval.textseg import export, totimes
    mod = export if step == "export_text" else totimes

    def broken(out_dir, *a):
        with open(os.path.join(out_dir, mod.OUTPUTS[0]), "w") as f:
            f.write("half\n")
        raise OSError("disk full")
    monkeypatch.setattr(mod, "_write", broken)
    (data / "seg.txt").write_text("ab\nc\n")
    args = ([str(data / "data"), str(data / "new")] if step == "export_text"
            else [str(data / "text"), str(data / "seg.txt"), str(data / "new")])
    with pytest.raises(OSError):
        (export_text if step == "export_text" else text_to_times).main(args)
    assert not [n for n in os.listdir(data / "new") if not n.startswith(".termeval")]
