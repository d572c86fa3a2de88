"""STD per-term statistics: exact ATWV/MTWV/OTWV at the full sample, intervals, paired compare."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from termeval.bootstrap.engine import full_values, paired_test
from termeval.std.units import term_table
from termeval.bootstrap.units import load_units
from termeval.std.detections import read_detections
from termeval.std.kwsdir import load_kws_dir
from termeval.std.score import Params, score_std

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "local"))
from bench_std import generate  # noqa: E402


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("std"))
    return generate(d, 40, 3000, 20, 30.0, "kwslist", seed=3)


@pytest.mark.parametrize("inc", [False, True])
def test_term_table_reproduces_the_twv_family(task, inc):
    kws_dir, det = task
    kws = load_kws_dir(kws_dir)
    dets = read_detections(det, "auto", kws.frame_length, kws.utt_map, kws.segments)
    res = score_std(kws, dets, Params(preset="sws2013", include_notarget_terms=inc))
    us = term_table(res, dets)
    r = full_values(us)
    for k in ("atwv", "mtwv", "otwv"):
        assert r[k] == pytest.approx(res.metrics[k], abs=1e-12), k
    assert us.unit == "term" and us.ids == sorted(us.ids)


def test_score_std_bootstrap_and_compare(root, task, tmp_path):
    kws_dir, det = task
    for exp in ("a", "b"):
        r = subprocess.run([sys.executable, "-m", "termeval.bin.score_std", "--plots", "false",
                            "--bootstrap", "300", "--seed", "4", kws_dir, det, str(tmp_path / exp)],
                           cwd=root, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    s = json.loads((tmp_path / "a" / "scores" / "scores.json").read_text())
    for k in ("atwv", "mtwv", "otwv"):
        assert s["ci"][k]["unit"] == "term" and s["ci"][k]["lo"] <= s[k] + 1e-12 <= s["ci"][k]["hi"] + 2e-12
    assert " ci95 " in next(x for x in (tmp_path / "a" / "scores" / "std").read_text().splitlines()
                            if x.startswith("atwv "))
    ua, ub = (load_units(str(tmp_path / e / "units" / "units.std_term.npz")) for e in ("a", "b"))
    res = paired_test(ub, ua, 200, 1, test="permutation")
    assert all(v["diff"] == 0 and v["p"] == 1 for v in res.values())
    r = subprocess.run(["bash", "-c", f"cd {root} && . ./path.sh && steps/compare_systems.sh --bootstrap 100 "
                        f"{tmp_path / 'a'} {tmp_path / 'b'} {tmp_path / 'cmp'}"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "cmp" / "scores" / "compare").read_text().startswith("atwv b-a 0.000000 ci95 0.0000 0.0000 p 1 ")
