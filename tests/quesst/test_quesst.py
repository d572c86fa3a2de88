"""QUESST-style per-document scoring: hand-computed cases, spec vectors (docs/std.md §6.4),
relationships between the affine/PAV computations, the kit's output layout, the CLI."""
from __future__ import annotations

import json
import math
import os
import re
import subprocess

import numpy as np
import pytest

from termeval.core.errors import InputError
from termeval.std import cnxe as cx
from termeval.quesst import quesst as Q

P_QUESST = Q.effective_prior(0.0008, 100, 1)


def spec_example() -> Q.Trials:
    """docs/std.md §6.4: q1 occurs in D1, D2; q2 in D3. q1: D1 2.0, D2 -0.5, D3 0.3, D4 missing;
    q2: D1 -1.0, D3 1.5, D2 and D4 missing; default -10."""
    return Q.build_trials(["q1", "q2"], 4, np.array([0, 0, 1]), np.array([0, 1, 2]),
                          np.array([0, 0, 0, 1, 1]), np.array([0, 1, 2, 0, 2]),
                          np.array([2.0, -0.5, 0.3, -1.0, 1.5]), -10.0)


def test_effective_prior_and_beta():
    assert P_QUESST == pytest.approx(0.07412898443, abs=1e-10)
    assert Q.beta_from_prior(P_QUESST) == pytest.approx(12.49, abs=1e-9)


def test_build_trials_counts():
    tr = spec_example()
    assert tr.counts["n_trials"] == 8 and tr.counts["n_given"] == 5 and tr.counts["n_default"] == 3
    assert tr.counts["n_targets"] == 3
    # pooled sets: Ttrue = {2, -0.5, 1.5}, Tfalse = {0.3, -10, -1, -10, -10}
    t = np.repeat(tr.score[tr.target], tr.count[tr.target])
    n = np.repeat(tr.score[~tr.target], tr.count[~tr.target])
    assert sorted(t) == [-0.5, 1.5, 2.0]
    assert sorted(n) == [-10, -10, -10, -1.0, 0.3]


@pytest.mark.parametrize("p_tar, cnxe, cmin, gamma, delta, pav", [
    (0.5, 0.481637, 0.446985, 1.295587, 0.579182, 0.254516),
    (P_QUESST, 0.596742, 0.491301, 1.976198, 0.364401, 0.287888),
])
def test_spec_cnxe_vectors(p_tar, cnxe, cmin, gamma, delta, pav):
    tr = spec_example()
    r = Q.score_trials(tr, p_tar)
    assert r.act_cnxe == pytest.approx(cnxe, abs=1e-6)
    assert r.min_cnxe.cnxe == pytest.approx(cmin, abs=1e-6)
    assert r.min_cnxe.gamma == pytest.approx(gamma, abs=1e-6)
    assert r.min_cnxe.delta == pytest.approx(delta, abs=1e-6)
    assert r.min_cnxe_pav == pytest.approx(pav, abs=1e-6)


def test_cnxe_by_hand_half_prior():
    # P_tar = 0.5: Cnxe = Cllr = (mean_t softplus(-s) + mean_n softplus(s)) / (2 ln 2)
    sp = lambda x: math.log1p(math.exp(x))  # noqa: E731
    ct = (sp(-2.0) + sp(0.5) + sp(-1.5)) / 3
    cn = (sp(0.3) + 3 * sp(-10) + sp(-1.0)) / 5
    tr = spec_example()
    assert cx.cnxe(tr.score, tr.target, tr.count, 0.5) == pytest.approx((ct + cn) / 2 / math.log(2), abs=1e-12)


def test_twv_by_hand():
    tr = spec_example()
    beta = 12.49
    # sweep (descending): 2.0 -> 0.25; 1.5 -> 0.75; 0.3 -> 0.75 - 12.49/4 = -2.3725; ...
    r = Q.score_trials(tr, P_QUESST)
    assert r.max_twv == pytest.approx(0.75, abs=1e-12)
    assert r.max_twv_threshold == 1.5
    assert r.max_p_miss == pytest.approx(0.25) and r.max_p_fa == 0
    # Bayes threshold ln(12.49) = 2.525 is above every score: nothing accepted
    assert r.act_threshold == pytest.approx(math.log(beta))
    assert r.act_twv == 0.0 and r.act_p_miss == 1.0
    # threshold 0: accepts q1/D1 (T), q1/D3 (N), q2/D3 (T)
    r0 = Q.score_trials(tr, P_QUESST, act_threshold=0.0)
    assert r0.act_twv == pytest.approx(1 - 0.25 - beta * 0.25, abs=1e-12)
    # per query: q1 best 0.5 (at 2.0), q2 best 1.0 (at 1.5); UB = mean = 0.75
    assert r.per_query_best.tolist() == pytest.approx([0.5, 1.0])
    assert r.per_query_threshold.tolist() == [2.0, 1.5]
    assert r.ub_twv == pytest.approx(0.75)


