"""zr2015/zr2017 with --nj N: every output file is byte-identical to one process for any N
(the cross folds split into measure groups, jobs reading the saved preparation), empty jobs
contribute nothing, and the saved preparation (<exp>/tde/zr2015) is used only for the inputs
it was made from."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from termeval.run import driver as jobs
from termeval.bin.score_tde import get_parser
from termeval.run.cli import options_of
from termeval.tde.benchmarks import stage_for
from termeval.tde.zr2015 import store
from termeval.tde.zr2015.matching import BANDS
from termeval.tde.zr2015.plan import band_of, needs, ordered, share_units, union_packed

from test_zr2015_counting import write_case


class Fixed:
    """The `data` of write_case with fixed draws: a deterministic corpus."""
    VALUES = {"seed": 11, "phones": 30, "fragments": 40, "classes": 5}

    def draw(self, strategy, label):
        return self.VALUES[label]


def outputs(exp: str) -> dict[str, bytes]:
    got = {}
    for top in ("scores", "details", "units"):
        for d, _, files in os.walk(os.path.join(exp, top)):
            for f in files:
                if f == ".summary":      # the merge's stdout, printed and removed by the step
                    continue
                p = os.path.join(d, f)
                data = open(p, "rb").read()
                if f == "scores.json":       # the command line and date differ, nothing else
                    s = json.loads(data)
                    for m in [s] + list(s.get("stages", {}).values()):
                        if isinstance(m, dict):
                            m.pop("command", None)
                            m.pop("date", None)
                    data = json.dumps(s).encode()
                got[os.path.relpath(p, exp)] = data
    return got


def _opts(argv):
    p = get_parser()
    return options_of(p, p.parse_args(argv))


def _without_date(x):
    """A scores mapping without its "date" entries: two runs a second apart differ there."""
    if isinstance(x, dict):
        return {k: _without_date(v) for k, v in x.items() if k != "date"}
    return [_without_date(v) for v in x] if isinstance(x, list) else x


def score(bench, d, cf, folds, exp, nj=1):
    argv = ["--benchmark", bench, "--folds", folds, d, cf, exp]
    stage = stage_for(bench)
    if nj == 1:
        return jobs.run(stage, _opts(argv), exp, echo=False)
    stage.prepare(_opts(argv + ["--prepare-only"]))
    for j in range(1, nj + 1):
        jobs.run(stage, _opts(argv + ["--nj", str(nj), "--job", str(j)]), exp, nj=nj, job=j, run_id="r", echo=False)
    return jobs.run(stage, _opts(argv + ["--merge", str(nj)]), exp, merge=nj, run_id="r", echo=False)


@pytest.mark.parametrize("bench", ["zr2015", "zr2017"])
@pytest.mark.parametrize("folds", ["none", "files", "files+gold"])
def test_any_nj_gives_the_one_process_files(tmp_path, bench, folds):
    d, cf, pre = write_case(str(tmp_path), Fixed())
    if folds == "files+gold":            # a <prefix>.classes gold file instead of generated n-grams
        with open(cf) as f, open(pre + ".classes", "w") as g:
            g.write(f.read())
    fold_arg = "none" if folds == "none" else pre
    one = score(bench, d, cf, fold_arg, str(tmp_path / "one"))
    assert one["cross_ned_nfolds"] >= 1 and not np.isnan(one["cross_matching_precision"])
    want = outputs(str(tmp_path / "one"))
    assert len(want) > 10
    for nj in (2, 3, 4, 9):              # 9 > units: empty jobs
        exp = str(tmp_path / f"nj{nj}")
        score(bench, d, cf, fold_arg, exp, nj)
        assert outputs(exp) == want, nj
        assert not os.path.exists(os.path.join(exp, "jobs"))       # shards consumed


def test_saved_preparation_is_keyed_on_content(tmp_path):
    d, cf, _ = write_case(str(tmp_path), Fixed())
    exp = str(tmp_path / "e")
    a = score("zr2017", d, cf, "none", exp, 2)
    path = store.cache_dir(exp)
    key = open(os.path.join(path, "key")).read().strip()
    assert store.valid(path, key) and store.Store(path).meta["fragments"] > 0
    # another class file (same path): a new preparation, the scores follow the new file
    lines = open(cf).read().split("\n\n")
    with open(cf, "w") as f:
        f.write("\n\n".join(lines[1:]))
    b = score("zr2017", d, cf, "none", exp, 2)
    assert open(os.path.join(path, "key")).read().strip() != key
    assert _without_date(b) == _without_date(score("zr2017", d, cf, "none", str(tmp_path / "one")))
    assert a["cross_ned_pairs"] != b["cross_ned_pairs"]
    # a damaged key is not trusted: prepared again; a stale temporary dir is ignored
    with open(os.path.join(path, "key"), "w") as f:
        f.write("0\n")
    os.makedirs(os.path.join(exp, "tde", ".zr2015.stale"))
    assert score("zr2017", d, cf, "none", exp, 3)["cross_ned_pairs"] == b["cross_ned_pairs"]


def test_units_and_needs():
    all_m = ("matching", "ned", "coverage", "grouping", "token_type", "boundary")
    units = share_units({"cross": 2, "within": 3}, all_m)
    bands = [f"matching{lo}-{hi}" for lo, hi in BANDS]
    assert units[:6] == [("cross", 0, "coverage"), ("cross", 1, "coverage"), ("cross", 0, "pairs"),
                         ("cross", 1, "pairs"), ("cross", 0, "words"), ("cross", 1, "words")]
    assert units[6:-3] == [("cross", i, g) for g in bands for i in (0, 1)]
    assert units[-3:] == [("within", 0, None), ("within", 1, None), ("within", 2, None)]
    assert share_units({"cross": 1, "within": 0}, ("ned",)) == [("cross", 0, "pairs")]
    assert [band_of(g) for g in bands] == list(BANDS) and band_of("pairs") is None
    # the bands cover the gold n-grams 3..20 once each
    assert sorted(L for lo, hi in BANDS for L in range(lo, hi + 1)) == list(range(3, 21))
    assert needs([("cross", 0, "words")], all_m) == {"words"}
    assert needs([("cross", 0, "pairs")], all_m) == {"phones", "ned"}
    assert needs([("cross", 0, bands[2])], all_m) == {"phones", "gold"}
    assert needs([("cross", 0, "coverage")], all_m) == {"phones", "gold"}
    assert needs([("within", 0, None)], all_m) == {"phones", "words", "gold", "ned"}


def test_union_in_one_process_order():
    pairs = {"ned": 0.5, "ned_pairs": 3, "ned_empty_pairs": 0, "grouping_precision": 1.0,
             "grouping_recall": 0.5, "fragments_in_fold": 7}
    match = {"coverage": 0.9, "matching_precision": 0.25, "matching_recall": 0.5,
             "matching_psubs_pairs": 4, "fragments_in_fold": 7}
    words = {"token_precision": 1.0, "token_recall": 0.5, "type_precision": 1.0, "type_recall": 1.0,
             "token_unplaced": 0, "boundary_precision": 1.0, "boundary_recall": 1.0, "fragments_in_fold": 7}
    assert list(ordered([match, pairs, words])) == [
        "ned", "ned_pairs", "ned_empty_pairs", "coverage", "grouping_precision", "grouping_recall",
        "token_precision", "token_recall", "type_precision", "type_recall", "token_unplaced",
        "boundary_precision", "boundary_recall", "matching_precision", "matching_recall",
        "matching_psubs_pairs", "fragments_in_fold"]
    from termeval.tde.zr2015.units import COLUMNS, pack
    cols = COLUMNS["file"]
    a = pack({"file": {cols[0]: (np.array([0, 2]), np.array([1.5, 2.0]))}})
    b = pack({"file": {cols[1]: (np.array([2, 3]), np.array([4.0, 5.0]))}})
    both = pack({"file": {cols[0]: (np.array([0, 2]), np.array([1.5, 2.0])),
                          cols[1]: (np.array([2, 3]), np.array([4.0, 5.0]))}})
    assert union_packed([a, b]) == both
    assert both["file"]["ids"] == [0, 2, 3] and both["file"]["X"][1][:2] == [2.0, 4.0]
