"""score_std --compat kaldi as Kaldi's local/kws/score.sh runs it: KST, nbest, the ntrue-scale
sweep, compute-atwv's alignment.csv, metrics.txt (kws_oracle_threshold.pl) and
per-category-score.txt (per_category_stats.pl); values derived here."""
from __future__ import annotations

import os
import re

import numpy as np
import pytest

from termeval.bin import prepare_kws, score_std
from termeval.core.errors import InputError
from termeval.std.kaldi import atwv as ka
from termeval.std.kaldi.category_stats import per_category_table
from termeval.std.kaldi.recipe import alignment_csv, pick_scale, rows_to_terms
from termeval.std.kst import normalize_kst, read_results
from termeval.std.oracle import oracle_metrics

HEAD = "language,file,channel,termid,term,ref_bt,ref_et,sys_bt,sys_et,sys_score,sys_decision,alignment"
# KW1: 2 references (a YES hit at 0.9, a NO hit at 0.3) and a YES false alarm at 0.8;
# KW2: 1 reference never detected
CSV = [HEAD, ",1,1,KW1,KW1,1,1.5,1,1.5,0.9,YES,CORR", ",2,1,KW1,KW1,,,3,3.5,0.8,YES,FA",
       ",1,1,KW1,KW1,5,5.5,5,5.5,0.3,NO,MISS", ",3,1,KW2,KW2,2,2.4,,,,,MISS"]


def test_oracle_metrics_by_hand():
    m = oracle_metrics(CSV, 100.0)
    cost = 999.9 / 98            # beta / (duration - Ntrue(KW1))
    assert m.atwv == pytest.approx((0.5 - cost) / 2)     # KW1: +gain -cost; KW2: 0
    assert m.otwv == pytest.approx(0.25)                 # KW1 best before the FA: 0.5
    assert m.stwv == pytest.approx(0.5)                  # KW2's reference was never detected
    assert m.lattice_recall == pytest.approx(2 / 3)
    assert m.mtwv == pytest.approx(0.25)                 # thresholds in (0.8, 0.9]
    assert 0.8 < float(m.mtwv_threshold) < 0.802
    assert m.text().splitlines() == ["ATWV = -4.8515", "OTWV = 0.2500", "STWV = 0.5000",
                                     f"MTWV = 0.2500, THRESHOLD = {m.mtwv_threshold}",
                                     "Lattice Recall = 0.6667"]
    assert oracle_metrics([HEAD, ",1,1,KW1,KW1,,,3,3.5,0.8,YES,FA"], 100.0) is None   # no reference


def test_per_category_table_by_hand():
    txt = per_category_table(CSV, 100.0, [("KW1", ["A"]), ("KW2", ["A", "B"])]).splitlines()
    assert txt[0].startswith("#CATEGORY       #KW     #Targ    #NTarg      #Sys  #CorrDet")
    assert txt[1].split() == ["#"] + [str(i) for i in range(1, 23)]
    rows = {line.split()[0]: line for line in txt[2:]}
    assert sorted(rows) == ["A", "ALL", "B"]
    f = rows["A"].split()
    # K, #Targ, #NTarg (CorrNDet + FA), #Sys (lines with a score), CorrDet, CorrNDet, FA, MISS
    assert f[1:9] == ["2", "3", "1", "3", "1", "0", "1", "2"]
    assert float(f[9]) == pytest.approx((0.5 - 999.9 / 98) / 2, abs=5e-3)   # ATWV, % 6.3g
    assert f[12] == "0.5" and f[-1] == "NA"                               # STWV; OTHR with K > 1
    b = rows["B"].split()
    assert b[1:3] == ["1", "1"] and b[-1] == "-0.005"                     # OTHR = (0 - 1) * step
    assert rows["ALL"].endswith(" ")                                     # the script's trailing space


def test_alignment_csv_is_compute_atwv_layout():
    vocab: dict = {}
    ref = rows_to_terms([("KW1", "1", "100", "150", "0"), ("KW1", "3", "7", "9", "0")], vocab, None)
    hyp = rows_to_terms([("KW1", "1", "110", "140", "0.7"), ("KW1", "2", "0", "10", "0.3")], dict(vocab), None)
    r = ka.compute_atwv(ref, hyp, 1000.0)
    assert alignment_csv(ref, hyp, r.hyp_ref) == [
        HEAD, ",1,1,KW1,KW1,1,1.5,1.1,1.4,0.7,YES,CORR", ",2,1,KW1,KW1,,,0,0.1,0.3,NO,CORR!DET",
        ",3,1,KW1,KW1,0.07,0.09,,,,,MISS"]


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


