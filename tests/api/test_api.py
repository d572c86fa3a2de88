"""The Python API (termeval/api.py): values, inputs as paths or rows, exp_dir, errors, memo."""
from __future__ import annotations

import json
import os
import tempfile

import pytest

import termeval
from termeval import api_inputs
from termeval import command
from termeval.core import datadir as data

PH = [(f, a, b, lab) for f in ("a", "b") for a, b, lab in ((0.0, 0.1, "x"), (0.1, 0.2, "y"), (0.2, 0.3, "z"))]
WD = [(f, a, b, lab) for f in ("a", "b") for a, b, lab in ((0.0, 0.2, "xy"), (0.2, 0.3, "z"))]
TIMING = {"stages", "command"}       # when/how it ran, not what it scored


def same(a: dict, b: dict) -> bool:
    return {k: v for k, v in a.items() if k not in TIMING} == {k: v for k, v in b.items() if k not in TIMING}


def test_tiny_case_by_hand():
    # two files "x y | z"; one class of the two "x y" words
    r = termeval.score_tde((PH, WD), [[("a", 0.0, 0.2), ("b", 0.0, 0.2)]])
    assert r["benchmark"] == "zrc2020"
    assert r["ned"] == 0.0 and r["ned_pairs"] == 1
    assert r["coverage"] == 4 / 6                        # 4 of 6 phones covered
    assert (r["token_precision"], r["token_recall"]) == (1.0, 0.5)      # 2 of 4 word tokens
    assert (r["type_precision"], r["type_recall"]) == (1.0, 0.5)        # xy of {xy, z}
    assert (r["boundary_precision"], r["boundary_recall"]) == (1.0, 4 / 6)
    assert r["grouping_fscore"] == 1.0
    assert "ci" not in r


def test_gold_as_dir_files_rows_or_prepared_give_the_same_scores(example, tmp_path):
    ex = os.path.join(example, "data/local/example")
    phn, wrd = f"{ex}/zr/example.phn", f"{ex}/zr/example.wrd"
    cls = f"{ex}/classes/example.classes"
    ref = termeval.score_tde(os.path.join(example, "data/example"), cls)
    g = termeval.prepare_gold(phn, wrd)
    assert g.summary.startswith("24 files, 4 speakers")
    rows = []
    for block in open(cls).read().strip().split("\n\n"):
        rows.append([(f, float(a), float(b)) for f, a, b in (ln.split() for ln in block.strip().split("\n")[1:])])
    for gold, classes in (((phn, wrd), cls), (g, cls), ((g.rows("phones"), g.rows("words")), rows),
                          ({"phones": g.rows("phones"), "words": g.rows("words")}, cls)):
        assert same(termeval.score_tde(gold, classes), ref)
    assert 0 < ref["ned"] < 1 and ref["classes_written"] == 40
    # prepare_gold(data_dir=) writes what the step writes
    termeval.prepare_gold(phn, wrd, data_dir=tmp_path / "gold")
    for f in ("phones", "words", "utt2spk", "spk2utt", "reco2dur"):
        assert (tmp_path / "gold" / f).read_bytes() == open(os.path.join(example, "data/example", f), "rb").read()


def test_exp_dir_gets_the_files_of_the_command(example, tmp_path, capsys):
    ex = os.path.join(example, "data/local/example")
    args = [os.path.join(example, "data/example"), f"{ex}/classes/example.classes"]
    assert command.main(["score-tde", "--bootstrap", "50", *args, str(tmp_path / "cmd")]) == 0
    r = termeval.score_tde(*args, exp_dir=tmp_path / "api", bootstrap=50)
    with open(tmp_path / "api" / "scores" / "scores.json") as f:
        assert json.load(f) == r
    assert set(r["ci"]) >= {"ned", "coverage", "boundary_fscore"}
    for sub in ("scores", "details"):
        names = sorted(os.listdir(tmp_path / "cmd" / sub))
        assert names == sorted(os.listdir(tmp_path / "api" / sub)) and names
        for n in names:
            if n != "scores.json":
                assert (tmp_path / "cmd" / sub / n).read_bytes() == (tmp_path / "api" / sub / n).read_bytes(), n
    printed = capsys.readouterr()
    assert "matching: ned " in printed.out + printed.err  # the score lines of steps/score_tde.sh


def snapshot(*dirs) -> dict:
    return {d: sorted(os.listdir(d)) for d in dirs}


