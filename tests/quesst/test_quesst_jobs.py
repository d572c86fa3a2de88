"""steps/score_quesst.sh --nj N and --bootstrap: identical output for any N, per-query
statistics that reproduce the QUESST figures, and steps/compare_systems.sh on QUESST systems."""
from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest

from termeval.bootstrap.engine import full_values
from termeval.quesst.units import query_table
from termeval.bootstrap.units import load_units
from termeval.run import driver as jobs
from termeval.bin import score_quesst
from termeval.run.cli import options_of
from termeval.core.errors import InputError
from termeval.quesst import quesst as Q
from termeval.quesst import quesst_io


def sh(root, *args):
    cmd = "cd {} && . ./path.sh && {}".format(root, " ".join(f"'{a}'" for a in args))
    return subprocess.run(["bash", "-c", cmd], capture_output=True, text=True)


def tree(d) -> dict[str, bytes]:
    return {os.path.relpath(os.path.join(r, f), d): open(os.path.join(r, f), "rb").read()
            for r, _, fs in os.walk(d) for f in fs}


def synthetic(d, seed: int = 0, noise: float = 0.0) -> tuple[str, str]:
    """40 queries x 150 documents (simple lists); pair scores with duplicates, a document
    outside the reference and a query that occurs nowhere; YES/NO decisions."""
    rng = np.random.default_rng(seed)
    kws = d / "kws"
    kws.mkdir(parents=True, exist_ok=True)
    docs = [f"d{i:03d}" for i in range(150)]
    qs = [f"q{i:02d}" for i in range(40)]
    (kws / "documents").write_text("".join(x + "\n" for x in docs))
    (kws / "queries").write_text("".join(x + "\n" for x in qs))
    tg = {(int(q), int(x)) for q, x in zip(rng.integers(0, 39, 160), rng.integers(0, 150, 160))}
    (kws / "targets").write_text("".join(f"{qs[q]} {docs[x]}\n" for q, x in sorted(tg)))
    srng = np.random.default_rng(seed + 100)
    lines = []
    for _ in range(2500):
        q, x = int(srng.integers(0, 40)), int(srng.integers(0, 150))
        s = round(float(srng.normal(3.0 if (q, x) in tg else -2.0, 1.5) + noise * srng.normal()), 3)
        lines.append(f"{qs[q]} {docs[x]} {s} {'YES' if s >= 1.0 else 'NO'}\n")
    lines.append(f"{qs[0]} elsewhere 1.0 YES\n")
    det = d / "det.txt"
    det.write_text("".join(lines))
    return str(kws), str(det)


def same_outputs(a, b) -> None:
    ta, tb = tree(a / "details"), tree(b / "details")
    assert sorted(ta) == sorted(tb) and all(ta[k] == tb[k] for k in ta)
    for f in ("quesst", "quesst_operating"):
        assert (a / "scores" / f).read_bytes() == (b / "scores" / f).read_bytes(), f
    ja, jb = (json.loads((x / "scores" / "scores.json").read_text()) for x in (a, b))
    for j in (ja, jb):
        j.pop("command")
        j.pop("stages")
    assert ja == jb
    with np.load(a / "units" / "units.quesst_query.npz") as za, np.load(b / "units" / "units.quesst_query.npz") as zb:
        assert all(np.array_equal(za[k], zb[k]) for k in za.files)


