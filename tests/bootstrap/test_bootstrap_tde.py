"""zrc2020 per-unit statistics: decomposition checks, --nj identity, score files with intervals."""
from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest

from termeval.bootstrap.engine import full_values
from termeval.bootstrap.units import load_units
from termeval.core.datadir import load_classes, load_gold
from termeval.tde.zrc2020.report import final_scores
from termeval.tde.zrc2020.stats import Corpus, compute_shard, merge, shard_ranges
from termeval.tde.zrc2020.testing import write_class_dir, write_data_dir
from termeval.tde.zrc2020.units import tables
from tde_micro import MICRO_CLASSES, MICRO_PHN, MICRO_WRD

EXACT = ("ned", "coverage", "token_precision", "token_recall", "boundary_precision", "boundary_recall")


@pytest.fixture(scope="module")
def mandarin(shared, tmp_path_factory):
    d = tmp_path_factory.mktemp("mandarin")
    z = os.path.join(shared, "data", "zr17")
    write_data_dir(os.path.join(z, "mandarin.phn"), os.path.join(z, "mandarin.wrd"), str(d / "data"))
    write_class_dir(os.path.join(z, "kamper_mandarin.class"), str(d / "exp"))
    return d


def unit_tables(data_dir, exp_dir, nj, unit="file"):
    gold = load_gold(data_dir)
    classes = load_classes(os.path.join(exp_dir, "classes"), gold)
    corpus = Corpus.from_gold(gold)
    shards = [compute_shard(corpus, classes, a, b) for a, b in shard_ranges(classes, nj)]
    parts: dict = {}
    m, counts = merge(corpus, shards, parts)
    cls, files = tables(corpus, shards, parts, unit)
    return final_scores(m), counts, cls, files


def test_tables_reproduce_the_decomposable_metrics(mandarin):
    s, counts, cls, files = unit_tables(str(mandarin / "data"), str(mandarin / "exp"), 1)
    rc, rf = full_values(cls), full_values(files)
    assert rc["ned"] == pytest.approx(s["ned"], rel=1e-12)
    assert rf["ned"] == pytest.approx(s["ned"], rel=1e-12)       # allocation keeps the total
    for k in EXACT:
        assert rf[k] == pytest.approx(s[k], rel=1e-12), k
    assert cls.X[:, cls.col("ned_pairs")].sum() == counts["ned_pairs"]
    assert files.X[:, files.col("ned_pairs")].sum() == pytest.approx(counts["ned_pairs"])
    assert files.X[:, files.col("tok_gold")].sum() == counts["gold_tokens"]
    assert files.X[:, files.col("bnd_disc")].sum() == counts["boundaries_discovered"]
    # surrogates: per-file distinct types add up to at least the corpus-wide counts
    assert files.X[:, files.col("type_seen")].sum() >= counts["types_seen"]
    assert files.X[:, files.col("type_gold")].sum() >= counts["gold_types"]
    assert len(cls.ids) == counts["classes"] and cls.ids == sorted(cls.ids)
    spk = unit_tables(str(mandarin / "data"), str(mandarin / "exp"), 1, "speaker")[3]
    assert spk.unit == "speaker" and len(spk.ids) <= len(files.ids)
    assert full_values(spk)["coverage"] == pytest.approx(s["coverage"], rel=1e-12)


def test_tables_do_not_depend_on_nj(mandarin):
    one = unit_tables(str(mandarin / "data"), str(mandarin / "exp"), 1)
    four = unit_tables(str(mandarin / "data"), str(mandarin / "exp"), 4)
    for a, b in zip(one[2:], four[2:]):
        assert a.ids == b.ids and np.array_equal(a.X, b.X)


def sh(root, *args):
    cmd = "cd {} && . ./path.sh && {}".format(root, " ".join(args))
    return subprocess.run(["bash", "-c", cmd], capture_output=True, text=True)


def test_score_tde_intervals_identical_for_any_nj(root, tmp_path):
    for name, text in (("x.phn", MICRO_PHN), ("x.wrd", MICRO_WRD), ("x.class", MICRO_CLASSES)):
        (tmp_path / name).write_text(text)
    write_data_dir(str(tmp_path / "x.phn"), str(tmp_path / "x.wrd"), str(tmp_path / "data"))
    out = {}
    for nj in (1, 4):
        exp = tmp_path / f"exp{nj}"
        r = sh(root, "steps/score_tde.sh", "--nj", str(nj), "--bootstrap", "300", "--seed", "5",
               str(tmp_path / "data"), str(tmp_path / "x.class"), str(exp))
        assert r.returncode == 0, r.stderr
        s = json.loads((exp / "scores" / "scores.json").read_text())
        out[nj] = [(exp / "scores" / st).read_text() for st in ("matching", "clustering", "parsing")], s["ci"]
        assert s["ci"]["ned"]["unit"] == "class" and s["ci"]["coverage"]["unit"] == "file"
        assert s["ci"]["ned"]["n"] == 300 and s["ci"]["ned"]["seed"] == 5
        assert s["bootstrap"]["n"] == 300 and len(s["data_id"]) == 16
        assert " ci95 " in out[nj][0][0].splitlines()[0]
        assert load_units(str(exp / "units" / "units.tde_file.npz")).unit == "file"
        for k, c in s["ci"].items():
            if c["lo"] is not None:
                assert c["lo"] <= s[k] + 1e-12 and s[k] <= c["hi"] + 1e-12, k
    assert out[1] == out[4]
    # without --bootstrap the intervals disappear again
    r = sh(root, "steps/score_tde.sh", str(tmp_path / "data"), str(tmp_path / "x.class"), str(tmp_path / "exp1"))
    assert r.returncode == 0, r.stderr
    assert "ci" not in json.loads((tmp_path / "exp1" / "scores" / "scores.json").read_text())
    assert " ci95 " not in (tmp_path / "exp1" / "scores" / "matching").read_text()

