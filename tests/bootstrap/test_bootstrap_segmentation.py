"""Segmentation intervals: cluster metrics of resampled contingency tables, exact full-sample
values, seed determinism, --nj independence, paired comparison of two segmentations."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from termeval.bin import score_segmentation
from termeval.bootstrap.cells import build, values
from termeval.bootstrap.engine import full_values, paired_test
from termeval.bootstrap.units import load_units
from termeval.gold import prepare_zr
from termeval.segmentation.clusters import from_named_cells, quality
from tests.segmentation.test_segmentation_cli import PHN, SEG, WRD


def test_cell_metrics_equal_quality_of_the_weighted_table():
    """values(w @ C) is quality() of the table whose cells are the units' cells times w."""
    rng = np.random.default_rng(5)
    n_units, rows = 12, 300
    unit = rng.integers(0, n_units, rows)
    label = [f"w{x}" for x in rng.integers(0, 15, rows)]
    cluster = [f"{x}" for x in rng.integers(0, 9, rows)]
    count = rng.integers(1, 5, rows)
    c = build(unit, label, cluster, count, n_units)
    for _ in range(20):
        w = rng.multinomial(n_units, np.ones(n_units) / n_units).astype(float)
        v = {k: float(x[0]) for k, x in values(c, c.sums(w)).items()}
        keep = w[unit] > 0
        t = from_named_cells([x for x, k in zip(label, keep) if k], [x for x, k in zip(cluster, keep) if k],
                             (count * w[unit])[keep].astype(int).tolist())
        q = quality(t)
        for k in ("purity", "inverse_purity", "homogeneity", "completeness", "v_measure", "nmi"):
            assert v[k] == pytest.approx(getattr(q, k), rel=1e-12, abs=1e-15), k
        assert v["m2o_accuracy"] == v["purity"]
    assert np.isnan(values(c, c.sums(np.zeros(n_units)))["nmi"][0])      # empty resample: undefined


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    d = tmp_path_factory.mktemp("segboot")
    (d / "toy.phn").write_text(PHN)
    (d / "toy.wrd").write_text(WRD.replace("f2 0.40 0.90 e", "f2 0.40 0.90 e\nf3 0.00 0.30 ab\nf3 0.30 0.70 c"))
    (d / "toy.phn").write_text(PHN + "f3 0.00 0.30 a\nf3 0.30 0.70 c\n")
    (d / "seg.txt").write_text(SEG + "f3 0.00 0.31 2\nf3 0.31 0.70 3\n")
    (d / "seg2.txt").write_text(SEG.replace("0.49", "0.52") + "f3 0.00 0.20 1\nf3 0.20 0.70 1\n")
    prepare_zr(str(d / "toy.phn"), str(d / "toy.wrd"), str(d / "data"))
    return d


def scored(d, seg, exp, *opts):
    score_segmentation.main([*opts, str(d / "data"), str(d / seg), str(d / exp)])
    with open(d / exp / "scores" / "scores.json") as f:
        return json.load(f)


@pytest.mark.parametrize("compat", ["none", "vqwordseg"])
def test_full_sample_values_are_exact(toy, compat):
    s = scored(toy, "seg.txt", f"full_{compat}", "--compat", compat)
    us = load_units(str(toy / f"full_{compat}" / "units" / "units.segmentation_file.npz"))
    assert us.unit == "file" and us.ids == ["f1", "f2", "f3"] and "ci" not in s
    r = full_values(us)
    assert set(r) == set(s) & set(r) and "word_purity" in r and "word_boundary_rvalue" in r
    for k, v in r.items():
        if s[k] is None:
            assert np.isnan(v), k
        else:
            assert v == pytest.approx(s[k], rel=1e-12, abs=1e-15), k


