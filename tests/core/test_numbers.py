"""The one number format of score and details files (termeval/core/numbers.py, docs/guide.md
§11.1): counts as integers, values with 6 decimals and at least 6 significant digits, never
exponent notation for ordinary magnitudes, and the writers that use it."""
from __future__ import annotations

import math

import numpy as np
import pytest

from termeval.core.numbers import fmt_column, fmt_value
from termeval.core.scores import Metric, format_line
from termeval.std import breakdown


@pytest.mark.parametrize("x,text", [
    (7, "7"), (np.int64(12), "12"), (True, "1"), (0.6000000000000001, "0.600000"),
    (5.23673727892816e-05, "0.0000523674"), (0.066180123, "0.0661801"), (66.65666666, "66.656667"),
    (0.1, "0.100000"), (0.09999999999, "0.1000000"), (-0.0123456789, "-0.0123457"),
    (0.0, "0.000000"), (-0.0, "0.000000"), (1e-12, "1.00000e-12"), (123456789.5, "123456789.500000"),
    (None, "-"), (float("nan"), "-"), (float("inf"), "inf"), (-math.inf, "-inf"), (np.float32(0.5), "0.500000"),
])
def test_fmt_value(x, text):
    assert fmt_value(x) == text


def test_six_significant_digits_and_round_trip_to_them():
    rng = np.random.default_rng(0)
    for v in rng.uniform(-8, 4, 2000):
        x = float(10.0 ** v) * (1 if v > -2 else -1)
        s = fmt_value(x)
        assert "e" not in s
        assert float(s) == pytest.approx(x, rel=5e-6, abs=5e-7)     # 6 significant digits at least
        assert len(s.split(".")[1]) >= 6


def test_column_equals_the_scalar_rule_and_na():
    x = np.array([0.5, 1e-5, 0.0, -0.0, np.nan, np.inf, -3e-13, 1234.5])
    assert fmt_column(x) == [fmt_value(v, "NA") for v in x.tolist()]
    assert fmt_column(x)[4] == "NA" and fmt_value(None, "NA") == "NA"


def test_score_lines_use_it():
    assert format_line(Metric("mtwv_threshold", 5.23673727892816e-05)) == "mtwv_threshold 0.0000523674"
    assert format_line(Metric("n_hits", 44, "of 82")) == "n_hits 44 [ of 82 ]"
    assert format_line(Metric("cnxe", None)) == "cnxe -"


def test_breakdown_tables_use_it(tmp_path):
    p = tmp_path / "b.tsv"
    breakdown.write_table(str(p), ["n_terms", "atwv", "p_fa"], [("g", {"n_terms": 3, "atwv": 0.6000000000000001,
                                                                       "p_fa": 0.00037037037037037035})])
    assert p.read_text().splitlines()[1] == "g\t3\t0.600000\t0.000370370"
