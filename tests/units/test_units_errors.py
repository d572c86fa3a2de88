"""Bad input is one line naming the file, line and utterance (score_units, score_discophon),
nothing written; score_units on discophon's cases through a --format discophon data dir gives
discophon's numbers; --nj and the shell steps."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

import termeval
import units_cases as cases
from termeval.core import plots
from termeval.core.errors import InputError

GOLD = "#file onset offset #phone\nu1 0 0.02 a\nu1 0.02 0.06 b\nu1 0.06 0.08 SIL\nu2 0 0.02 SIL\nu2 0.02 0.06 a\n"
FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "discophon.json")


@pytest.fixture(autouse=True)
def no_plots(monkeypatch):
    monkeypatch.setattr(plots, "available", lambda: False)


@pytest.fixture
def gold(tmp_path):
    (tmp_path / "gold.txt").write_text(GOLD)
    return termeval.prepare_gold(str(tmp_path / "gold.txt"), format="discophon")


@pytest.mark.parametrize("text, where, says", [
    ("u1 1 2 1 3\nu2 3 x 4\n", 2, "unit 'x' is not an integer"),
    ("u1 1 2 1 3\nu1 3 1\n", 2, "utterance 'u1' again (first at line 1)"),
    ("u1 1 2 1 3\nu2\n", 2, "utterance 'u2': empty unit sequence"),
    ("u1 1 2 -1 3\nu2 3 1\n", 1, "negative unit id -1"),
    ("u1 1 2 1 3 4 5\nu2 3 1\n", 1, "utterance 'u1': 6 units of 20 ms (120 ms) against 80 ms"),
    ("u1 1 2 1 3\n", None, "file 'u2' has no units"),
    ("u1 1 2 1 3\nu2 3 1\nu9 1\n", 3, "utterance 'u9' is not in the gold"),
])
def test_units_errors_name_file_line_utterance(gold, tmp_path, text, where, says):
    (tmp_path / "u.txt").write_text(text)
    with pytest.raises(InputError) as e:
        termeval.score_units(gold, str(tmp_path / "u.txt"), exp_dir=str(tmp_path / "exp"))
    assert says in e.value.message and "\n" not in e.value.format()
    if where is not None:
        assert e.value.path.endswith("u.txt") and e.value.line == where
    assert not (tmp_path / "exp" / "scores").exists()


def test_unit_beyond_n_units_and_too_many_phones(gold, tmp_path):
    with pytest.raises(InputError, match=r"^units\['u1'\]: utterance 'u1': unit 9 is not below n_units = 5"):
        termeval.score_units(gold, {"u1": [1, 2, 1, 9], "u2": [3, 1]}, n_units=5)
    with pytest.raises(InputError, match="phone 'SIL' is one more than the 2 phone classes") as e:
        termeval.score_units(gold, {"u1": [1, 2, 1, 3], "u2": [3, 1]}, n_phonemes=1)
    assert e.value.path.endswith("phones") and e.value.line == 3


def test_gold_off_grid(tmp_path):
    (tmp_path / "g.txt").write_text(GOLD.replace("0.02 0.06 b", "0.02 0.0625 b").replace("0.06 0.08 SIL",
                                                                                           "0.0625 0.08 SIL"))
    g = termeval.prepare_gold(str(tmp_path / "g.txt"), format="discophon")
    with pytest.raises(InputError, match="0.0625 is not on the 10 ms grid") as e:
        termeval.score_units(g, {"u1": [1, 2, 1, 3], "u2": [3, 1]})
    assert e.value.line == 2
    s = termeval.score_units(g, {"u1": [1, 2, 1, 3], "u2": [3, 1]}, off_grid="centre")
    assert s["units"]["frames_scored"] == 12


def test_fairseq_mode_cuts_and_warns(gold, tmp_path, capsys):
    s = termeval.score_units(gold, {"u1": [1, 2, 1, 3, 3, 3, 3], "u9": [1]}, compat="fairseq")
    err = capsys.readouterr().err
    assert "1 of 2 gold files have no units" in err and "cut to the shorter" in err
    assert s["units"]["frames_diff"] == 6 and s["units"]["utterances_missing"] == 1


@pytest.mark.parametrize("name", ["basic", "one_to_one", "units_10ms", "trim_limit", "midpoints", "single_phone",
                                  "ties_unused_units", "long_files_o2o"])
def test_score_units_gives_discophons_numbers(tmp_path, name):
    """The same units and gold through steps/prepare_gold.sh --format discophon and score_units."""
    recorded = json.load(open(FIXTURE, encoding="utf-8"))["cases"][name]["scores_jsonl"]
    want = {(r["language"], r["split"], r["metric"]): r["score"] for r in map(json.loads, recorded.splitlines())}
    files, opts = cases.discophon_case(name)
    cases.write(files, str(tmp_path))
    for lang, split in {(k[0], k[1]) for k in want}:
        g = termeval.prepare_gold(str(tmp_path / f"dataset/alignment/alignment-{lang}-{split}.txt"), format="discophon")
        n_ph = cases.N_PHONEMES[lang]
        s = termeval.score_units(g, str(tmp_path / f"predictions/units-{lang}-{split}.jsonl"), kind=opts["kind"],
                                 frame_shift=opts["step_units"] / 1000, n_phonemes=n_ph,
                                 n_units=256 if opts["kind"] == "many-to-one" else n_ph + 1)
        for ours, theirs in (("pnmi", "pnmi"), ("per", "per"), ("boundary_fscore", "f1"), ("boundary_rvalue", "r_val")):
            assert s[ours] == want[(lang, split, theirs)], (lang, split, ours)


def test_shell_steps_jobs_and_guard(root, tmp_path):
    files, _ = cases.discophon_case("basic")
    cases.write(files, str(tmp_path))
    env = dict(os.environ, MPLBACKEND="Agg")
    run = lambda *a: subprocess.run([os.path.join(root, "steps", a[0]), *a[1:]], capture_output=True, text=True,
                                    env=env, cwd=tmp_path)
    r2 = run("score_discophon.sh", "--nj", "2", "--bootstrap", "50", "dataset", "predictions", "out2")
    assert r2.returncode == 0, r2.stderr
    recorded = json.load(open(FIXTURE, encoding="utf-8"))["cases"]["basic"]["scores_jsonl"]
    assert (tmp_path / "out2/scores.jsonl").read_text() == recorded
    assert "ci" in json.loads((tmp_path / "out2/scores/scores.json").read_text())
    g = run("prepare_gold.sh", "--format", "discophon", "dataset/alignment/alignment-deu-dev.txt", "data/deu")
    assert g.returncode == 0, g.stderr
    u = run("score_units.sh", "--nj", "2", "--n-units", "256", "--n-phonemes", "41", "data/deu",
            "predictions/units-deu-dev.jsonl", "exp/u")
    assert u.returncode == 0, u.stderr
    assert "units: pnmi " in u.stdout
    assert {"per_utterance.tsv", "per_phone.tsv", "mapping.tsv"} <= set(os.listdir(tmp_path / "exp/u/details/units"))
    bad = run("score_units.sh", "data/deu", "predictions/units-deu-dev.jsonl", "predictions/units-deu-dev.jsonl")
    assert bad.returncode != 0 and "error" in bad.stderr and "Traceback" not in bad.stderr
