"""The shortcuts of the STD/QUESST steps outside their kernels give what the plain computation
gives: duplicate detections counted among shared start times only, the alignment CSV's lines
laid out as bytes (floats as repr prints them, texts with NUL or non-ASCII characters), a QUESST
breakdown group of every query reusing the run's scores, and the plots' first import of
matplotlib (fontTools.subset lazy, and whole when used; matplotlib's classes untouched)."""
from __future__ import annotations

import io
import os
import subprocess
import sys

import numpy as np
import pytest

from termeval.core.numbers import fmt_column, fmt_value
from termeval.quesst import quesst as Q
from termeval.quesst.report import quesst_group
from termeval.std.ranking import ranking
from termeval.std.report import _file_channel, _float_bytes, _write_detection_rows, _write_lines
from termeval.std.score import _duplicates

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _duplicates_plain(gk, tb, du) -> int:
    o = np.lexsort((du, tb, gk))
    g, t, d = gk[o], tb[o], du[o]
    return int(np.count_nonzero((g[1:] == g[:-1]) & (t[1:] == t[:-1]) & (d[1:] == d[:-1])))


@pytest.mark.parametrize("n, seed", [(0, 0), (1, 0), (2, 1), (7, 2), (300, 3), (5000, 4)])
def test_duplicates_among_shared_tbeg(n, seed):
    rng = np.random.default_rng(seed)
    gk = rng.integers(0, 6, n)
    tb = rng.integers(0, max(n // 3, 1), n) / 4.0
    tb[::5] = -0.0                    # -0.0 equals 0.0 (a duplicate of 0.0)
    du = rng.integers(0, 3, n) / 2.0
    warnings: list[str] = []
    got = _duplicates(gk, tb, du, warnings)
    assert got == (_duplicates_plain(gk, tb, du) if n > 1 else 0)
    assert bool(warnings) == (got > 0)


def test_file_channel_text():
    file_ids = ["a,1", "b", "c"]
    file = np.array([2, 0, 1, 0, 2, 2])
    for chan in (np.array([1, 1, 1, 1, 1, 1]), np.array([1, 2, 1, 1, 10, 2])):
        want = [f"{file_ids[f].replace(',', ' ')},{c}" for f, c in zip(file.tolist(), chan.tolist())]
        texts, codes = _file_channel(file_ids, file, chan)
        assert [texts[c] for c in codes.tolist()] == want


def _floats(rng) -> np.ndarray:
    odd = [0.0, -0.0, 1.0, -1.0, 0.1, 1e-4, 9.99e-5, 1e-5, 5e-324, 123456789.0, 999999999.999999, 1e9, 1e10,
           2.675, 1 / 3, 0.1 + 0.2, 600.0, 99.9999995, -0.05, -123.0, 554.5870000000001, np.inf, -np.inf, np.nan]
    parts = [np.array(odd), rng.standard_normal(500)]
    parts += [rng.uniform(-1e9, 1e9, 300).round(d) for d in range(9)]
    parts.append(rng.integers(0, 10**6, 2000) / 10.0 ** rng.integers(0, 9, 2000) * rng.choice([-1, 1], 2000))
    return np.concatenate(parts)


def test_float_bytes_is_repr():
    x = _floats(np.random.default_rng(6))
    rows = _float_bytes(x)
    got = [bytes(r).rstrip(b"\0").lstrip(b"\0").decode() for r in rows]
    assert [t.replace("\0", "") for t in got] == [repr(v) for v in x.tolist()]


@pytest.mark.parametrize("texts", [["a,b", "é,ü"], ["x\0y", "z"], ["", "q"], ["t" * 40000, "u"]])
def test_detection_rows_as_the_plain_join(texts):
    rng = np.random.default_rng(7)
    x = _floats(rng)
    n = len(x)
    code = rng.integers(0, len(texts), n)
    last = (["YES,FA", "NO,MISS"], rng.integers(0, 2, n))
    f = io.StringIO()
    block = 1000 if len(texts[0]) < 1000 else 1 << 16       # a long text: blocks of fewer lines
    _write_detection_rows(f, "lang,", [(texts, code), (["r"], np.zeros(n, np.int64))], [x, -x], last, block=block)
    want = io.StringIO()
    _write_lines(want, "lang,", "\n", [[texts[c] for c in code.tolist()], ["r"] * n, [repr(v) for v in x.tolist()],
                                        [repr(-v) for v in x.tolist()], [last[0][c] for c in last[1].tolist()]])
    assert f.getvalue() == want.getvalue()


def test_quesst_group_of_every_query_reuses_the_run():
    rng = np.random.default_rng(5)
    nq, nd = 6, 40
    tq, td = rng.integers(0, nq, 30), rng.integers(0, nd, 30)
    dq, dd = rng.integers(0, nq, 200), rng.integers(0, nd, 200)
    tr = Q.build_trials([f"q{i}" for i in range(nq)], nd, tq, td, dq, dd, rng.normal(size=200), -5.0)
    p_tar = 0.0008 * 100 / (0.0008 * 100 + 0.9992)
    whole = Q.score_trials(tr, p_tar)
    g = tr.n_given
    rk = ranking(tr.query[:g], tr.score[:g], tr.target[:g], tr.n_target, np.ones(tr.n_queries, bool), (10,))
    every = np.ones(tr.n_queries, bool)
    assert quesst_group(tr, every, p_tar, None, False, rk, whole) == quesst_group(tr, every, p_tar, None, False, rk)
    some = every.copy()
    some[0] = False
    assert quesst_group(tr, some, p_tar, None, False, rk, whole) == quesst_group(tr, some, p_tar, None, False, rk)


def test_plots_first_import_keeps_matplotlib_working():
    pytest.importorskip("matplotlib")
    code = ("import inspect\n"
            "from termeval.core import plots\n"
            "canvas, figure = plots._matplotlib()\n"
            "from matplotlib.lines import Line2D\n"
            "assert 'color' in inspect.signature(Line2D.set).parameters and Line2D.set.__doc__\n"
            "line = Line2D([0, 1], [0, 1]); line.set(color='red', lw=2)\n"
            "assert line.get_color() == 'red' and line.get_linewidth() == 2\n"
            "class Mine(Line2D): pass\n"
            "assert 'color' in inspect.signature(Mine.set).parameters\n"
            "import io, sys\n"
            "fig = figure(figsize=(2, 2)); canvas(fig); fig.subplots().plot([0, 1])\n"
            "fig.savefig(io.BytesIO(), format='pdf')\n"
            "assert type(sys.modules['fontTools.subset']).__name__ == '_LazyModule'\n"
            "from fontTools import subset\n"
            "assert subset.Options().layout_features is not None\n")
    env = dict(os.environ, PYTHONPATH=ROOT, MPLBACKEND="Agg")
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)


def test_fmt_column_is_fmt_value_of_each():
    rng = np.random.default_rng(8)
    x = np.concatenate([[0.5, 1e-5, 0.0, -0.0, np.nan, np.inf, -np.inf, -3e-13, 0.1, 0.09999999999999999, 1e-9,
                         9.99999e-10, 0.001, 1e-3 - 1e-19], 10.0 ** rng.uniform(-12, 6, 3000) * rng.choice([-1, 1], 3000),
                        10.0 ** -rng.integers(0, 12, 100)])
    assert fmt_column(x) == [fmt_value(v, "NA") for v in x.tolist()]
    assert fmt_column(np.zeros(0)) == [] and fmt_column([np.nan], "-") == ["-"]
