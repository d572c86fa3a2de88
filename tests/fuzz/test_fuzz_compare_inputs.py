"""Property-based fuzzing of steps/compare_systems.sh's inputs: a system's scores/scores.json and
its per-unit statistics (units/units.<table>.npz: plain tables, segmentation contingency cells,
zr2015/zr2017 fold tables), as bytes (random, truncated, mutated) and as decoded contents
(arrays of odd shapes, types and values, altered metadata). Loading and comparing them with a
valid baseline either succeeds or raises termeval.core.errors.InputError (one line) - never another
exception, which the scripts would print as "internal error".
"""
from __future__ import annotations

import io
import json
import os
import tempfile

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

from termeval.bootstrap import cells  # noqa: E402
from termeval.tde.zr2015 import units as folds  # noqa: E402  (zr2015/zr2017 fold tables)
from termeval.bootstrap.compare import compare, load_system, write_compare  # noqa: E402
from termeval.bootstrap.engine import UnitStats  # noqa: E402
from termeval.bootstrap.units import save_units, units_path  # noqa: E402
from termeval.core.errors import InputError  # noqa: E402
from test_fuzz_readers import NUMBERS, mutated, put  # noqa: E402

FAST = settings(max_examples=int(os.environ.get("TERMEVAL_FUZZ_EXAMPLES", "100")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])
IDS = ["f1", "f2", "f3"]


def plain_table() -> UnitStats:
    X = np.array([[3.0, 4.0, 1.0], [1.0, 2.0, 0.0], [0.0, 5.0, 2.0]])
    m = {"recall": ("ratio", "hit", "ref"), "precision": ("ratio", "hit", "det"),
         "fscore": ("fscore", "precision", "recall"), "twv": ("lincomb", [[1.0, "hit", "ref"], [-0.5, "det", "ref"]])}
    return UnitStats("term", IDS, ["hit", "ref", "det"], X, m, {"recall": 4 / 11, "precision": 4 / 3,
                                                                "fscore": 0.5, "twv": 0.2})


def cell_table(visit: bool = False) -> UnitStats:
    c = cells.build(np.array([0, 0, 1, 2, 2]), ["a", "b", "a", "b", "c"], ["k1", "k1", "k2", "k2", "k1"],
                    np.array([2.0, 1.0, 3.0, 1.0, 4.0]), 3)
    if visit:               # vqwordseg's purity counts only some clusters
        c.visit = np.array([True, False])
    return UnitStats("file", IDS, ["n"], np.array([[3.0], [3.0], [5.0]]),
                     {"purity": ("cells", "purity"), "nmi": ("cells", "nmi")}, {"purity": 0.6, "nmi": 0.4}, c)


def fold_table() -> folds.FoldUnits:
    rng = np.random.default_rng(3)
    X = {s: rng.integers(0, 5, size=(3, f, len(folds.COLUMNS["file"]))).astype(float)
         for s, f in (("cross", 2), ("within", 3))}
    t = folds.FoldUnits("file", "file", IDS, X, "zr2017", {})
    t.exact = folds.full_values(t)
    return t


def npz_bytes(save, table) -> bytes:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.npz")
        save(path, table)
        with open(path, "rb") as f:
            return f.read()


SAMPLES = {"std_term": npz_bytes(save_units, plain_table()),
           "segmentation_file": npz_bytes(save_units, cell_table()),
           "segmentation_phone_file": npz_bytes(save_units, cell_table(visit=True)),
           "tde15_file": npz_bytes(folds.save_table, fold_table())}
SCORES = json.dumps({"benchmark": "b", "data_id": "x1", "data_ids": {"b": "x1"}, "recall": 0.36}).encode()


def system(d: str, table: str, units: bytes, scores: bytes = SCORES) -> str:
    put(d, "scores/scores.json", scores)
    put(d, os.path.relpath(units_path(d, table), d), units)
    return d


def compare_with_baseline(table: str, units: bytes, scores: bytes = SCORES, test: str = "bootstrap") -> None:
    """Load a valid baseline and the fuzzed system, compare them, write the results: success or
    one InputError line."""
    with tempfile.TemporaryDirectory() as d:
        a = system(os.path.join(d, "a"), table, SAMPLES[table])
        b = system(os.path.join(d, "b"), table, units, scores)
        try:
            res = compare([load_system(a), load_system(b)], 20, 1, 0.95, test)
            write_compare(os.path.join(d, "cmp"), res)
        except InputError as e:
            assert str(e) and "\n" not in str(e)


