"""zr2015/zr2017 fold-mean intervals: unit tables recompute the exact reported means, seed
determinism, --nj identity, and steps/score_tde.sh --benchmark zr2017 --bootstrap end to end."""
from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest

from termeval.core.numbers import fmt_value
from termeval.tde.zr2015.units import EXACT, bootstrap_ci, build, full_values, pack
from termeval.gold import Options, prepare_zr
from termeval.tde.zr2015.evaluate import prepare, score_fold
from termeval.tde.zr2015.report import add_fscores, summarise

PHONES = [("f1", 0.0, 0.1, "a"), ("f1", 0.1, 0.2, "b"), ("f1", 0.2, 0.3, "c"),
          ("f1", 0.3, 0.4, "a"), ("f1", 0.4, 0.5, "b"), ("f1", 0.5, 0.6, "c"),
          ("f2", 1.0, 1.1, "a"), ("f2", 1.1, 1.2, "b"), ("f2", 1.2, 1.3, "c"), ("f2", 1.3, 1.4, "x"),
          ("f3", 0.0, 0.1, "a"), ("f3", 0.1, 0.2, "b"), ("f3", 0.2, 0.3, "c"), ("f3", 0.3, 0.4, "x")]
WORDS = [("f1", 0.0, 0.3, "abc"), ("f1", 0.3, 0.6, "abc"), ("f2", 1.0, 1.3, "abc"),
         ("f2", 1.3, 1.4, "x"), ("f3", 0.0, 0.3, "abc"), ("f3", 0.3, 0.4, "x")]
CLASSES = ("Class 1\nf1 0.0 0.3\nf1 0.3 0.6\nf2 1.0 1.3\nf3 0.0 0.3\n\n"
           "Class 2\nf2 1.0 1.4\nf1 0.0 0.4\nf3 0.0 0.4\n\nClass 3\nf2 1.3 1.4\nf3 0.3 0.4\n")
SPK = {"f1": "s1", "f2": "s2", "f3": "s1"}


def write_mini(d: str) -> str:
    os.makedirs(d, exist_ok=True)
    for name, rows in (("phones", PHONES), ("words", WORDS)):
        with open(os.path.join(d, name), "w") as f:
            f.writelines(f"{r[0]} {r[1]} {r[2]} {r[3]}\n" for r in rows)
    with open(os.path.join(d, "utt2spk"), "w") as f:
        f.writelines(f"{u} {SPK[u]}\n" for u in sorted(SPK))
    with open(os.path.join(d, "reco2dur"), "w") as f:
        f.writelines(f"{u} {max(r[2] for r in PHONES if r[0] == u)}\n" for u in sorted(SPK))
    cls = os.path.join(d, "..", "disc.class")
    with open(cls, "w") as f:
        f.write(CLASSES)
    return cls


def tables_and_values(p, mode: str, unit: str = "file"):
    packed = {t: {} for t in ("class", "file")}
    folds = {}
    for s in ("cross", "within"):
        folds[s] = []
        for t in packed:
            packed[t][s] = []
        for fold in p.foldsets[s].folds:
            u: dict = {}
            folds[s].append(add_fscores(score_fold(p, fold, units=u)))
            pk = pack(u)
            for t in packed:
                packed[t][s].append(pk.get(t))
    values = {**summarise(folds["cross"], "cross"), **summarise(folds["within"], "within")}
    nc = p.disc.nclasses
    cls = build("class", "class", [str(c) for c in range(nc)], np.arange(nc), packed["class"], mode, False)
    if unit == "speaker":
        ids, owner = np.unique(np.asarray(p.gold.speaker, dtype=str), return_inverse=True)
        files = build("file", "speaker", ids.tolist(), owner.ravel(), packed["file"], mode)
    else:
        files = build("file", "file", p.gold.files, np.arange(len(p.gold.files)), packed["file"], mode)
    return [cls, files], values


def check_exact(tables, values):
    full = {}
    for t in tables:
        full.update(full_values(t))
    checked = 0
    for k, v in full.items():
        if k.split("_", 1)[1] in EXACT:
            assert abs(v - values[k]) <= 1e-12, (k, v, values[k])
            checked += 1
    assert checked == 16