def test_twv_ties_and_upper_bound():
    # two queries x two documents, P_tar = 0.5 (beta = 1); q1: T 5, N 4; q2: T 1, N 0
    tr = Q.build_trials(["a", "b"], 2, np.array([0, 1]), np.array([0, 0]),
                        np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1]),
                        np.array([5.0, 4.0, 1.0, 0.0]), -10.0)
    r = Q.score_trials(tr, 0.5)
    # TWV: >=5: 0.5, >=4: 0, >=1: 0.5, >=0: 0 -> max 0.5, lowest threshold among ties = 1
    assert r.max_twv == pytest.approx(0.5) and r.max_twv_threshold == 1.0
    # a per-query offset puts both queries at their own best: 1.0
    assert r.ub_twv == pytest.approx(1.0)
    assert r.act_twv == pytest.approx(0.0)  # threshold ln(1) = 0 accepts everything


def test_reject_all_is_best_for_a_query():
    # q2's only target scores below its non-target: its best is to reject all (TWV_q 0)
    tr = Q.build_trials(["a", "b"], 2, np.array([0, 1]), np.array([0, 0]),
                        np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1]),
                        np.array([3.0, 1.0, 0.0, 2.0]), -10.0)
    best, thr = Q.per_query_best(tr, 1.0)
    assert best.tolist() == [1.0, 0.0]
    assert thr[0] == 3.0 and math.isinf(thr[1])


def test_duplicates_max_and_decisions():
    tr = Q.build_trials(["a"], 3, np.array([0]), np.array([1]),
                        np.array([0, 0, 0, 0]), np.array([1, 1, 2, 1]),
                        np.array([0.5, 3.0, 1.0, 3.0]), -5.0,
                        np.array([False, False, True, True]))
    assert tr.counts["n_duplicates"] == 2 and tr.counts["n_given"] == 2
    got = {(bool(t), float(s)): (int(c), bool(d)) for t, s, c, d in
           zip(tr.target, tr.score, tr.count, tr.decision)}
    # (a, doc1): max 3.0, YES wins on the tie; doc2 1.0 YES; doc0 missing -> default, NO
    assert got == {(True, 3.0): (1, True), (False, 1.0): (1, True), (False, -5.0): (1, False)}
    r = Q.score_trials(tr, 0.5, use_decisions=True)
    # accepted: the target and one of the two non-targets -> 1 - 0 - 1 * 1/2
    assert r.act_twv == pytest.approx(0.5)


def test_unseen_queries_removed():
    tr = Q.build_trials(["a", "b", "c"], 2, np.array([0, 2]), np.array([0, 1]),
                        np.array([1, 0]), np.array([0, 0]), np.array([9.0, 1.0]), -1.0)
    assert tr.query_ids == ["a", "c"] and tr.counts["n_unseen_queries"] == 1
    assert tr.counts["n_unseen_query_trials"] == 1 and tr.counts["n_trials"] == 4


def test_bad_inputs():
    with pytest.raises(InputError):
        Q.build_trials(["a"], 2, np.array([0]), np.array([0]), np.zeros(0), np.zeros(0),
                       np.zeros(0), float("-inf"))
    with pytest.raises(InputError):
        Q.build_trials(["a"], 2, np.zeros(0), np.zeros(0), np.zeros(0), np.zeros(0), np.zeros(0), -1.0)


def _random_trials(seed: int, nq: int = 7, nd: int = 30, frac: float = 0.5) -> Q.Trials:
    rng = np.random.default_rng(seed)
    tq, td = [], []
    for q in range(nq):
        for d in rng.choice(nd, size=int(rng.integers(1, 5)), replace=False):
            tq.append(q)
            td.append(d)
    tq, td = np.array(tq), np.array(td)
    is_t = np.zeros((nq, nd), bool)
    is_t[tq, td] = True
    qq, dd = np.meshgrid(np.arange(nq), np.arange(nd), indexing="ij")
    keep = rng.random((nq, nd)) < frac
    s = rng.normal(size=(nq, nd)) + 2.0 * is_t + rng.normal(size=(nq, 1))  # query-dependent offsets
    s = np.round(s, 1)  # ties
    return Q.build_trials([f"q{i}" for i in range(nq)], nd, tq, td, qq[keep], dd[keep], s[keep], -3.0)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("p_tar", [0.5, P_QUESST, 0.0147805])
