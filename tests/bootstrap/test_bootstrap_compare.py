"""steps/compare_systems.sh: identical systems, a real difference, refusal, forest plot."""
from __future__ import annotations

import json
import subprocess

import pytest

from termeval.tde.zrc2020.testing import write_data_dir
from tde_micro import MICRO_CLASSES, MICRO_PHN, MICRO_WRD

OTHER = "Class 1\nA 0 0.3\nB 0 0.3\n\nClass 2\nA 0.4 0.5\nC 0 0.1\n\n"


def sh(root, *args):
    cmd = "cd {} && . ./path.sh && {}".format(root, " ".join(str(a) for a in args))
    return subprocess.run(["bash", "-c", cmd], capture_output=True, text=True)


@pytest.fixture(scope="module")
def scored(root, tmp_path_factory):
    d = tmp_path_factory.mktemp("cmp")
    for name, text in (("x.phn", MICRO_PHN), ("x.wrd", MICRO_WRD), ("x.class", MICRO_CLASSES),
                       ("y.class", OTHER), ("z.wrd", MICRO_WRD.replace("C 0 0.2 z", "C 0 0.1 z"))):
        (d / name).write_text(text)
    write_data_dir(str(d / "x.phn"), str(d / "x.wrd"), str(d / "data"))
    write_data_dir(str(d / "x.phn"), str(d / "z.wrd"), str(d / "data2"))
    for exp, data, cls in (("a", "data", "x"), ("a2", "data", "x"), ("b", "data", "y"), ("c", "data2", "x")):
        r = sh(root, "steps/score_tde.sh", d / data, d / f"{cls}.class", d / exp)
        assert r.returncode == 0, r.stderr
    return d


def test_identical_systems(root, scored):
    for test in ("bootstrap", "permutation"):
        out = scored / f"out_same_{test}"
        r = sh(root, "steps/compare_systems.sh", "--bootstrap", 200, "--test", test,
               scored / "a", scored / "a2", out)
        assert r.returncode == 0, r.stderr
        res = json.loads((out / "scores" / "compare.json").read_text())
        for m, v in res["diffs"]["a2"].items():
            if v["diff"] is not None:
                assert v["diff"] == 0 and v["p"] == 1 and v["lo"] == 0 and v["hi"] == 0, m
        assert res["units"] == {"tde_file": "file"}
        lines = (out / "scores" / "compare").read_text().splitlines()
        assert any(x.startswith("ned a2-a 0.000000 ci95 0.0000 0.0000 p 1 [ ") for x in lines), lines
        assert (out / "forest.png").stat().st_size > 1000 and (out / "forest.pdf").is_file()
        assert "| ned |" in (out / "RESULTS.compare.md").read_text()


def test_different_systems_and_seed_determinism(root, scored):
    runs = []
    for k in (1, 2):
        out = scored / f"out_diff{k}"
        r = sh(root, "steps/compare_systems.sh", "--bootstrap", 300, "--seed", 3, "--plot", "false",
               scored / "a", scored / "b", out)
        assert r.returncode == 0, r.stderr
        runs.append((out / "scores" / "compare").read_text())
    assert runs[0] == runs[1]
    res = json.loads((scored / "out_diff1" / "scores" / "compare.json").read_text())
    a = json.loads((scored / "a" / "scores" / "scores.json").read_text())
    b = json.loads((scored / "b" / "scores" / "scores.json").read_text())
    for m in ("coverage", "token_precision", "ned"):
        assert res["diffs"]["b"][m]["diff"] == pytest.approx(b[m] - a[m], abs=1e-15)
        assert res["diffs"]["b"][m]["lo"] <= res["diffs"]["b"][m]["diff"] <= res["diffs"]["b"][m]["hi"]


def test_refuses_different_data(root, scored):
    r = sh(root, "steps/compare_systems.sh", "--bootstrap", 10, scored / "a", scored / "c", scored / "out_bad")
    assert r.returncode == 1
    assert "scored on different data or settings" in r.stderr and "Traceback" not in r.stderr
    assert not (scored / "out_bad" / "scores" / "compare").exists()
    r = sh(root, "steps/compare_systems.sh", scored / "a", scored / "out_bad")
    assert r.returncode == 1


def test_kaldi_layout_names_and_an_exp_dir_also_holding_a_segmentation(root, scored):
    """exp/<sys>/tde dirs end in the same basename; one of them was also scored as a
    segmentation: the comparison uses the tables and benchmark both systems have."""
    import shutil
    for sysname in ("sysA", "sysB"):
        shutil.copytree(scored / "a", scored / "kaldi" / sysname / "tde")
    r = sh(root, "steps/score_segmentation.sh", scored / "data", scored / "x.class", scored / "kaldi/sysA/tde")
    assert r.returncode == 0, r.stderr
    a = json.loads((scored / "kaldi/sysA/tde/scores/scores.json").read_text())
    assert sorted(a["data_ids"]) == ["segmentation", "zrc2020"]
    out = scored / "out_kaldi"
    r = sh(root, "steps/compare_systems.sh", "--bootstrap", 50, "--plot", "false",
           scored / "kaldi/sysA/tde", scored / "kaldi/sysB/tde", out)
    assert r.returncode == 0, r.stderr
    res = json.loads((out / "scores" / "compare.json").read_text())
    assert res["systems"] == ["sysA/tde", "sysB/tde"] and res["units"] == {"tde_file": "file"}
    assert res["diffs"]["sysB/tde"]["ned"]["diff"] == 0
