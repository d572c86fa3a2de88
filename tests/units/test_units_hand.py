"""Hand-computed PNMI, purities, PER and boundaries on a 3-utterance case (docs/units.md), and
the same case in every unit format (Kaldi text, kaldiio binary archive, discophon .jsonl, .npy
dir, a Python mapping) giving the same numbers."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

import termeval
from termeval.core import plots

GOLD = """#file onset offset #phone
u1 0 0.02 a
u1 0.02 0.06 b
u1 0.06 0.08 SIL
u2 0 0.02 SIL
u2 0.02 0.06 a
u3 0 0.04 b
"""
# 20 ms units: u1 1 2 1 3 -> frames a a|b b|b b|SIL SIL; u2 3 1 4 -> SIL SIL|a a|a a; u3 2 2 -> b b b b
UNITS = {"u1": [1, 2, 1, 3], "u2": [3, 1, 4], "u3": [2, 2]}


@pytest.fixture(autouse=True)
def no_plots(monkeypatch):
    monkeypatch.setattr(plots, "available", lambda: False)


@pytest.fixture
def gold(tmp_path):
    (tmp_path / "gold.txt").write_text(GOLD)
    return termeval.prepare_gold(str(tmp_path / "gold.txt"), format="discophon")


def expected() -> dict:
    # cells (phone, unit): (a,1) 4, (b,1) 2, (b,2) 6, (SIL,3) 4, (a,4) 2; N = 18
    mi = (4 * math.log(2) + 2 * math.log(0.75) + 6 * math.log(2.25) + 4 * math.log(4.5) + 2 * math.log(3)) / 18
    h = -sum(n / 18 * math.log(n / 18) for n in (6, 8, 4))
    os_ = 4 / 3 - 1          # TP 3, FP 1, FN 0: the prediction at 40 ms (the midpoint of 20 and 60) is in 20's window
    rval = 1 - (math.sqrt(os_ ** 2) + abs(-os_ + 1 - 1) / math.sqrt(2)) / 2
    return {"pnmi": mi / h, "phone_purity": 16 / 18, "cluster_purity": 14 / 18, "per": 1 / 6,
            "boundary_precision": 3 / 4, "boundary_recall": 1.0, "boundary_fscore": 6 / 7, "boundary_rvalue": rval}


def test_hand_computed(gold):
    s = termeval.score_units(gold, UNITS)
    for k, v in expected().items():
        assert s[k] == pytest.approx(v, abs=1e-12), k
    assert s["phone_purity"] == 16 / 18 and s["per"] == 1 / 6       # exact fractions


def test_every_unit_format_same_numbers(gold, tmp_path):
    import kaldiio
    (tmp_path / "u.txt").write_text("".join(f"{k} {' '.join(map(str, v))}\n" for k, v in UNITS.items()))
    (tmp_path / "u_brackets.txt").write_text("".join(f"{k} [ {' '.join(map(str, v))} ]\n" for k, v in UNITS.items()))
    (tmp_path / "u.jsonl").write_text("".join(json.dumps({"file": k, "units": v}) + "\n" for k, v in UNITS.items()))
    kaldiio.save_ark(str(tmp_path / "u.ark"), {k: np.array(v, np.int32) for k, v in UNITS.items()},
                     scp=str(tmp_path / "u.scp"))
    (tmp_path / "npy").mkdir()
    for k, v in UNITS.items():
        np.save(tmp_path / "npy" / f"{k}.npy", np.array(v, np.int64))
    want = termeval.score_units(gold, UNITS)
    for units in ("u.txt", "u_brackets.txt", "u.jsonl", "u.ark", "ark:u.ark", "scp:u.scp", "npy"):
        path = f"{units[:4]}{tmp_path}/{units[4:]}" if ":" in units else str(tmp_path / units)
        got = termeval.score_units(gold, path)
        assert {k: got[k] for k in expected()} == {k: want[k] for k in expected()}, units


def test_fairseq_mode_on_the_hand_case(gold):
    s = termeval.score_units(gold, UNITS, compat="fairseq")
    e = expected()
    assert s["phone_purity"] == pytest.approx(e["phone_purity"], abs=1e-15)
    assert s["pnmi"] == pytest.approx(e["pnmi"], rel=1e-6) and s["pnmi"] != e["pnmi"]     # 1e-8 inside the logs
    assert s["ref_segment_length"] == 18 / 6 and s["hyp_segment_length"] == 18 / 8


def test_one_to_one(gold):
    units = {"u1": [0, 1, 0, 2], "u2": [2, 0, 0], "u3": [1, 1]}
    s = termeval.score_units(gold, units, kind="one-to-one")
    assert s["per"] == 1 / 6 and s["units"]["n_units"] == 3 and s["units"]["n_phonemes"] == 2


def test_fast_paths_equal_the_plain_ones(tmp_path):
    """The bootstrap cells equal termeval.bootstrap.cells.build's; a discophon line read by the
    regular-expression path equals json's."""
    from termeval.bootstrap import cells as bcells
    from termeval.units import readers, report
    rng = np.random.default_rng(3)
    owner, row, unit = rng.integers(0, 4, 300), rng.integers(0, 5, 300), rng.integers(0, 40, 300)
    count = rng.integers(1, 9, 300)
    names = ["b", "SIL", "a", "<missing-3>", "z"]
    fast = report._cells(owner, row, unit, count, names, 4)
    slow = bcells.build(owner, [names[i] for i in row], [str(u) for u in unit], count, 4)
    assert fast.labels == slow.labels and fast.clusters == slow.clusters
    assert (fast.row == slow.row).all() and (fast.col == slow.col).all()
    assert (fast.X.toarray() == slow.X.toarray()).all()
    plain = '{"file": "a-1", "units": [0, 12, 7]}\n{"units": [3, 1], "file": "b"}\n{"file":"c","units":[5]}\n'
    (tmp_path / "u.jsonl").write_text(plain)
    got = readers.read_jsonl(str(tmp_path / "u.jsonl"))
    assert got.keys == ["a-1", "b", "c"] and got.values.tolist() == [0, 12, 7, 3, 1, 5]
    assert got.starts.tolist() == [0, 3, 5, 6] and got.lines == [1, 2, 3]