def test_without_exp_dir_nothing_is_written(example, tmp_path, monkeypatch):
    # the temp dir is private (the machine's /tmp is shared with other processes); the cwd too
    (tmp_path / "tmp").mkdir()
    (tmp_path / "cwd").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    monkeypatch.chdir(tmp_path / "cwd")
    ex = os.path.join(example, "data/local/example")
    std = os.path.join(example, "data/local/example_std")
    before = snapshot(tmp_path / "cwd", tmp_path / "tmp", example, ex)
    termeval.score_tde((PH, WD), [[("a", 0.0, 0.2), ("b", 0.0, 0.2)]], bootstrap=10)
    termeval.score_tde((f"{ex}/zr/example.phn", f"{ex}/zr/example.wrd"), f"{ex}/classes/example.classes",
                       benchmark="zr2017", folds="none")
    termeval.score_segmentation(os.path.join(example, "data/example"), f"{ex}/classes/example.classes")
    termeval.score_std(f"{std}/kws", f"{std}/detections.stdlist.xml")
    termeval.score_quesst(f"{std}/kws", f"{std}/detections.stdlist.xml")
    assert snapshot(tmp_path / "cwd", tmp_path / "tmp", example, ex) == before == {
        tmp_path / "cwd": [], tmp_path / "tmp": [], **{d: before[d] for d in (example, ex)}}


def test_std_quesst_segmentation_zr2017_equal_the_command(example, tmp_path, capsys):
    ex = os.path.join(example, "data/local/example")
    std = os.path.join(example, "data/local/example_std")
    gold = os.path.join(example, "data/example")
    cls = f"{ex}/classes/example.classes"
    cases = [
        ("score-std", ["--preset", "nist2006", "--breakdown", "ngram,freq", "--plots", "false"],
         [f"{std}/kws", f"{std}/detections.kwslist.xml"],
         lambda e: termeval.score_std(f"{std}/kws", f"{std}/detections.kwslist.xml", exp_dir=e, preset="nist2006",
                                      breakdown=["ngram", "freq"], plots=False)),
        ("score-quesst", ["--default-score=-10"], [f"{std}/kws", f"{std}/detections.stdlist.xml"],
         lambda e: termeval.score_quesst(f"{std}/kws", f"{std}/detections.stdlist.xml", exp_dir=e, default_score=-10)),
        ("score-segmentation", ["--tolerance", "0.03"], [gold, cls],
         lambda e: termeval.score_segmentation(gold, cls, exp_dir=e, tolerance=0.03)),
    ]
    for i, (step, opts, args, api_call) in enumerate(cases):
        assert command.main([step, *opts, *args, str(tmp_path / f"c{i}")]) == 0, step
        with open(tmp_path / f"c{i}" / "scores" / "scores.json") as f:
            want = json.load(f)
        assert same(api_call(None), want), step
        assert same(api_call(str(tmp_path / f"a{i}")), want), step
    std_r = termeval.score_std(f"{std}/kws", f"{std}/detections.kwslist.xml", preset="nist2006", plots=False)
    assert std_r["benchmark"] == "nist2006" and -1 < std_r["atwv"] <= std_r["mtwv"] <= 1
    nosil = termeval.prepare_gold(f"{ex}/zr/example.phn", f"{ex}/zr/example.wrd", **termeval.api.TDE15_GOLD)
    z = termeval.score_tde(nosil, cls, benchmark="zr2017", folds="none")
    assert z["benchmark"] == "zr2017" and z["cross_ned_nfolds"] == 1 and 0 < z["cross_ned"] < 1
    assert same(termeval.score_tde((f"{ex}/zr/example.phn", f"{ex}/zr/example.wrd"), cls, benchmark="zr2017",
                                   folds="none"), z)   # raw gold: the SIL-less preparation by default


def test_compare_systems(two_systems, tmp_path):
    before = snapshot(tmp_path)
    c = termeval.compare_systems([tmp_path / "a", tmp_path / "b"], bootstrap=200, seed=3)
    assert snapshot(tmp_path) == before
    c2 = termeval.compare_systems([tmp_path / "a", tmp_path / "b"], out_dir=tmp_path / "cmp", bootstrap=200, seed=3)
    assert c == c2 and (tmp_path / "cmp" / "RESULTS.compare.md").is_file()
    with pytest.raises(termeval.InputError, match="^bootstrap: "):
        termeval.compare_systems([tmp_path / "a", tmp_path / "b"], bootstrap=-1)


