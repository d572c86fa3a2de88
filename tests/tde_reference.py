"""The reference tdev2 package (PyPI zerospeech-tde, test-only) as the zrc2020 tests call it:
`reference()` imports its measures (skipping the test when it is not installed),
`reference_scores()` scores a micro-corpus with them, `same()` compares two values the way the
differential tests do. Shared by tests/zrc2020/ and tests/test_classes.py."""
from __future__ import annotations

import math
import types

import pytest


def reference():
    tde = pytest.importorskip("tde.measures.ned", reason="zerospeech-tde (reference) not installed")
    from tde.measures.boundary import Boundary
    from tde.measures.coverage import Coverage
    from tde.measures.grouping import Grouping
    from tde.measures.ned import Ned
    from tde.measures.token_type import TokenType
    from tde.readers.disc_reader import Disc
    from tde.readers.gold_reader import Gold
    return types.SimpleNamespace(Gold=Gold, Disc=Disc, Ned=Ned, Coverage=Coverage,
                                 Grouping=Grouping, TokenType=TokenType, Boundary=Boundary)


def reference_scores(R, paths) -> dict:
    gold = R.Gold(wrd_path=paths["x.wrd"], phn_path=paths["x.phn"])
    disc = R.Disc(paths["x.class"], gold)
    out = {}
    ned = R.Ned(disc)
    if any(len(c) > 1 for c in disc.clusters.values()):
        ned.compute_ned()
        out["ned"], out["ned_pairs"] = ned.ned, ned.n_pairs
    else:
        out["ned"], out["ned_pairs"] = math.nan, 0
    cov = R.Coverage(gold, disc)
    try:
        cov.compute_coverage()
        out["coverage"] = cov.coverage
    except ZeroDivisionError:          # no speech phone at all: undefined
        out["coverage"] = math.nan
    g = R.Grouping(disc)
    g.compute_grouping()
    out["grouping_precision"], out["grouping_recall"] = g.precision, g.recall
    tt = R.TokenType(gold, disc)
    tt.compute_token_type()
    (out["token_precision"], out["type_precision"]), (out["token_recall"], out["type_recall"]) = tt.precision, tt.recall
    b = R.Boundary(gold, disc)
    b.compute_boundary()
    out["boundary_precision"], out["boundary_recall"] = b.precision, b.recall
    return out


def same(a, b) -> bool:
    a = math.nan if a is None else float(a)
    b = math.nan if b is None else float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == pytest.approx(b, rel=1e-9, abs=1e-12)
