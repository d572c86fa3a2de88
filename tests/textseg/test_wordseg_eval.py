"""score_text_segmentation (termeval.textseg): wordseg-eval's measures against hand-computed
cases, its output format, the summary, --nj, multi-character units, bad input; and, when
$WORDSEG_DIR points to a checkout of bootphon/wordseg, against its own evaluate/summary."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from fractions import Fraction

import pytest

from termeval.bin import score_text_segmentation as ste
from termeval.core.errors import InputError
from termeval.textseg import rand, summary
from termeval.textseg.lexicon import type_counts

GOLD = "hello world\nthe baby is going home\n\na b c\n"
SEG = "hel lo world\nthebaby is go ing home\n\nab c\n"
PREP = "h e l l o w o r l d\nt h e b a b y i s g o i n g h o m e\na b c\n"


def write(tmp_path, **files):
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return {k: str(tmp_path / k) for k in files}


def score(tmp_path, gold, seg, *opts, exp="exp"):
    p = write(tmp_path, **{"gold.txt": gold, "seg.txt": seg})
    exp = str(tmp_path / exp)
    ste.main([*opts, p["gold.txt"], p["seg.txt"], exp])
    with open(os.path.join(exp, "scores", "scores.json")) as f:
        return json.load(f), exp


def test_hand_computed(tmp_path, capsys):
    prep = write(tmp_path, **{"prep.txt": PREP})["prep.txt"]
    s, exp = score(tmp_path, GOLD, SEG, "--prepared", prep)
    # tokens: world, is, home, c of 10 segmented and 10 gold words; types: the same 4 of 10 and 10
    assert s["text_token_precision"] == s["text_token_recall"] == s["text_token_fscore"] == 0.4
    assert s["text_type_precision"] == s["text_type_recall"] == 0.4
    # boundaries with edges: {0,5,10}/{0,3,5,10}, {0,3,7,9,14,18}/{0,7,9,11,14,18}, {0,1,2,3}/{0,2,3}
    assert s["text_boundary_all_precision"] == 11 / 13 and s["text_boundary_all_recall"] == 11 / 13
    # inner boundaries: {5}/{3,5}, {3,7,9,14}/{7,9,11,14}, {1,2}/{2}: 5 of 7 and 7
    assert s["text_boundary_noedge_precision"] == 5 / 7 == s["text_boundary_noedge_fscore"]
    # ARI over 31 units: sum overlap^2 99, gold lengths^2 123, segmented^2 125
    tp, fp, fn = 99 - 31, 125 - 99, 123 - 99
    tn = 31 * 31 - fp - fn - 99
    ari = Fraction(2 * (tp * tn - fn * fp), (tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))
    assert s["text_adjusted_rand_index"] == pytest.approx(float(ari), abs=1e-15)
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "token_precision\t0.4", "token_recall\t0.4", "token_fscore\t0.4",
        "type_precision\t0.4", "type_recall\t0.4", "type_fscore\t0.4",
        "boundary_all_precision\t0.8462", "boundary_all_recall\t0.8462", "boundary_all_fscore\t0.8462",
        "boundary_noedge_precision\t0.7143", "boundary_noedge_recall\t0.7143", "boundary_noedge_fscore\t0.7143",
        "adjusted_rand_index\t0.7013"]
    assert open(os.path.join(exp, "scores", "wordseg_eval.txt")).read() == out
    rows = open(os.path.join(exp, "details", "text_segmentation", "per_utterance.tsv")).read().splitlines()
    assert [r.split("\t")[0] for r in rows[1:]] == ["1", "2", "4", "TOTAL"]
    assert rows[-1].split("\t")[1:10] == ["4", "10", "10", "11", "13", "13", "5", "7", "7"]


def test_undefined_is_none(tmp_path, capsys):
    # one word per utterance everywhere: no inner boundary at all
    s, _ = score(tmp_path, "ab\ncd\n", "ab\ncd\n")
    assert s["text_boundary_noedge_precision"] is None and s["text_boundary_noedge_fscore"] is None
    lines = dict(l.split("\t") for l in capsys.readouterr().out.splitlines())
    assert lines["boundary_noedge_recall"] == "None" and lines["token_fscore"] == "1"
    assert "adjusted_rand_index" not in lines


def test_summary_file(tmp_path):
    summ = str(tmp_path / "summary.json")
    score(tmp_path, GOLD + "a b c\n", SEG + "a bc\n", "--summary", summ)
    d = json.loads(open(summ).read())
    assert list(d) == ["over", "under", "mis", "correct"]
    assert d["over"] == {"going": 1, "hello": 1}
    # "the baby" -> "thebaby", "a b" -> "ab"; "b c" -> "bc"
    assert d["under"] == {"a": 1, "b": 2, "baby": 1, "c": 1, "the": 1}
    assert d["correct"] == {"a": 1, "c": 1, "home": 1, "is": 1, "world": 1}
    assert d["mis"] == {}
    assert summary.classify(2, 2) == "mis" and summary.classify(2, 3) == "mis"


def test_mis_segmentation_chunk():
    out = summary.summarize([["a", "bc", "d"]], [["ab", "cd"]])
    assert out["mis"] == {"ab": 1, "cd": 1} and not out["correct"]


def test_nj_equals_one_process(tmp_path, capsys):
    gold = "".join(f"{'ab cd e' if i % 2 else 'x yz'}\n" for i in range(30))
    seg = "".join(f"{'a bcd e' if i % 3 else 'abcd e'}\n" if i % 2 else "xyz\n" for i in range(30))
    one, e1 = score(tmp_path, gold, seg, exp="e1")
    from termeval.run import driver as jobs
    for j in (1, 2, 3):
        ste.main(["--nj", "3", "--job", str(j), "--run-id", "r", str(tmp_path / "gold.txt"),
                  str(tmp_path / "seg.txt"), str(tmp_path / "e3")])
    ste.main(["--merge", "3", "--run-id", "r", str(tmp_path / "gold.txt"), str(tmp_path / "seg.txt"),
              str(tmp_path / "e3")])
    three = json.load(open(tmp_path / "e3" / "scores" / "scores.json"))
    for k, v in one.items():
        if k.startswith("text_") and k != "text_segmentation":
            assert three[k] == v, k
    assert jobs  # the protocol module the step runs on


def test_type_placeholder_compat():
    # wordseg's '_' placeholder: never counted, matched against its own placeholders
    assert type_counts({"_", "a"}, {"a", "b"}) == (1, 2, 2)
    assert type_counts({"_", "a"}, {"a", "b"}, "wordseg") == (2, 1, 2)
    assert type_counts({"a"}, {"a", "_"}, "wordseg") == (2, 1, 1)
    assert type_counts({"a", "c"}, {"a", "_"}, "wordseg") == (1, 2, 1)


def test_type_placeholder_above_one(tmp_path):
    # wordseg-eval prints type_precision 2 for this text (checked against bootphon/wordseg 322a5cc)
    s, _ = score(tmp_path, "_ aaa_\n", "_ aaa_\n", "--compat", "wordseg")
    assert s["text_type_precision"] == s["text_type_recall"] == s["text_type_fscore"] == 2.0
    s, _ = score(tmp_path, "_ aaa_\n", "_ aaa_\n", exp="e2")
    assert s["text_type_precision"] == s["text_type_recall"] == 1.0


def test_rand_index_identical_and_split():
    assert rand.adjusted_rand_index(*rand.utterance_sums([2, 3], [2, 3])) == 1.0
    # sklearn: adjusted_rand_score([0, 0, 0, 0], [0, 1, 2, 3]) == 0.0
    assert rand.adjusted_rand_index(*rand.utterance_sums([4], [1, 1, 1, 1])) == 0.0
    assert rand.word_lengths(["ab", "c"], ["a", "bc"]) is None
    assert rand.word_lengths(["juː", "noʊ"], ["j", "uː", "n", "oʊ"]) == [2, 2]


def test_multicharacter_units(tmp_path, capsys):
    gold = "j-uː n-oʊ dʒ-ʌ-s-t\n"
    seg = "j-uː-n-oʊ dʒ-ʌ s-t\n"
    s, _ = score(tmp_path, gold, seg, "--unit-sep", "-")
    # words juː noʊ dʒʌst vs juːnoʊ dʒʌ st: no token correct; inner boundaries {3,6} vs {6,8}
    assert s["text_token_precision"] == 0.0 and s["text_boundary_noedge_precision"] == 0.5
    assert s["text_boundary_noedge_recall"] == 0.5
    # the same text written the wordseg way (units together) scores the same
    s2, _ = score(tmp_path, "juː noʊ dʒʌst\n", "juːnoʊ dʒʌ st\n", exp="e2")
    names = [k for k in s if k.startswith("text_") and k != "text_segmentation"]
    assert len(names) == 12 and [s2[k] for k in names] == [s[k] for k in names]


@pytest.mark.parametrize("gold,seg,prep,opts,message", [
    ("a b\nc d\n", "ab\n", None, (), "seg.txt:1: 1 lines, the gold"),
    ("a b\nc d\n", "ab\nce\n", None, (), "seg.txt:2: the units differ from the gold"),
    ("a b\n\nc d\n", "ab\nc\ncd\n", None, (), "seg.txt:2: line has words, the gold line is blank"),
    ("a b\nc\n", "ab\n\nc\n", None, ("--compat", "wordseg"), None),
    ("j-uː n\n", "j-uX n\n", None, ("--unit-sep", "-"), "seg.txt:1: unit 2 is 'uX'"),
    ("juː n\n", "ju ːn\n", "j uː n\n", (), "seg.txt:1: word 'ju' ends inside a unit"),
    ("ab\n", "a b\n", "ab c\n", (), "prep.txt:1: the units do not spell"),
    # issue 40 item 14: a control character between two words is no word separator
    ("a b\nc d\n", "ab\nc\x1fd\n", None, (), "seg.txt:2: holds the character U+001F (a control character"),
    ("a b\nc\x1cd\n", "ab\ncd\n", None, ("--compat", "wordseg"), "gold.txt:2: holds the character U+001C"),
    ("a b\n", "a b\n", "a\x85b\n", (), "prep.txt:1: holds the character U+0085"),
])
def test_bad_input(tmp_path, gold, seg, prep, opts, message):
    p = write(tmp_path, **{"gold.txt": gold, "seg.txt": seg})
    args = list(opts)
    if prep is not None:
        args += ["--prepared", write(tmp_path, **{"prep.txt": prep})["prep.txt"]]
    exp = tmp_path / "exp"
    if message is None:      # wordseg drops blank lines independently: the texts pair up
        ste.main(args + [p["gold.txt"], p["seg.txt"], str(exp)])
        return
    with pytest.raises(InputError) as e:
        ste.main(args + [p["gold.txt"], p["seg.txt"], str(exp)])
    assert message in str(e.value)
    assert not (exp / "scores").exists()


def test_step_one_line_error(tmp_path, root):
    p = write(tmp_path, **{"gold.txt": "a b\n", "seg.txt": "a c\n"})
    r = subprocess.run([os.path.join(root, "steps", "score_text_segmentation.sh"), p["gold.txt"], p["seg.txt"],
                        str(tmp_path / "exp")], capture_output=True, text=True)
    assert r.returncode == 1
    errors = [l for l in r.stderr.splitlines() if ": error:" in l]
    assert len(errors) == 1 and "seg.txt:1: the units differ from the gold" in errors[0]
    assert not (tmp_path / "exp" / "scores").exists()


# ----------------------------------------------------------------------------- live differential

def _random_corpus(rng: random.Random, n: int, units: list[str]):
    gold, seg, prep = [], [], []
    for _ in range(n):
        u = [rng.choice(units) for _ in range(rng.randint(1, 12))]

        def cut(p):
            words, cur = [], ""
            for k, x in enumerate(u):
                cur += x
                if k == len(u) - 1 or rng.random() < p:
                    words.append(cur)
                    cur = ""
            return " ".join(words)
        gold.append(cut(0.35))
        seg.append(cut(rng.choice([0.1, 0.35, 0.6])))
        prep.append(" ".join(u))
    return gold, seg, prep


@pytest.fixture(scope="module")
def wordseg_evaluate():
    path = os.environ.get("WORDSEG_DIR")
    if not path or not os.path.isfile(os.path.join(path, "wordseg", "evaluate.py")):
        pytest.skip("$WORDSEG_DIR (a checkout of bootphon/wordseg) is not set")
    sys.path.insert(0, path)
    try:
        from wordseg import evaluate
    except ImportError as e:
        pytest.skip(f"wordseg not importable: {e}")
    finally:
        sys.path.remove(path)
    return evaluate


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_live_against_wordseg(tmp_path, capsys, wordseg_evaluate, seed):
    rng = random.Random(seed)
    units = ["a", "b", "k", "iː", "tʃ", "_", "ou"] if seed % 2 else ["p", "a", "t", "i"]
    gold, seg, prep = _random_corpus(rng, 200, units)
    if seed == 4:      # a corpus with a blank line in one file only: wordseg pairs what is left
        gold.insert(10, "")
    p = write(tmp_path, **{"gold.txt": "\n".join(gold) + "\n", "seg.txt": "\n".join(seg) + "\n",
                           "prep.txt": "\n".join(prep) + "\n"})
    summ = str(tmp_path / "summary.json")
    capsys.readouterr()
    ste.main(["--compat", "wordseg", "--prepared", p["prep.txt"], "--summary", summ,
              p["gold.txt"], p["seg.txt"], str(tmp_path / "exp")])
    ours = capsys.readouterr().out
    g = [x for x in gold if x.strip()]
    ref = wordseg_evaluate.evaluate(seg, g, prep)
    expected = "".join(f"{k}\t{'%.4g' % v if v is not None else 'None'}\n" for k, v in ref.items())
    assert ours == expected
    s = json.load(open(tmp_path / "exp" / "scores" / "scores.json"))
    for k, v in ref.items():
        assert s["text_" + k] == pytest.approx(v, abs=1e-12), k
    assert open(summ).read() == json.dumps(wordseg_evaluate.summary(seg, g), indent=4)


def test_termeval_command_and_api(tmp_path, root):
    p = write(tmp_path, **{"gold.txt": GOLD, "seg.txt": SEG, "prep.txt": PREP})
    env = dict(os.environ, PYTHONPATH=root)
    r = subprocess.run([sys.executable, "-m", "termeval", "score-text-segmentation", "--nj", "2", "--prepared",
                        p["prep.txt"], p["gold.txt"], p["seg.txt"], str(tmp_path / "exp")],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "adjusted_rand_index\t0.7013"
    assert sorted(os.listdir(tmp_path / "exp" / "log")) == [
        "text_segmentation.1.log", "text_segmentation.2.log", "text_segmentation.merge.log"]
    import termeval
    s = termeval.score_text_segmentation(p["gold.txt"], p["seg.txt"])
    assert s["text_token_precision"] == 0.4 and "text_adjusted_rand_index" not in s
