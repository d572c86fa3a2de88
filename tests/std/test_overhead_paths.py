"""The shortcuts of the STD/QUESST steps outside their kernels give what the plain computation
gives: duplicate detections counted among shared start times only, the `file,channel` text of
the alignment CSV, a QUESST breakdown group of every query reusing the run's scores, and the
plots' lighter first import of matplotlib (same classes, matplotlib's generator put back)."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from termeval.quesst import quesst as Q
from termeval.quesst.report import quesst_group
from termeval.std.ranking import ranking
from termeval.std.report import _file_channel
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
        assert _file_channel(file_ids, file, chan).tolist() == want


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
    code = ("import inspect, matplotlib.artist as A\n"
            "own = A.Artist.__dict__['_update_set_signature_and_docstring']\n"
            "from termeval.core import plots\n"
            "canvas, figure = plots._matplotlib()\n"
            "from matplotlib.lines import Line2D\n"
            "assert A.Artist.__dict__['_update_set_signature_and_docstring'] is own\n"
            "line = Line2D([0, 1], [0, 1]); line.set(color='red', lw=2)\n"
            "assert line.get_color() == 'red' and line.get_linewidth() == 2\n"
            "class Mine(Line2D): pass\n"
            "assert 'color' in inspect.signature(Mine.set).parameters\n")
    env = dict(os.environ, PYTHONPATH=ROOT, MPLBACKEND="Agg")
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)
