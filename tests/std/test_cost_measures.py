"""MediaEval 2013 SWS cost measures (seed §2.4 eqs. 8-10, §4.2.5; docs/std-metrics.md, "Detection cost"):
C_Det, C_Default, C_Norm at beta >= 1 and beta < 1, and the calibration loss Cnxe - Cmin_nxe,
hand-computed on the docs/std.md §6.1 toy and on a two-score system."""
from __future__ import annotations

import math

import numpy as np
import pytest

from termeval.std import cnxe
from termeval.std.twv import detection_cost

from test_std_cli import score, toy  # noqa: F401  (the toy fixture)

# The toy (N = 100 trials per term): q1 has 4 references, 2 hits, 1 FA; q2 has 1 reference,
# 1 hit, 1 FA; q3 has no reference (not evaluated).
P_MISS = (0.5 + 0.0) / 2
P_FA = (1 / 96 + 1 / 99) / 2


def test_detection_cost_by_hand():
    # beta = C_fa (1 - P_t) / (C_miss P_t) = 0.5 / 0.25 = 2 >= 1: reject-all default
    c_det, c_def, c_norm = detection_cost(0.2, 0.1, 0.5, 0.5, 1.0)
    assert c_det == pytest.approx(0.5 * 0.2 * 0.5 + 1.0 * 0.1 * 0.5)     # 0.1
    assert c_def == pytest.approx(0.25) and c_norm == pytest.approx(0.4)
    assert c_norm == pytest.approx(0.2 + 2 * 0.1)                         # = 1 - TWV
    # beta = 0.4 / 0.6 < 1: accept-all default, C_Norm = P_miss / beta + P_fa != 1 - TWV
    c_det, c_def, c_norm = detection_cost(0.2, 0.1, 0.6, 1.0, 1.0)
    assert c_det == pytest.approx(0.6 * 0.2 + 0.4 * 0.1)                  # 0.16
    assert c_def == pytest.approx(0.4) and c_norm == pytest.approx(0.4)
    assert c_norm == pytest.approx(0.2 / (2 / 3) + 0.1)
    assert 1 - (1 - 0.2 - (2 / 3) * 0.1) == pytest.approx(0.26667, abs=1e-5)  # 1 - TWV differs
    assert detection_cost(None, 0.1, 0.6, 1.0, 1.0) == (None, pytest.approx(0.4), None)


def test_std_scores_beta_at_least_one(toy):  # noqa: F811
    s = score(toy)          # sws2013: P_target 0.00015, C_miss 100, C_fa 1, beta 66.66
    assert s["c_default"] == pytest.approx(100 * 0.00015)
    assert s["c_det"] == pytest.approx(100 * 0.00015 * P_MISS + 1 * 0.99985 * P_FA)
    assert s["c_norm"] == pytest.approx(1 - s["atwv"]) and s["c_norm"] == pytest.approx(0.933820, abs=1e-6)
    lines = (toy / "exp" / "scores" / "std").read_text().splitlines()
    assert "c_norm 0.933820 [ = 1 - ATWV ]" in lines


def test_std_scores_beta_below_one(toy):  # noqa: F811
    s = score(toy, "dets.xml", "--compat", "f4de", "--preset", "sws2013", "--p-target", "0.6",
              "--c-miss", "1", "--c-fa", "1")
    assert s["beta"] == pytest.approx(2 / 3)
    assert s["c_default"] == pytest.approx(0.4)
    assert s["c_det"] == pytest.approx(0.6 * P_MISS + 0.4 * P_FA)
    assert s["c_norm"] == pytest.approx(P_MISS / (2 / 3) + P_FA)
    assert s["c_norm"] == pytest.approx(0.385259, abs=1e-6)
    assert 1 - s["atwv"] == pytest.approx(P_MISS + (2 / 3) * P_FA) != pytest.approx(s["c_norm"])
    text = (toy / "exp" / "scores" / "std").read_text()
    assert "c_default 0.400000 [ accept all: C_fa*(1-P_target) ]" in text


def test_calibration_loss_two_scores_by_hand():
    # P_tar 0.5; score u: 3 targets 1 non-target; score -u: 1 target 3 non-targets. The best
    # affine map sends u to ln 3 (the empirical LLR), so Cmin_nxe = h2(1/4) = 0.811278; the
    # overconfident system u = 2 ln 3 has Cnxe = 0.75 log2(1 + 1/9) + 0.25 log2(10).
    u = 2 * math.log(3)
    s, y, c = np.array([u, u, -u, -u]), np.array([True, False, True, False]), np.array([3., 1., 1., 3.])
    act = cnxe.cnxe(s, y, c, 0.5)
    assert act == pytest.approx(0.75 * math.log2(10 / 9) + 0.25 * math.log2(10), abs=1e-12)
    fit = cnxe.min_cnxe_affine(s, y, c, 0.5)
    assert fit.cnxe == pytest.approx(cnxe.h2(0.25), abs=1e-9) and fit.gamma == pytest.approx(0.5, abs=1e-6)
    assert act - fit.cnxe == pytest.approx(0.944484 - 0.811278, abs=1e-6)


def test_std_calibration_loss_is_cnxe_minus_the_affine_minimum(toy):  # noqa: F811
    s = score(toy)
    assert s["calibration_loss"] == pytest.approx(s["cnxe"] - s["cmin_nxe"], abs=1e-15)
    pav = score(toy, "dets.xml", "--cmin", "pav", exp="pav")     # cmin_nxe is then the PAV bound
    assert pav["calibration_loss"] == pytest.approx(s["calibration_loss"], abs=1e-15)
    assert pav["cnxe"] - pav["cmin_nxe"] >= pav["calibration_loss"] - 1e-12