def test_relationships(seed, p_tar):
    tr = _random_trials(seed)
    r = Q.score_trials(tr, p_tar)
    assert r.min_cnxe_pav <= r.min_cnxe.cnxe + 1e-12       # PAV is the lower bound of affine
    assert r.min_cnxe.cnxe <= min(1.0, r.act_cnxe) + 1e-12  # (gamma, delta) = (0,0) and (1,0)
    assert r.lb_min_cnxe.cnxe <= r.lb_cnxe + 1e-12
    assert r.ub_twv >= r.max_twv - 1e-12
    assert r.ub_twv >= r.act_twv - 1e-12
    assert r.max_twv >= r.act_twv - 1e-12 or r.act_twv == 0.0
    # per-query PAV converted with the global prior is optimal over per-query monotone maps
    g = Q.per_query_pav_llr(tr, "global")
    assert cx.cnxe(g, tr.target, tr.count, p_tar) <= r.min_cnxe_pav + 1e-12


def _naive_pav_rates(y: np.ndarray) -> np.ndarray:
    """Textbook PAV on 0/1 labels one point at a time (no tie pooling, no run merging)."""
    blocks = []  # [sum, n]
    for v in y:
        blocks.append([float(v), 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            s, n = blocks.pop()
            blocks[-1][0] += s
            blocks[-1][1] += n
    return np.concatenate([np.full(n, s / n) for s, n in blocks])


@pytest.mark.parametrize("seed", range(5))
def test_pav_run_compression_matches_naive(seed):
    rng = np.random.default_rng(seed)
    n = 300
    s = np.round(rng.normal(size=n) + rng.random(n), 1)
    y = rng.random(n) < 1 / (1 + np.exp(-2 * s))
    order = np.lexsort((~y, s))  # ascending score, targets first among ties (pessimistic)
    rates = np.empty(n)
    rates[order] = _naive_pav_rates(y[order].astype(float))
    nt, nn = y.sum(), (~y).sum()
    with np.errstate(divide="ignore"):
        naive = np.log(rates) - np.log1p(-rates) - math.log(nt / nn)
    got = cx.pav_llr(np.zeros(n, np.int64), s, y, np.ones(n, np.int64), "global")
    np.testing.assert_allclose(got, naive, rtol=1e-12, atol=1e-12)


def test_affine_minimum_is_stationary():
    tr = _random_trials(3)
    fit = cx.min_cnxe_affine(tr.score, tr.target, tr.count, P_QUESST)
    for dg, dd in [(1e-4, 0), (-1e-4, 0), (0, 1e-4), (0, -1e-4)]:
        c = cx.cnxe((fit.gamma + dg) * tr.score + fit.delta + dd, tr.target, tr.count, P_QUESST)
        assert c >= fit.cnxe - 1e-12
    assert cx.cnxe(fit.gamma * tr.score + fit.delta, tr.target, tr.count, P_QUESST) == pytest.approx(fit.cnxe, abs=1e-10)


def test_java_float():
    assert Q.java_float(0.0) == "0.0"
    assert Q.java_float(5.2125) == "5.2125"
    assert Q.java_float(-3.0) == "-3.0"
    assert Q.java_float(48.5092) == "48.5092"
    assert Q.java_float(0.40079603) == "0.40079603"
    assert Q.java_float(0.5082787) == "0.5082787"
    assert Q.java_float(1e-4) == "1.0E-4"
    assert Q.java_float(12345678.0) == "1.2345678E7"


def test_kit_lines_layout():
    lines = Q.kit_lines(Q.score_trials(spec_example(), P_QUESST))
    assert len(lines) == 5
    assert lines[0] == ("Scores: 8 (2 model x 4 test)  given: 5  default(null): 3  "
                        "minScore: -1.0  maxScore: 2.0")
    assert lines[1] == "actTWV: 0.0  maxTWV: 0.75  Threshold: 1.5"
    assert re.fullmatch(r"actCnxe: 0\.59674\d*  minCnxe: 0\.4913\d*", lines[2])
    assert lines[3] == ("Upper-bound TWV (model-dependent offset)  -  actTWV: 0.75  maxTWV: 0.75  "
                        "Threshold: 0.0")
    assert lines[4].startswith("Lower-bound Cnxe (model-dependent PAV)    -  actCnxe: ")
    # the SUPERB-style scrape of score.out takes the first maxTWV
    text = "\n".join(lines)
    assert re.search(r"maxTWV: (\S+)\s+Threshold", text).group(1) == "0.75"


# ----------------------------------------------------------------------------- CLI

def _sh(root, *args):
    return subprocess.run(["bash", *args], cwd=root, capture_output=True, text=True)


def _simple_task(tmp_path):
    kws = tmp_path / "kws"
    kws.mkdir()
    (kws / "documents").write_text("D1\nD2\nD3\nD4\n")
    (kws / "queries").write_text("q1\nq2\nq3\n")
    (kws / "targets").write_text("q1 D1\nq1 D2\nq2 D3\n")
    det = tmp_path / "det.txt"
    det.write_text("q1 D1 2.0\nq1 D2 -0.5\nq1 D3 0.3\nq2 D1 -1.0\nq2 D3 1.5\nq1 D1 1.0\n")
    return kws, det


def test_cli_simple_layout(root, tmp_path):
    kws, det = _simple_task(tmp_path)
    exp = tmp_path / "exp"
    r = _sh(root, "steps/score_quesst.sh", "--default-score", "-10", str(kws), str(det), str(exp))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1] == "actTWV: 0.0  maxTWV: 0.75  Threshold: 1.5"
    assert (exp / "details/quesst/score.out").read_text() == r.stdout
    s = json.loads((exp / "scores/scores.json").read_text())
    for k in ("act_twv", "max_twv", "max_twv_threshold", "act_cnxe", "min_cnxe", "ub_twv",
              "lb_cnxe", "n_queries", "n_documents", "n_trials", "n_target_trials"):
        assert k in s
    assert s["min_cnxe"] == pytest.approx(0.491301, abs=1e-6)
    assert s["quesst_calibration_loss"] == pytest.approx(s["act_cnxe"] - s["min_cnxe"], abs=1e-15)  # seed §4.2.5
    assert s["n_duplicates"] == 1 and s["n_unseen_queries"] == 1 and s["n_trials"] == 8
    assert "Removing unseen models" in r.stderr


def test_cli_errors(root, tmp_path):
    kws, det = _simple_task(tmp_path)
    exp = tmp_path / "exp"
    det.write_text("q1 D1 2.0\nzz D2 1.0\n")
    r = _sh(root, "steps/score_quesst.sh", str(kws), str(det), str(exp))
    assert r.returncode != 0 and "not in the reference term list" in r.stderr
    assert "Traceback" not in r.stderr and not (exp / "scores/quesst").exists()
    det.write_text("q1 D1 nan\n")
    r = _sh(root, "steps/score_quesst.sh", str(kws), str(det), str(exp))
    assert r.returncode != 0 and "det.txt:1:" in r.stderr and "Traceback" not in r.stderr
    det.write_text("q1 D1 1.0\n")
    r = _sh(root, "steps/score_quesst.sh", "--default-score", "inf", str(kws), str(det), str(exp))
    assert r.returncode != 0 and "finite" in r.stderr


def test_example_end_to_end(root, tmp_path):
    """The bundled QbE example: reference, index, search (STDLIST), per-document scoring."""
    kws, exp = tmp_path / "kws", tmp_path / "exp"
    mk = ["python3", "local/make_example_quesst.py"]
    for step in (["reference", str(kws)], ["index", str(kws), str(exp / "index.npz")],
                 ["search", str(kws), str(exp / "index.npz"), str(exp / "q.stdlist.xml")]):
        r = subprocess.run(mk + step, cwd=root, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    r = _sh(root, "steps/score_quesst.sh", "--default-score", "-10", str(kws), str(exp / "q.stdlist.xml"), str(exp))
    assert r.returncode == 0, r.stderr
    s = json.loads((exp / "scores/scores.json").read_text())
    assert s["n_queries"] == 11 and s["n_documents"] == 40 and s["n_given"] == 110
    assert s["min_cnxe_pav"] <= s["min_cnxe"] <= s["act_cnxe"]
    assert s["act_twv"] <= s["max_twv"] <= s["ub_twv"]
    # decisions in the STDLIST are the Bayes threshold: same actTWV both ways
    r2 = _sh(root, "steps/score_quesst.sh", "--default-score", "-10", "--use-decisions", "true",
             str(kws), str(exp / "q.stdlist.xml"), str(tmp_path / "exp2"))
    s2 = json.loads((tmp_path / "exp2/scores/scores.json").read_text())
    assert s2["act_twv"] == pytest.approx(s["act_twv"], abs=1e-12), r2.stderr


def test_query_in_every_document():
    # q "a" occurs in both documents (no non-target trials): its PAV LLRs are +inf, not NaN
    tr = Q.build_trials(["a", "b"], 2, np.array([0, 0, 1]), np.array([0, 1, 0]),
                        np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1]),
                        np.array([1.0, 2.0, 3.0, -1.0]), -10.0)
    r = Q.score_trials(tr, P_QUESST)
    assert np.isfinite([r.act_cnxe, r.min_cnxe.cnxe, r.min_cnxe_pav, r.lb_cnxe, r.lb_min_cnxe.cnxe]).all()
    assert r.lb_cnxe == 0.0  # both queries perfectly separated per query
    # nothing but targets anywhere: TWV is defined, Cnxe is not
    tr = Q.build_trials(["a"], 2, np.array([0, 0]), np.array([0, 1]), np.array([0]), np.array([0]),
                        np.array([1.0]), -10.0)
    r = Q.score_trials(tr, P_QUESST)
    assert r.max_twv == 1.0 and math.isnan(r.act_cnxe)
