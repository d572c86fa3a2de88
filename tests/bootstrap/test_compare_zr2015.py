"""steps/compare_systems.sh on --benchmark zr2017 systems: the file fold table saved by
scoring, identical systems (diff 0, p 1), a real difference equal to the difference of the
reported fold means, and refusal of a zr2017 vs zrc2020 comparison."""
from __future__ import annotations

import json
import subprocess

import pytest

from test_bootstrap_zr2015 import write_mini

OTHER = "Class 1\nf1 0.0 0.3\nf2 1.0 1.3\n\nClass 2\nf2 1.3 1.4\nf3 0.0 0.2\nf1 0.4 0.6\n"
COMPARED = {f"{s}_{m}" for s in ("cross", "within") for m in
            ["coverage"] + [f"{f}_{x}" for f in ("token", "type", "boundary") for x in ("precision", "recall", "fscore")]}


def sh(root, *args):
    return subprocess.run(["bash", "-c", ". ./path.sh && " + " ".join(str(a) for a in args)], cwd=root,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def scored(root, tmp_path_factory):
    d = tmp_path_factory.mktemp("cmpzr")
    cls = write_mini(str(d / "data"))
    (d / "other.class").write_text(OTHER)
    for exp, c in (("a", cls), ("a2", cls), ("b", d / "other.class")):
        r = sh(root, "steps/score_tde.sh --benchmark zr2017 --folds none", d / "data", c, d / exp)
        assert r.returncode == 0, r.stderr
        assert (d / exp / "units" / "units.tde15_file.npz").is_file()
    r = sh(root, "steps/score_tde.sh --benchmark zr2017 --folds none --nj 2", d / "data", cls, d / "a3")
    assert r.returncode == 0, r.stderr
    return d, cls


@pytest.mark.parametrize("test", ["bootstrap", "permutation"])
def test_identical_zr2017_systems(root, scored, test):
    d, _ = scored
    out = d / f"same_{test}"
    r = sh(root, "steps/compare_systems.sh --bootstrap 200 --test", test, d / "a", d / "a3", out)
    assert r.returncode == 0, r.stderr
    res = json.loads((out / "scores" / "compare.json").read_text())
    diffs = res["diffs"]["a3"]
    assert set(diffs) == COMPARED and res["units"] == {"tde15_file": "file"}
    for m, v in diffs.items():
        assert v["diff"] == 0 and v["p"] == 1 and v["lo"] == 0 and v["hi"] == 0, (m, v)
        assert v["units"] == 3 and v["unit"] == "file"
    assert "ned" in res["not_compared"]["tde15_file"] and "not compared (tde15_file)" in r.stderr
    assert "Not compared (tde15_file)" in (out / "RESULTS.compare.md").read_text()
    lines = (out / "scores" / "compare").read_text().splitlines()
    assert any(x.startswith("cross_coverage a3-a 0.000000 ci95 0.0000 0.0000 p 1 [ ") for x in lines), lines
    if test == "bootstrap":
        assert (out / "forest.png").stat().st_size > 1000


@pytest.mark.parametrize("test", ["bootstrap", "permutation"])
def test_different_zr2017_systems(root, scored, test):
    d, _ = scored
    out = d / f"diff_{test}"
    r = sh(root, "steps/compare_systems.sh --plot false --bootstrap 300 --seed 4 --test", test, d / "a", d / "b", out)
    assert r.returncode == 0, r.stderr
    res = json.loads((out / "scores" / "compare.json").read_text())
    a = json.loads((d / "a" / "scores" / "scores.json").read_text())
    b = json.loads((d / "b" / "scores" / "scores.json").read_text())
    nonzero = 0
    for m, v in res["diffs"]["b"].items():
        assert v["a"] == b[m] and v["b"] == a[m]
        assert v["diff"] == pytest.approx(b[m] - a[m], abs=1e-15), m
        assert v["lo"] <= v["diff"] + 1e-12 and v["diff"] - 1e-12 <= v["hi"], (m, v)
        assert 0 < v["p"] <= 1
        nonzero += v["diff"] != 0
    assert nonzero >= 6
    assert res["intervals"]["b"]["cross_coverage"]["unit"] == "file"


def test_zr2017_vs_zrc2020_refused(root, scored, tmp_path):
    d, cls = scored
    r = sh(root, "steps/score_tde.sh", d / "data", cls, tmp_path / "z")
    assert r.returncode == 0, r.stderr
    r = sh(root, "steps/compare_systems.sh --bootstrap 10", d / "a", tmp_path / "z", tmp_path / "out")
    assert r.returncode == 1
    err = [x for x in r.stderr.splitlines() if "error" in x]
    assert len(err) == 1 and "share no scored benchmark" in err[0] and "Traceback" not in r.stderr
    assert not (tmp_path / "out" / "scores" / "compare").exists()