@pytest.mark.parametrize("mode", ["zr2015", "zr2017"])
@pytest.mark.parametrize("unit", ["file", "speaker"])
def test_mini_full_sample_is_exact(tmp_path, mode, unit):
    cls = write_mini(str(tmp_path / "data"))
    p = prepare(str(tmp_path / "data"), cls, "none", mode)
    tables, values = tables_and_values(p, mode, unit)
    check_exact(tables, values)
    assert [t.unit for t in tables] == ["class", unit]
    ci = bootstrap_ci(tables, values, 200, 5, 0.9)
    assert ci["cross_ned"]["unit"] == "class" and ci["cross_coverage"]["unit"] == unit
    assert all(v["lo"] <= v["hi"] for v in ci.values() if v["lo"] is not None)
    assert "cross_matching_precision" not in ci


@pytest.fixture(scope="module")
def mandarin(shared, tmp_path_factory):
    d = str(tmp_path_factory.mktemp("bzr17") / "data")
    s = os.path.join(shared, "data")
    prepare_zr(os.path.join(s, "zr17_tde17", "mandarin.phn"), os.path.join(s, "zr17_tde17", "mandarin.wrd"), d,
               Options(fill_gaps=False, sort=True), spk_rule="prefix:3")
    p = prepare(d, os.path.join(s, "zr17", "kamper_mandarin.class"), os.path.join(s, "zr17_tde17", "mandarin"),
                "zr2017")
    return d, tables_and_values(p, "zr2017")


def test_mandarin_full_sample_is_exact_and_seeded(mandarin):
    _, (tables, values) = mandarin
    check_exact(tables, values)
    a = bootstrap_ci(tables, values, 300, 11, 0.95)
    assert a == bootstrap_ci(tables, values, 300, 11, 0.95)
    b = bootstrap_ci(tables, values, 300, 12, 0.95)
    assert a["cross_ned"]["lo"] != b["cross_ned"]["lo"]
    for k in ("cross_ned", "within_ned", "cross_coverage", "cross_token_fscore", "within_boundary_fscore",
              "cross_grouping_fscore", "cross_type_fscore"):
        assert a[k]["lo"] < values[k] < a[k]["hi"], (k, a[k], values[k])
    assert a["cross_ned"]["hi"] - a["cross_ned"]["lo"] > 1e-3


def run(root, *args):
    return subprocess.run(["bash", "-c", ". ./path.sh && " + " ".join(args)], cwd=root,
                          capture_output=True, text=True, timeout=300)


def test_score_tde_zr2017_bootstrap_nj(root, tmp_path):
    cls = write_mini(str(tmp_path / "data"))
    out = {}
    for nj in (1, 2):
        exp = tmp_path / f"exp{nj}"
        r = run(root, "steps/score_tde.sh --benchmark zr2017 --folds none --bootstrap 300 --seed 3 --nj", str(nj),
                str(tmp_path / "data"), cls, str(exp))
        assert r.returncode == 0, r.stderr
        s = json.loads((exp / "scores" / "scores.json").read_text())
        out[nj] = s["ci"]
        assert s["bootstrap"] == {"n": 300, "seed": 3, "level": 0.95, "unit": "file", "class_metrics_unit": "class"}
        lines = (exp / "scores" / "matching").read_text().splitlines()
        ned = [x for x in lines if x.startswith("cross_ned ")][0]
        assert " ci95 " in ned and ned.startswith(f"cross_ned {fmt_value(s['cross_ned'])} [ 1/1 folds ] ci95 ")
        assert not [x for x in lines if x.startswith("cross_matching") and " ci95 " in x]
        assert not [x for x in lines if "_std " in x and " ci95 " in x]
    assert out[1] == out[2]
    assert set(out[1]) >= {"cross_ned", "within_ned", "cross_coverage", "within_token_fscore"}
    r = run(root, "steps/score_tde.sh --benchmark zr2017 --folds none", str(tmp_path / "data"), cls,
            str(tmp_path / "exp0"))
    assert r.returncode == 0, r.stderr
    assert "ci" not in json.loads((tmp_path / "exp0" / "scores" / "scores.json").read_text())
