"""zr2015/zr2017 steps as a user with the public data runs them: --folds auto without the
challenge's fold files falls back to the whole corpus (one line before any job, recorded in
scores.json), counts print as integers, and the SIL warning is recorded with the scores."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from test_zr2015_units import MINI_CLASSES, MINI_PHONES, MINI_WORDS, write_dir


def warned(s: dict) -> list[str]:
    """Every warning line recorded in scores.json ("warnings" -> {stage: [...]}), but the
    coverage > 1 one (this mini corpus has overlapping fragments: tests/zr2015/test_coverage_warning.py)."""
    return [w for ws in s.get("warnings", {}).values() for w in ws if "overlapping discovered fragments" not in w]


def step(root, *args):
    return subprocess.run(["bash", "-c", ". ./path.sh && steps/score_tde.sh " + " ".join(map(str, args))],
                          cwd=root, capture_output=True, text=True, timeout=300)


@pytest.fixture
def mini(tmp_path):
    d = tmp_path / "data"
    write_dir(str(d), MINI_PHONES, MINI_WORDS, {"f1": "s1", "f2": "s2"})
    (tmp_path / "disc.class").write_text(MINI_CLASSES)
    return tmp_path


def scores(exp):
    return json.loads((exp / "scores" / "scores.json").read_text())


def test_auto_without_fold_files_scores_whole_corpus(root, mini):
    d, cls = mini / "data", mini / "disc.class"
    r = step(root, "--benchmark zr2017 --nj 2", d, cls, mini / "auto")
    assert r.returncode == 0, r.stderr
    said = [ln for ln in r.stderr.splitlines() if "warning: --folds auto" in ln]
    assert len(said) == 1 and said[0].startswith("score_tde.py: warning: --folds auto: "
                                                 f"no fold files in {d} ")
    # said before the jobs ran
    assert r.stderr.index(said[0]) < r.stderr.index("zr2017 scores in")
    a = scores(mini / "auto")
    assert a["folds_used"] == "none" and len(warned(a)) == 1 and "--folds none" in warned(a)[0]
    n = step(root, "--benchmark zr2017 --folds none", d, cls, mini / "none")
    assert n.returncode == 0 and "--folds auto" not in n.stderr
    b = scores(mini / "none")
    assert warned(b) == [] and b["folds_used"] == "none"
    keys = [k for k in b if k.startswith(("cross_", "within_"))]
    assert len(keys) > 100 and {k: a[k] for k in keys} == {k: b[k] for k in keys}
    assert a["cross_matching_precision"] == pytest.approx(3 / 7)
    assert a["data_id"] == b["data_id"]


def test_auto_with_some_fold_files_fails_before_jobs(root, mini):
    d = mini / "data"
    (d / "folds.split").write_text("f1 0 1\n")
    r = step(root, "--benchmark zr2015", d, mini / "disc.class", mini / "e")
    assert r.returncode == 1
    assert r.stderr.strip().splitlines()[-1] == (
        f"score_tde.py: error: {d}/folds.intervals.cross: --folds auto: the data dir has some fold files but not "
        "this one (needs folds.split, folds.intervals.cross, folds.intervals.within)")
    assert not (mini / "e" / "scores").exists() and not (mini / "e" / "jobs").exists()


def test_auto_with_fold_files_uses_them(root, mini):
    d = mini / "data"
    (d / "folds.split").write_text("f1 0.0 0.6\nf2 1.0 1.4\n")
    (d / "folds.intervals.cross").write_text("f1 0.0 0.6\nf2 1.0 1.4\n")
    (d / "folds.intervals.within").write_text("f1 0.0 0.6\n\nf2 1.0 1.4\n")
    r = step(root, "--benchmark zr2017", d, mini / "disc.class", mini / "e")
    assert r.returncode == 0, r.stderr
    s = scores(mini / "e")
    assert s["folds_used"] == str(d / "folds") and warned(s) == []
    assert s["cross_ned_pairs"] == 4 and s["cross_matching_precision"] == pytest.approx(3 / 7)


def test_counts_print_as_integers(root, mini):
    r = step(root, "--benchmark zr2017 --folds none", mini / "data", mini / "disc.class", mini / "e")
    assert r.returncode == 0, r.stderr
    lines = dict(ln.split(" ", 1) for ln in (mini / "e" / "scores" / "matching").read_text().splitlines())
    # cross: one fold of 4 pairs; within: folds of 1 and 0 pairs (mean 0.5 stays a fraction)
    assert lines["cross_ned_pairs"] == "4 [ mean over 1/1 folds ]"     # a fold mean of counts says so
    assert (lines["cross_ned_pairs_min"], lines["cross_ned_pairs_max"]) == ("4", "4")
    assert lines["within_ned_pairs"] == "0.500000 [ mean over 2/2 folds ]"
    assert (lines["within_ned_pairs_min"], lines["within_ned_pairs_max"]) == ("0", "1")
    assert lines["cross_ned_pairs_std"] == "0.000000"
    s = scores(mini / "e")
    assert isinstance(s["cross_ned_pairs"], int) and isinstance(s["within_ned_pairs_max"], int)


def test_sil_lines_warning_recorded(root, mini):
    d = mini / "data"
    phones = (d / "phones").read_text().replace("f2 1.3 1.4 x", "f2 1.3 1.4 SIL")
    (d / "phones").write_text(phones)
    r = step(root, "--benchmark zr2015 --folds none", d, mini / "disc.class", mini / "e")
    assert r.returncode == 0, r.stderr
    w = warned(scores(mini / "e"))
    assert w == [f"{d}/phones has SIL lines; the zr2015 definitions expect pauses as gaps (prepare with "
                 "--fill-gaps false), otherwise SIL is scored as a phone"]
    assert sum("has SIL lines" in ln for ln in r.stderr.splitlines()) == 1