@pytest.fixture
def task(tmp_path):
    d = tmp_path / "data"
    words = []
    for r in range(4):
        t = 0.5
        for w in ["white", "horse", "runs", "white", "cat", "horse", "sleeps"] * 3:
            words.append(f"r{r} {t:.2f} {t + 0.3:.2f} {w}")
            t += 0.4
    _write(str(d / "words"), "\n".join(words) + "\n")
    _write(str(d / "reco2dur"), "".join(f"r{r} 10.0\n" for r in range(4)))
    _write(str(tmp_path / "kw.txt"), "KW1 white\nKW2 horse\nKW3 white horse\nKW4 zebra\n")
    kws = str(tmp_path / "kws")
    prepare_kws.main(["--keywords", str(tmp_path / "kw.txt"), "--ecf-source-type", "cts", str(d), kws])
    rng = np.random.default_rng(5)
    lines = []
    with open(os.path.join(kws, "hitlist"), encoding="utf-8") as f:
        for line in f:
            k, u, s, e, _ = line.split()
            if rng.random() < 0.7:
                lines.append(f"{k} {u} {s} {e} {rng.uniform(0, 3):.4f}")
    for k in ("KW1", "KW2", "KW3", "KW4"):
        for _ in range(6):
            s = int(rng.integers(0, 900))
            lines.append(f"{k} {int(rng.integers(1, 5))} {s} {s + 30} {rng.uniform(1, 6):.4f}")
    lines.sort(key=lambda x: x.split()[0])
    _write(str(tmp_path / "results"), "\n".join(lines) + "\n")
    return tmp_path, kws


def _score(tmp, kws, *opts, exp="exp"):
    return score_std.main(["--compat", "kaldi", *opts, kws, str(tmp / "results"), str(tmp / exp)])


def _read(*p):
    with open(os.path.join(*p), encoding="utf-8") as f:
        return f.read()


def test_auto_sweep_end_to_end(task, capsys):
    tmp, kws = task
    assert _score(tmp, kws, "--kst", "true", "--ntrue-scale", "auto") == 0
    exp = str(tmp / "exp")
    atwv = {}
    for k in range(1, 22):
        first = _read(exp, "scoring", f"score.{k}.txt").splitlines()[0]
        atwv[k] = first.split("= ")[1]
    k = int(_read(exp, "details", "ntrue_raw"))
    assert k == pick_scale(atwv)
    scale = _read(exp, "details", "ntrue").strip()
    assert scale == "%.15g" % (1 + (k - 1) / 5.0)
    # stage 1: KST at the chosen scale, no nbest filter, scored as compute-atwv
    rows = normalize_kst(read_results(str(tmp / "results")), float(_read(kws, "trials")), float(scale)).rows
    assert _read(exp, "details", "results") == "".join(" ".join(r[:5]) + "\n" for r in rows)
    vocab: dict = {}
    ref = ka.read_archive(os.path.join(kws, "hitlist"), vocab, ka.read_utt_ids(os.path.join(kws, "utt.map")))
    hyp = rows_to_terms(rows, dict(vocab), ka.read_utt_ids(os.path.join(kws, "utt.map")))
    want = ka.compute_atwv(ref, hyp, ka.read_duration(kws)[0])
    assert _read(exp, "details", "score.txt") == "\n".join(want.lines()) + "\n"
    assert capsys.readouterr().out == _read(exp, "details", "score.txt")
    metrics = _read(exp, "metrics.txt").splitlines()
    assert [re.sub(r"-?\d+(\.\d+)?(e-?\d+)?", "x", m) for m in metrics] == \
        ["ATWV = x", "OTWV = x", "STWV = x", "MTWV = x, THRESHOLD = x", "Lattice Recall = x"]
    assert metrics == oracle_metrics(_read(exp, "details", "alignment.csv").splitlines(),
                                     float(_read(kws, "trials"))).text().splitlines()
    # the kws dir's categories file (prepare_kws) gives the per-category table
    assert _read(exp, "details", "per-category-score.txt").splitlines()[2].split()[0] == "ALL"


def test_fixed_scale_and_nbest(task):
    tmp, kws = task
    _score(tmp, kws, "--kst", "true", "--ntrue-scale", "1.4", "--nbest", "2", exp="e2")
    res = _read(tmp / "e2", "details", "results").splitlines()
    per_kw = {}
    for line in res:
        per_kw[line.split()[0]] = per_kw.get(line.split()[0], 0) + 1
    assert max(per_kw.values()) <= 2
    assert _read(tmp / "e2", "details", "ntrue") == "1.4\n"
    assert not os.path.exists(tmp / "e2" / "scoring")


@pytest.mark.parametrize("opts,match", [
    (["--kst", "true", "--ntrue-scale", "0"], "ntrue-scale"),
    (["--kst", "true", "--ntrue-scale", "abc"], "ntrue-scale"),
    (["--kst", "true", "--nbest", "0"], "nbest"),
    (["--ntrue-scale", "2"], "--kst true"),
])
def test_bad_options_write_nothing(task, opts, match):
    tmp, kws = task
    with pytest.raises(InputError, match=match):
        _score(tmp, kws, *opts, exp="bad")
    assert not os.path.exists(tmp / "bad" / "details")


def test_categories_naming_unknown_keyword(task):
    tmp, kws = task
    cat = str(tmp / "cats")
    _write(cat, "KW1 A\nKW9 B\n")
    with pytest.raises(InputError, match="KW9") as e:
        _score(tmp, kws, "--breakdown", f"categories:{cat}", exp="badcat")
    assert e.value.path == cat and e.value.line == 2
    assert not os.path.exists(tmp / "badcat" / "details")