def test_bad_input_raises_input_error_with_the_step_line(example):
    gold = os.path.join(example, "data/example")
    cls = os.path.join(example, "data/local/example/classes/example.classes")
    with pytest.raises(termeval.InputError, match=r"^nj: must be a positive integer, got '0'$"):
        termeval.score_tde(gold, cls, nj=0)
    with pytest.raises(termeval.InputError, match=r"^score_std: unknown option 'presets' \(options: .*preset"):
        termeval.score_std(gold, cls, presets="x")
    with pytest.raises(termeval.InputError, match=r"^preset: invalid choice: 'x'"):
        termeval.score_std(gold, cls, preset="x")
    with pytest.raises(termeval.InputError, match=r"^/nowhere: no such file or directory$"):
        termeval.score_tde("/nowhere", cls)
    with pytest.raises(termeval.InputError, match=r"^phones\[1\]: .*overlaps 0..1 \(phones\[0\]\)$"):
        termeval.score_tde(([("a", 0, 1, "x"), ("a", 0.5, 0.7, "y")], [("a", 0, 1, "w")]), [[("a", 0, 1)]])
    with pytest.raises(termeval.InputError, match=r"^classes\[0\]\[1\]: expected a number, got 'x'$"):
        termeval.score_tde((PH, WD), [[("a", 0, 0.1), ("a", 0, "x")]])
    with pytest.raises(termeval.InputError, match=r"^classes\[1\]\[0\]: .*unknown file"):
        termeval.score_tde((PH, WD), [[("a", 0, 0.1), ("b", 0, 0.1)], [("nofile", 0, 1)]])
    with pytest.raises(termeval.InputError, match=r"^phones\[0\]: expected a row \(file, onset, offset, label\)"):
        termeval.prepare_gold([("a", 0, 1)], WD)


def test_gold_is_prepared_and_parsed_once_per_process(monkeypatch):
    from termeval.gold import texts as step
    calls = {"prepare": 0, "parse": 0}
    prep, parse = step.prepare_texts, data._parse_gold

    def counting_prepare(*a):
        calls["prepare"] += 1
        return prep(*a)

    def counting_parse(*a):
        calls["parse"] += 1
        return parse(*a)
    monkeypatch.setattr(step, "prepare_texts", counting_prepare)
    monkeypatch.setattr(data, "_parse_gold", counting_parse)
    ph = [(f"memo{f}", a, b, lab) for f, a, b, lab in PH]      # content no other test prepared
    wd = [(f"memo{f}", a, b, lab) for f, a, b, lab in WD]
    res = [termeval.score_tde((list(ph), list(wd)), [[("memoa", 0.0, 0.2), ("memob", 0.0, 0.1 * k)]])
           for k in (1, 2, 3)]
    assert calls == {"prepare": 1, "parse": 1}
    assert [r["ned"] for r in res] == [0.5, 0.0, 1 / 3]     # "x y" against "x", "x y", "x y z"
    assert data.gold_memo is None                        # the memo is on only inside an API call
    ph[0] = ("memoa", 0.0, 0.1, "q")                     # other content: prepared again
    termeval.score_tde((ph, wd), [[("memoa", 0.0, 0.2), ("memob", 0.0, 0.2)]])
    assert calls == {"prepare": 2, "parse": 2}
    assert len(api_inputs._prepared) <= api_inputs.PREPARED_MEMO_SIZE


def test_wrong_argument_shapes_name_the_argument(example, tmp_path):
    """issue 31: a dict of rows, an exp_dir that is a file, a gold dict without words, one
    system as a string: each an InputError (or TypeError) naming the argument."""
    gold = os.path.join(example, "data/example")
    cls = os.path.join(example, "data/local/example/classes/example.classes")
    with pytest.raises(TypeError, match=r"^segmentation: expected a path, rows .* got dict$"):
        termeval.score_segmentation(gold, {"u1": [("u1", 0, 1)]})
    (tmp_path / "f").write_text("x")
    with pytest.raises(termeval.InputError, match=r"/f: exp_dir: exists and is not a directory$"):
        termeval.score_tde(gold, cls, exp_dir=tmp_path / "f")
    with pytest.raises(termeval.InputError, match=r"/f/x: exp_dir: .*/f is not a directory$"):
        termeval.score_tde(gold, cls, exp_dir=tmp_path / "f" / "x")
    with pytest.raises(termeval.InputError, match=r"^gold: a dict needs 'words' too"):
        termeval.score_tde({"phones": PH}, [[("a", 0, 0.1), ("a", 0.1, 0.2)]])
    with pytest.raises(TypeError, match=r"^systems: expected a list of exp dirs, got str 'exp/a' \(one system"):
        termeval.compare_systems("exp/a")
    with pytest.raises(TypeError, match=r"^systems\[1\]: expected a path, got int"):
        termeval.compare_systems(["exp/a", 3])
    with pytest.raises(termeval.InputError, match=r"out_dir: exists and is not a directory"):
        termeval.compare_systems(["exp/a", "exp/b"], out_dir=tmp_path / "f")
