"""The DET plot's probit axis (std/det.py probit = the standard library's NormalDist.inv_cdf) inverts the normal CDF to the
last digits and clamps p to [eps, 1 - eps] as F4DE's ppndf does."""
from __future__ import annotations

import math

import numpy as np

from termeval.std.det import EPS, probit


def test_probit_inverts_the_normal_cdf():
    x = np.linspace(-8, 8, 321)
    p = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in x])
    mid = np.abs(x) < 5          # where p itself is exact enough to invert
    assert np.max(np.abs(probit(p[mid]) - x[mid])) < 1e-9
    assert probit(0.5) == 0
    assert probit([0.0, 1.0]).tolist() == probit([EPS, 1 - EPS]).tolist()
