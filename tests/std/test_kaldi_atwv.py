"""`--compat kaldi` (termeval/std/kaldi/atwv.py) against compute-atwv's rules, on hand-built
cases whose expected values are derived step by step here (docs/std-kaldi-compat.md)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from termeval.bin import score_std
from termeval.core.errors import InputError
from termeval.std.kaldi import atwv as ka


def f32(x):
    return float(np.float32(x))


def terms(rows, vocab):
    """rows: (kwid, utt, start, end, score)."""
    return ka.KwsTerms([],
                       np.array([vocab.setdefault(r[0], len(vocab)) for r in rows], np.int64),
                       np.array([r[1] for r in rows], np.int64), np.array([r[2] for r in rows], np.int64),
                       np.array([r[3] for r in rows], np.int64), np.array([r[4] for r in rows], np.float32))


def pair(ref_rows, hyp_rows):
    vocab: dict = {}
    ref = terms(ref_rows, vocab)
    hyp = terms(hyp_rows, vocab)
    ref.kw_ids = hyp.kw_ids = list(vocab)
    return ref, hyp


def test_constants():
    # beta = (0.1f / 1.0f) * (1.0 / 1e-4f - 1) in double, stored as float: 999.9000244140625
    assert ka.beta_kaldi() == f32(np.float64(np.float32(0.1)) * (1 / np.float64(np.float32(1e-4)) - 1))
    assert ka.beta_kaldi() == 999.9000244140625
    g = ka.sweep_grid()
    # 0, 0.05f, 0.1f, ... accumulated in float32; the 21st value is 1.0000001 > 1: 20 points
    assert len(g) == 20 and g[0] == 0 and float(g[-1]) == pytest.approx(0.95, abs=1e-6)
    assert g[8] > np.float32(0.4)  # the "0.40" point is 0.40000004: a score of 0.4 is below it


def test_parse_f32_is_strtof():
    assert ka.parse_f32("0.1") == f32(0.1)
    # 1 + 2**-24 + 2**-60: the double rounds to 1 + 2**-24, exactly half-way between two floats,
    # which float32(float(s)) resolves to 1.0 (even); strtof sees the 2**-60 and rounds up
    s = "1.00000005960464477539930195e0"
    assert float(s) == 1 + 2 ** -24
    assert ka.parse_f32(s) == 1 + 2 ** -23
    assert ka.parse_f32("1e39") == float("inf")


def test_greedy_alignment_in_input_order():
    # spec example B in frames: refs r0 [60, 140], r1 [140, 180]; hyps h0 [130, 150], h1 [180, 220]
    # h0: centre 140; r0 centre 100 (distance 40), r1 centre 160 (20): both candidates;
    #     overlap/union r0 = 10/90, r1 = 10/50 -> r1. h1: centre 200; r0 is 100 away, r1 is used.
    ref, hyp = pair([("k", 1, 60, 140, 1), ("k", 1, 140, 180, 1)], [("k", 1, 130, 150, .9), ("k", 1, 180, 220, .8)])
    assert ka.align(ref, hyp).tolist() == [1, -1]


def test_centre_is_integer_division_and_distance_inclusive():
    # ref [0, 1] centre (0+1)/2 = 0 (truncated); hyp [50, 51] centre 50: distance 50 <= 50
    ref, hyp = pair([("k", 1, 0, 1, 1)], [("k", 1, 50, 51, .9)])
    assert ka.align(ref, hyp).tolist() == [0]
    ref, hyp = pair([("k", 1, 0, 1, 1)], [("k", 1, 51, 52, .9)])  # centre 51: too far
    assert ka.align(ref, hyp).tolist() == [-1]
    # same utterance and keyword needed
    ref, hyp = pair([("k", 1, 0, 10, 1)], [("k", 2, 0, 10, .9), ("j", 1, 0, 10, .9)])
    assert ka.align(ref, hyp).tolist() == [-1, -1]


def test_ties_keep_the_first_and_zero_length_never_matches():
    # two identical refs: the first one (file order) is taken, then the second by the next hyp
    ref, hyp = pair([("k", 1, 10, 20, 1), ("k", 1, 10, 20, 1)], [("k", 1, 10, 20, .9), ("k", 1, 10, 20, .8)])
    assert ka.align(ref, hyp).tolist() == [0, 1]
    # ref and hyp both [5, 5]: overlap/union = 0/0 = NaN, and NaN > -inf is false: no match
    ref, hyp = pair([("k", 1, 5, 5, 1)], [("k", 1, 5, 5, .9)])
    assert ka.align(ref, hyp).tolist() == [-1]
    # a non-overlapping candidate still matches (negative overlap/union beats -inf)
    ref, hyp = pair([("k", 1, 0, 10, 1)], [("k", 1, 40, 50, .9)])
    assert ka.align(ref, hyp).tolist() == [0]


# docs/std.md §6.1 toy in frames (100 per second)
HITLIST = "q1 1 500 550 1\nq1 1 1500 1550 1\nq1 1 2500 2550 1\nq1 1 3500 3550 1\nq2 2 1000 1050 1\n"
RESULTS = ("q1 1 500 550 0.9\nq1 1 1500 1550 0.7\nq1 1 2500 2550 0.4\nq1 1 4500 4550 0.8\n"
           "q1 1 5000 5050 0.3\nq2 2 1000 1050 0.6\nq2 2 3000 3050 0.95\nq3 1 2000 2050 0.65\n")


def test_toy_step_by_step(tmp_path):
    kws = tmp_path / "kws"
    kws.mkdir()
    (kws / "hitlist").write_text(HITLIST)
    (kws / "trials").write_text("100\n")
    (tmp_path / "res").write_text(RESULTS)
    r = ka.score_kaldi_dir(str(kws), str(tmp_path / "res"), cost_fa=0.01, prior=0.00015)
    beta = f32(0.01 * (1 / np.float64(np.float32(0.00015)) - 1))   # 66.65666...
    assert r.beta == beta
    # alignment: q1's hyps 0.9, 0.7, 0.4 take the refs at 5, 15, 25 s; 0.8 and 0.3 are far;
    # q2's 0.6 takes its ref, 0.95 is far; q3 has no ref (and no targets: not averaged)
    assert r.hyp_ref.tolist() == [0, 1, 2, -1, -1, 4, -1, -1]
    # ATWV (YES iff score >= 0.5): q1 corr 2 fa 1 of 4 targets; q2 corr 1 fa 1 of 1 target;
    # P_fa = fa / (100 - targets)
    q1 = 1 - (1 - 2 / 4) - beta * 1 / 96
    q2 = 1 - (1 - 1 / 1) - beta * 1 / 99
    assert r.atwv == pytest.approx((q1 + q2) / 2, abs=1e-6) and (r.n_corr, r.n_fa, r.n_miss) == (3, 3, 2)
    # STWV: recall of the candidate list, q1 3/4, q2 1/1
    assert r.stwv == 0.875
    # MTWV over the grid: at 0.35000002, q1 accepts 0.9, 0.7, 0.4 (hits) and 0.8 (FA), not 0.3
    mt = ((1 - 1 / 4 - beta / 96) + (1 - beta / 99)) / 2
    assert r.mtwv == pytest.approx(mt, abs=1e-6) and r.mtwv_threshold == f32(ka.sweep_grid()[7])
    # OTWV: q1's best is 0.25 (only 0.9 accepted, at 0.85..0.9), q2's best is 1 - beta/99 (all
    # thresholds <= 0.6); in float32: pfa = f32(1/99), twv = f32(1 - f32(beta * pfa)), then the
    # running mean f32(f32(0.25 * 1) / 2 + twv / 2)
    twv2 = f32(1 - f32(beta * f32(1 / np.float32(99))))
    otwv = f32(f32(0.25 * 1) / 2.0 + twv2 / 2.0)
    assert r.otwv == otwv
    assert r.lines() == ["aproximate ATWV = 0.0662", "aproximate STWV = 0.8750", "aproximate MTWV = 0.1912",
                         "aproximate MTWV threshold = 0.3500", f"aproximate OTWV = {otwv:.4f}"]
    assert f"{otwv:.4f}" == "0.2884"  # the double value 0.28835 prints as 0.2883 or 0.2884 by a hair


def test_no_keyword_with_targets_gives_zero_at_threshold_zero(tmp_path):
    ref, hyp = pair([], [("k", 1, 0, 10, .9)])
    r = ka.compute_atwv(ref, hyp, 100.0)
    assert (r.atwv, r.stwv, r.mtwv, r.mtwv_threshold, r.otwv) == (0, 0, 0, 0, 0)


def test_cli_prints_compute_atwv_lines(tmp_path, capsys):
    kws = tmp_path / "kws"
    kws.mkdir()
    (kws / "hitlist").write_text(HITLIST.replace("q1 1 ", "q1 uttA ").replace("q2 2 ", "q2 uttB "))
    (kws / "utt.map").write_text("uttA 1\nuttB 2\n")
    (kws / "utt2dur").write_text("uttA 60\nuttB 40\n")  # no trials file: the sum, 100
    (tmp_path / "res").write_text(RESULTS)
    score_std.main(["--compat", "kaldi", "--c-fa", "0.01", "--p-target", "0.00015",
                    str(kws), str(tmp_path / "res"), str(tmp_path / "exp")])
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "aproximate ATWV = 0.0662" and out[3] == "aproximate MTWV threshold = 0.3500"
    assert (tmp_path / "exp" / "details" / "score.txt").read_text().splitlines() == out
    std = (tmp_path / "exp" / "scores" / "std").read_text()
    assert std.startswith("atwv 0.0661801 [ 3 hits, 3 FA, 2 misses ]")   # 6 significant digits


@pytest.mark.parametrize("line,msg", [("q1 1 500 550", "4 numbers"), ("q1 1 5e9 550 1", "int32"),
                                      ("q1 x 500 550 1", "utterance id"), ("q1 1 500 550 nan", "finite")])
def test_bad_archive_lines(tmp_path, line, msg):
    p = tmp_path / "res"
    p.write_text("q1 1 500 550 0.5\n" + line + "\n")
    with pytest.raises(InputError, match=msg) as e:
        ka.read_archive(str(p), {})
    assert e.value.line == 2


def test_bad_trials(tmp_path):
    (tmp_path / "trials").write_text("1e999\n")
    with pytest.raises(InputError, match="finite"):
        ka.read_duration(str(tmp_path))


# ------------------------------------------------------- --compat kaldi with a --preset

def _kaldi_dir(tmp_path):
    kws = tmp_path / "kws"
    kws.mkdir()
    (kws / "hitlist").write_text("KW1 1 100 150 1\nKW1 2 300 340 1\nKW2 1 500 560 1\n")
    (kws / "keywords.txt").write_text("KW1 alpha\nKW2 beta\n")
    (kws / "utt2dur").write_text("1 100.0\n2 100.0\n")
    (tmp_path / "res").write_text("KW1 1 101 149 0.9\nKW1 2 200 240 0.7\nKW2 1 505 555 0.3\n")
    return kws


def test_preset_maps_to_compute_atwv_costs():
    assert ka.kaldi_costs(None, None, None, None) == (None, None, None)          # compute-atwv's own
    assert ka.kaldi_costs("sws2013", None, None, None) == (1.0, 100.0, 0.00015)
    assert ka.kaldi_costs("nist2006", None, None, None) == (1.0, 10.0, 0.0001)
    assert ka.kaldi_costs("quesst", None, 50.0, None) == (1.0, 50.0, 0.0008)
    assert ka.kaldi_costs(None, 0.00015, None, 0.01) == (0.01, None, 0.00015)
    with pytest.raises(InputError, match="--preset sws2012 with --compat kaldi"):
        ka.kaldi_costs("sws2012", None, None, None)
    assert ka.kaldi_costs("sws2012", 0.001, None, None) == (1.0, 1.0, 0.001)
    # nist2006's costs are Kaldi's default operating point: the same float32 beta
    assert ka.beta_kaldi(1.0, 10.0, 0.0001) == ka.beta_kaldi() == pytest.approx(999.9, abs=1e-4)


@pytest.mark.parametrize("args,beta,atwv", [
    # KW1: 1 hit of 2, 1 FA over 200 - 2 trials; KW2: its one reference scored 0.3 (a miss)
    ([], "999.900024", "-2.275000"),                                   # compute-atwv's defaults
    (["--preset", "sws2013"], "66.656662", "0.0816751"),              # the issue's: beta 66.66
    (["--preset", "nist2006"], "999.900024", "-2.275000"),
    (["--preset", "sws2013", "--c-fa", "0.5"], "33.328331", "0.165838"),
])
def test_score_std_sh_compat_kaldi_uses_the_preset(root, tmp_path, args, beta, atwv):
    import subprocess
    kws = _kaldi_dir(tmp_path)
    r = subprocess.run(["bash", f"{root}/steps/score_std.sh", *args, "--compat", "kaldi", str(kws),
                        str(tmp_path / "res"), str(tmp_path / "exp")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = dict(l.split(" ", 1) for l in (tmp_path / "exp/scores/std").read_text().splitlines())
    assert lines["beta"] == beta and lines["atwv"].split()[0] == atwv
    b = float(beta)
    assert float(atwv) == pytest.approx((1 - 0.5 - b / 198 + 0) / 2, abs=1e-6)
    data = json.loads((tmp_path / "exp/scores/scores.json").read_text())
    assert data["benchmark"] == ("kaldi" if not args else f"kaldi_{args[1]}")


def test_compat_kaldi_refuses_sws2012_before_any_job(root, tmp_path):
    import subprocess
    kws = _kaldi_dir(tmp_path)
    r = subprocess.run(["bash", f"{root}/steps/score_std.sh", "--nj", "2", "--preset", "sws2012", "--compat",
                        "kaldi", str(kws), str(tmp_path / "res"), str(tmp_path / "exp")], capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1] == (
        "score_std.sh: error: --preset sws2012 with --compat kaldi: compute-atwv has no prior derived from "
        "the reference count; give --p-target (its --prior-kw-probability)")
    assert not (tmp_path / "exp").exists()              # refused before anything is made