def test_intervals_seed_and_nj(toy, root):
    def run(nj, seed, tag, unit="file"):
        args = ["--nj", str(nj), "--bootstrap", "300", "--seed", str(seed), "--bootstrap-unit", unit,
                str(toy / "data"), str(toy / "seg.txt"), str(toy / tag)]
        for j in range(1, nj + 1):
            score_segmentation.main(["--job", str(j)] + args)
        score_segmentation.main(["--merge", str(nj)] + args)
        s = json.loads((toy / tag / "scores" / "scores.json").read_text())
        return s, (toy / tag / "scores" / "segmentation").read_text()
    a, fa = run(1, 4, "n1")
    b, fb = run(3, 4, "n3")
    c, _ = run(1, 5, "n1s5")
    assert a["ci"] == b["ci"] and fa == fb
    assert a["ci"] != c["ci"]
    ci = a["ci"]["word_v_measure"]
    assert (ci["unit"], ci["units"], ci["n"], ci["seed"], ci["level"]) == ("file", 3, 300, 4, 0.95)
    assert "segments" not in a["ci"] and "clusters" not in a["ci"]
    assert "bias_removed" in a["ci"]["word_purity"] and "bias_removed" not in a["ci"]["word_boundary_precision"]
    for k, x in a["ci"].items():
        if x["lo"] is not None:
            assert x["lo"] <= a[k] + 1e-12 and a[k] <= x["hi"] + 1e-12, k
    assert " ci95 " in next(x for x in fa.splitlines() if x.startswith("word_purity "))
    sh = subprocess.run(["bash", os.path.join(root, "steps", "score_segmentation.sh"), "--nj", "3", "--bootstrap",
                         "300", "--seed", "4", str(toy / "data"), str(toy / "seg.txt"), str(toy / "sh3")],
                        capture_output=True, text=True, cwd=str(toy))
    assert sh.returncode == 0, sh.stderr
    assert json.loads((toy / "sh3" / "scores" / "scores.json").read_text())["ci"] == a["ci"]
    spk, _ = run(1, 4, "spk", "speaker")
    assert spk["ci"]["word_purity"]["unit"] == "speaker" and spk["bootstrap"]["unit"] == "speaker"
    assert (toy / "spk" / "units" / "units.segmentation_speaker.npz").is_file()


def test_paired_identical_and_different(toy, root):
    scored(toy, "seg.txt", "A")
    scored(toy, "seg.txt", "A2")
    scored(toy, "seg2.txt", "B")
    ua, ub = (load_units(str(toy / e / "units" / "units.segmentation_file.npz")) for e in ("A", "B"))
    for test in ("bootstrap", "permutation"):
        same = paired_test(ua, ua, 200, 1, test=test)
        assert all(v["diff"] == 0 and v["p"] == 1 and v["lo"] == v["hi"] == 0 for v in same.values()
                   if v["diff"] is not None)
        diff = paired_test(ub, ua, 200, 1, test=test)
        assert diff["word_purity"]["diff"] == pytest.approx(ub.exact["word_purity"] - ua.exact["word_purity"])
        assert 0 < diff["word_boundary_precision"]["p"] <= 1
    env = dict(os.environ, PYTHONPATH=root)
    for other, name in (("A2", "same"), ("B", "diff")):
        p = subprocess.run(["bash", os.path.join(root, "steps", "compare_systems.sh"), "--bootstrap", "200",
                            "--plot", "false", str(toy / "A"), str(toy / other), str(toy / f"cmp_{name}")],
                           capture_output=True, text=True, env=env, cwd=str(toy))
        assert p.returncode == 0, p.stderr
    lines = (toy / "cmp_same" / "scores" / "compare").read_text().splitlines()
    assert any(x.startswith("word_v_measure A2-A 0.000000 ci95 0.0000 0.0000 p 1 [ ") for x in lines), lines
    res = json.loads((toy / "cmp_diff" / "scores" / "compare.json").read_text())
    assert res["units"] == {"segmentation_file": "file"}
    assert res["diffs"]["B"]["word_o2o_accuracy"]["diff"] == pytest.approx(ub.exact["word_o2o_accuracy"] - ua.exact["word_o2o_accuracy"])
    # a different tolerance is different settings: refused
    scored(toy, "seg.txt", "T", "--tolerance", "0.03")
    p = subprocess.run(["bash", os.path.join(root, "steps", "compare_systems.sh"), "--plot", "false",
                        str(toy / "A"), str(toy / "T"), str(toy / "cmp_bad")], capture_output=True, text=True,
                       env=env, cwd=str(toy))
    assert p.returncode == 1 and "different data or settings" in p.stderr and "Traceback" not in p.stderr


def test_vqwordseg_synthetic_exact(tmp_path, root):
    d = tmp_path
    subprocess.run([sys.executable, os.path.join(root, "local", "make_segmentation.py"), "vqwordseg", str(d),
                    "--seed", "2", "--utts", "60"], check=True)
    prepare_zr(str(d / "gold.phn"), str(d / "gold.wrd"), str(d / "data"))
    for level in ("word", "phone"):
        exp = d / f"exp_{level}"
        score_segmentation.main(["--compat", "vqwordseg", "--level", level, "--segments", str(d / "segments"),
                                 "--bootstrap", "100", str(d / "data"), str(d / "intervals"), str(exp)])
        s = json.loads((exp / "scores" / "scores.json").read_text())
        stage = "segmentation" if level == "word" else "segmentation_phone"
        us = load_units(str(exp / "units" / f"units.{stage}_file.npz"))
        for k, v in full_values(us).items():
            assert v == pytest.approx(s[k], rel=1e-12, abs=1e-15), k
        assert all(s["ci"][k]["n"] == 100 for k in us.metrics)