@pytest.fixture(scope="module")
def example(root, tmp_path_factory):
    d = tmp_path_factory.mktemp("qex")
    mk = ["python3", "local/make_example_quesst.py"]
    for step in (["reference", str(d / "kws")], ["index", str(d / "kws"), str(d / "index.npz")],
                 ["search", str(d / "kws"), str(d / "index.npz"), str(d / "q.stdlist.xml")]):
        r = subprocess.run(mk + step, cwd=root, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    return d


def test_example_nj_and_bootstrap(root, example, tmp_path):
    outs = []
    for nj in (1, 3):
        exp = tmp_path / f"nj{nj}"
        r = sh(root, "steps/score_quesst.sh", "--nj", nj, "--bootstrap", 300, "--seed", 5, "--default-score", -10,
               example / "kws", example / "q.stdlist.xml", exp)
        assert r.returncode == 0, r.stderr
        outs.append(exp)
    same_outputs(*outs)
    assert all((outs[1] / "log" / f"quesst.{j}.log").is_file() for j in (1, 2, 3))
    assert not list(outs[1].glob("jobs/quesst.*.npz"))
    s = json.loads((outs[1] / "scores" / "scores.json").read_text())
    for m in ("act_twv", "max_twv", "ub_twv", "act_cnxe", "min_cnxe"):
        ci = s["ci"][m]
        assert ci["unit"] == "query" and ci["units"] == 11 and ci["n"] == 300 and ci["seed"] == 5
        assert ci["lo"] <= s[m] + 1e-12 and s[m] - 1e-12 <= ci["hi"], m
    assert s["bootstrap"]["unit"] == "query" and len(s["data_id"]) == 16
    line = next(x for x in (outs[1] / "scores" / "quesst").read_text().splitlines() if x.startswith("max_twv "))
    assert " ci95 " in line


@pytest.mark.parametrize("opts", [(), ("--use-decisions", "true", "--default-score", "min")])
def test_synthetic_nj_identical(root, tmp_path, opts):
    kws, det = synthetic(tmp_path)
    outs = []
    for nj in (1, 4):
        exp = tmp_path / f"nj{nj}"
        r = sh(root, "steps/score_quesst.sh", "--nj", nj, "--bootstrap", 50, *opts, kws, det, exp)
        assert r.returncode == 0, r.stderr
        assert "Removing unseen models" in r.stderr and "were dropped" in r.stderr
        outs.append(exp)
    same_outputs(*outs)
    s = json.loads((outs[1] / "scores" / "scores.json").read_text())
    assert s["n_duplicates"] > 0 and s["n_outside_documents"] == 1


def test_query_table_reproduces_the_figures(tmp_path):
    kws, det = synthetic(tmp_path)
    ref = quesst_io.load_reference(kws)
    for dec in (False, True):
        tr, _ = quesst_io.trials_from_inputs(ref, quesst_io.read_pair_scores(det), -10.0)
        r = Q.score_trials(tr, Q.effective_prior(0.0008, 100, 1), None, dec)
        us = query_table(tr, r, tr.decision if dec else tr.score >= r.act_threshold)
        assert us.unit == "query" and us.ids == sorted(us.ids) and len(us.ids) == tr.n_queries
        assert len(us.columns) == 10 + 2 * 257      # fixed width: any two systems are comparable
        got = full_values(us)
        for k in ("act_twv", "max_twv", "ub_twv", "act_cnxe", "min_cnxe"):
            want = {"min_cnxe": r.min_cnxe.cnxe}.get(k, getattr(r, k, None))
            assert got[k] == pytest.approx(want, abs=1e-12), k


def test_jobs_reproduce_one_process_and_refuse_stale_files(tmp_path):
    kws, det = synthetic(tmp_path)
    ref = quesst_io.load_reference(kws)
    m = quesst_io.map_detections(ref, quesst_io.read_pair_scores(det), "min")
    whole, _ = quesst_io.trials_from_mapped(ref, m)
    parser = score_quesst.get_parser()
    args = options_of(parser, parser.parse_args([str(kws), str(det), str(tmp_path / "exp")]))
    stage = score_quesst.stage_of(args)
    ctx = stage.load(args)
    for j in (1, 2, 3, 4, 5):
        jobs.run(stage, args, args.exp_dir, nj=5, job=j)
    shards = [jobs.load_shard(jobs.shard_path(args.exp_dir, "quesst", j), {}) for j in range(1, 6)]
    tr = stage.merge(ctx, shards)[0]      # (trials, result, ranking, breakdown rows)
    for k in ("query", "score", "target", "count", "decision", "n_target"):
        assert np.array_equal(getattr(tr, k), getattr(whole, k)), k
    assert tr.counts == whole.counts
    with pytest.raises(InputError, match="another run"):
        jobs.run(stage, args, args.exp_dir, merge=4)
    with pytest.raises(InputError, match="--job"):
        jobs.run(stage, args, args.exp_dir, nj=5, job=6)


def test_compare_two_quesst_systems(root, tmp_path):
    kws, det_a = synthetic(tmp_path / "a")
    _, det_b = synthetic(tmp_path / "b", noise=2.5)       # same reference, noisier scores
    for name, det in (("sa", det_a), ("sa2", det_a), ("sb", det_b)):
        r = sh(root, "steps/score_quesst.sh", "--default-score", -10, kws, det, tmp_path / name)
        assert r.returncode == 0, r.stderr
    out = tmp_path / "cmp_same"
    r = sh(root, "steps/compare_systems.sh", "--bootstrap", 200, "--plot", "false", tmp_path / "sa", tmp_path / "sa2", out)
    assert r.returncode == 0, r.stderr
    res = json.loads((out / "scores" / "compare.json").read_text())
    assert res["units"] == {"quesst_query": "query"}
    for m in ("act_twv", "max_twv", "ub_twv", "act_cnxe", "min_cnxe"):
        v = res["diffs"]["sa2"][m]
        assert v["diff"] == 0 and v["p"] == 1, m
    out = tmp_path / "cmp_diff"
    r = sh(root, "steps/compare_systems.sh", "--bootstrap", 300, "--seed", 2, tmp_path / "sa", tmp_path / "sb", out)
    assert r.returncode == 0, r.stderr
    res = json.loads((out / "scores" / "compare.json").read_text())
    a = json.loads((tmp_path / "sa" / "scores" / "scores.json").read_text())
    b = json.loads((tmp_path / "sb" / "scores" / "scores.json").read_text())
    for m in ("act_twv", "max_twv", "act_cnxe", "min_cnxe"):
        d = res["diffs"]["sb"][m]
        assert d["diff"] == pytest.approx(b[m] - a[m], abs=1e-12)
        assert d["lo"] <= d["diff"] <= d["hi"]
    assert res["diffs"]["sb"]["max_twv"]["diff"] < 0 and res["diffs"]["sb"]["max_twv"]["p"] < 0.05
    assert (out / "forest.png").is_file()
    lines = (out / "scores" / "compare").read_text().splitlines()
    assert any(x.startswith("max_twv sb-sa ") and " ci95 " in x for x in lines)
    ua = load_units(str(tmp_path / "sa" / "units" / "units.quesst_query.npz"))
    assert ua.unit == "query" and ua.exact["max_twv"] == pytest.approx(a["max_twv"], abs=1e-15)
