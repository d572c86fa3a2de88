"""--compat harwath --level syllable against cheoljun95/sdhubert's own scripts, and snmi against
ryota-komatsu's SylReg eval.py, on 200 generated cases (tests/differential/cases.py), recorded in
tests/fixtures/differential/{sdhubert,sylreg}.json (tests/differential/record.py) and compared
on every run; against the scripts themselves when $SDHUBERT_DIR (and $SYLREG_DIR) name them.

* evaluate_boundary.py (BoundaryDetectionEvaluator, run whole, its shift search pinned to its
  zero entry by a calibration utterance in the validation set: tests/differential/tool_inputs):
  syllable_boundary_{precision,recall,fscore,os,rvalue}; where it divides by zero (no predicted
  or no gold boundary: P or R undefined here; P + R = 0: F 0 here).
* evaluate_purity.py (run whole, with a k-means stub predicting the argmax of the features, the
  centres termeval is given with --centroids): syllable_purity, cluster_purity.
* SylReg's eval.py ("sylboost" units from the .npy files): syllable_purity, cluster_purity and
  syllable_normalized_mutual_info (in percent there) = syllable_purity, cluster_purity, snmi.
The gold of the cluster metrics is SD-HuBERT's syllable JSON itself (prepare_gold --syllables),
the prediction its .npy files (utils/convert_segments.sh --from sdhubert-npy --centroids).
"""
from __future__ import annotations

import os
from dataclasses import replace

import numpy as np
import pytest

from termeval.segmentation.convert import convert_lines
from tests.differential import cases as gen
from tests.differential import tool_inputs
from tests.differential.harness import Scored, check_digests, compare, live, load_fixture, same, write_gold
from tests.differential.tool_inputs import SDHUBERT_SHIFT, seen

CASES = gen.sdhubert_cases()
BOUNDARY = {"precision": "prec", "recall": "recall", "fscore": "f1", "os": "os", "rvalue": "r_val"}


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> dict:
    d = str(tmp_path_factory.mktemp("sdhubert"))
    utts = [u for c in CASES for u in c.utts]
    seg = os.path.join(d, "segments")
    os.makedirs(seg)
    for u in utts:
        tool_inputs._npy(u, seg)
    np.save(os.path.join(d, "centres.npy"), np.eye(tool_inputs.N_CLUSTERS))
    pred = os.path.join(d, "pred.txt")
    with open(pred, "w") as f:
        f.writelines(convert_lines("sdhubert-npy", seg, allow_pickle=True, centroids=os.path.join(d, "centres.npy")))
    # the boundaries: the gold as the evaluator sees it after its zero shift (tool_inputs.seen)
    data_b = write_gold(utts, os.path.join(d, "b"), "zr", lambda ms: repr(seen(ms / 1000, SDHUBERT_SHIFT)))
    # the clusters: SD-HuBERT's syllable JSON read by prepare_gold --syllables
    import json
    with open(os.path.join(d, "test.json"), "w") as f:
        json.dump(tool_inputs._syllable_json(utts, None), f)
    data_c = write_gold(utts, os.path.join(d, "c"), os.path.join(d, "test.json"))
    opts = dict(compat="harwath", level="syllable", tolerance=0.05)
    return {"b": Scored(data_b, pred, **opts), "c": Scored(data_c, pred, **opts)}


def _boundary(scored: dict, c: gen.Case) -> dict:
    v = scored["b"].case([u.name for u in c.utts])
    return {k: v[f"syllable_boundary_{k}"] for k in BOUNDARY}


def _clusters(scored: dict, c: gen.Case) -> dict:
    v = scored["c"].case([u.name for u in c.utts])
    return {k: v.get(k) for k in ("syllable_purity", "cluster_purity", "snmi")}


def _check_boundary(ours: dict, out: dict, where: str) -> list[str]:
    err = out.get("boundary_error")
    if err is None:
        return compare(ours, {k: out[v] for k, v in BOUNDARY.items()}, BOUNDARY, where)
    if err.startswith("ZeroDivisionError: float"):      # P + R = 0: F = 2PR/(P+R)
        ok = ours["precision"] == ours["recall"] == ours["fscore"] == 0.0
    else:                                                # no predicted or no gold boundary
        ok = ours["precision"] is None or ours["recall"] is None
    return [] if ok else [f"{where}: the script {err}, termeval {ours}"]


def test_recorded_boundaries_and_purity(scored):
    fx = load_fixture("sdhubert")
    check_digests(fx, CASES)
    bad = []
    for c, row in zip(CASES, fx["cases"]):
        out, where = row["out"], f"case {c.index} ({c.kind})"
        bad += _check_boundary(_boundary(scored, c), out, where)
        ours = _clusters(scored, c)
        bad += compare(ours, out, ("syllable_purity", "cluster_purity"), where)
    assert not bad, "\n".join(bad[:20])
    assert sum("boundary_error" in r["out"] for r in fx["cases"]) < 10


def test_recorded_snmi(scored):
    fx = load_fixture("sylreg")
    check_digests(fx, CASES)
    bad = []
    for c, row in zip(CASES, fx["cases"]):
        out = row["out"]
        ours = {k: (None if v is None else 100 * v) for k, v in _clusters(scored, c).items()}
        ours["syllable_normalized_mutual_info"] = ours.pop("snmi")
        if out["syllable_normalized_mutual_info"] == "nan":     # no matched pair: p_xy / 0
            assert ours["syllable_normalized_mutual_info"] is None, c.index
            continue
        bad += compare(ours, out, out, f"case {c.index} ({c.kind})")
    assert not bad, "\n".join(bad[:20])


def test_live_scripts(scored):
    sub = CASES[::5]
    res = live("sdhubert", "SDHUBERT_DIR", sub)
    bad = []
    for c, r in zip(sub, res):
        bad += _check_boundary(_boundary(scored, c), r["out"], f"case {c.index}")
        bad += compare(_clusters(scored, c), r["out"], ("syllable_purity", "cluster_purity"), f"case {c.index}")
    assert not bad, "\n".join(bad[:20])


def test_live_sylreg(scored):
    if not os.environ.get("SDHUBERT_DIR"):
        pytest.skip("$SDHUBERT_DIR is not set")
    sub = CASES[::5]
    res = live("sylreg", "SYLREG_DIR", sub)
    for c, r in zip(sub, res):
        ours = _clusters(scored, c)
        assert same(100 * ours["snmi"], r["out"]["syllable_normalized_mutual_info"]), c.index