def test_valid_samples_compare():
    for table, raw in SAMPLES.items():
        with tempfile.TemporaryDirectory() as d:
            a = system(os.path.join(d, "a"), table, raw)
            b = system(os.path.join(d, "b"), table, raw)
            res = compare([load_system(a), load_system(b)], 20, 1, 0.95, "permutation")
            assert all(v["diff"] in (0, None) for v in res["diffs"]["b"].values()), table


@FAST
@given(text=mutated([SCORES, b'{"data_id": "x1"}', b'{"data_ids": {"b": "x1"}, "data_id": "x1", "stages": {}}']))
def test_scores_json(text):
    compare_with_baseline("std_term", SAMPLES["std_term"], text)


@FAST
@given(table=st.sampled_from(sorted(SAMPLES)), data=st.data())
def test_units_file_bytes(table, data):
    raw = SAMPLES[table]
    choice = data.draw(st.integers(0, 2))
    if choice == 0:                       # truncated anywhere (a full disk, an interrupted copy)
        raw = raw[:data.draw(st.integers(0, len(raw)))]
    elif choice == 1:                     # a few bytes changed
        b = bytearray(raw)
        for _ in range(data.draw(st.integers(1, 4))):
            b[data.draw(st.integers(0, len(b) - 1))] = data.draw(st.integers(0, 255))
        raw = bytes(b)
    else:
        raw = data.draw(mutated([raw]))
    compare_with_baseline(table, raw, test=data.draw(st.sampled_from(["bootstrap", "permutation"])))


FLOATS = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([0.0, -1.0, 1e308, 3.0])


def arrays(dtype=None):
    return hnp.arrays(dtype=dtype or st.sampled_from([np.float64, np.int64, np.bool_, np.dtype("U3")]),
                      shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
                      elements=None if dtype is None else FLOATS)


def resave(raw: bytes, change: dict, drop: list[str]) -> bytes:
    with np.load(io.BytesIO(raw), allow_pickle=False) as z:
        parts = {k: z[k] for k in z.files if k not in drop}
    parts.update(change)
    f = io.BytesIO()
    np.savez(f, **parts)
    return f.getvalue()


@FAST
@given(table=st.sampled_from(sorted(SAMPLES)), data=st.data())
def test_units_file_contents(table, data):
    """Well-formed .npz files whose arrays or metadata are not what scoring writes."""
    with np.load(io.BytesIO(SAMPLES[table]), allow_pickle=False) as z:
        names = list(z.files)
        meta = str(z["meta"]).encode()
    change = {}
    for name in data.draw(st.lists(st.sampled_from(names), max_size=3, unique=True)):
        if name == "meta":
            change[name] = np.asarray(data.draw(mutated([meta])).decode("utf-8", "replace"))
        elif name == "ids":
            change[name] = data.draw(st.sampled_from([
                np.asarray(["f1", "f1", "f3"]), np.asarray(["f3", "f2"]), np.asarray([1, 2, 3]),
                np.asarray([["f1", "f2", "f3"]]), np.asarray(["f1", "f2", "f3", "f4"]), np.asarray([], dtype=str)]))
        else:
            change[name] = data.draw(arrays(data.draw(st.sampled_from([None, np.float64]))))
    drop = data.draw(st.lists(st.sampled_from(names), max_size=1))
    compare_with_baseline(table, resave(SAMPLES[table], change, drop),
                          test=data.draw(st.sampled_from(["bootstrap", "permutation"])))


def test_numeric_cluster_labels_are_one_error():
    """A units file whose contingency labels are numbers (found by the fuzzer: the paired test
    sorted str and float names together): one InputError, never a TypeError."""
    bad = resave(SAMPLES["segmentation_file"], {"c_labels": np.asarray([0.0, 0.0, 0.0])}, [])
    with tempfile.TemporaryDirectory() as d:
        with pytest.raises(InputError, match="labels or clusters are not a list of names"):
            load_system(system(os.path.join(d, "b"), "segmentation_file", bad))


@FAST
@given(value=st.sampled_from([v.decode() for v in NUMBERS]), key=st.sampled_from(["X", "c_data"]),
       pos=st.integers(0, 2))
def test_odd_numbers_in_the_tables(value, key, pos):
    table = "segmentation_file" if key == "c_data" else "std_term"
    with np.load(io.BytesIO(SAMPLES[table]), allow_pickle=False) as z:
        arr = z[key].astype(np.float64).copy()
    try:
        arr.flat[min(pos, arr.size - 1)] = float(value.replace("_", ""))
    except ValueError:
        return
    compare_with_baseline(table, resave(SAMPLES[table], {key: arr}, []))
