"""details/per_file.tsv and per_speaker.tsv (termeval.tde.tables) of zrc2020 and zr2017: rows
in the data dir's order, TOTAL last, TOTAL equal to scores.json, additive counts summing up."""
from __future__ import annotations

import csv
import json
import os
import subprocess

import pytest

from termeval.zrc.score import score_language
from termeval.gold import prepare_zr
from termeval.tde.tables import metrics
from tde_micro import MICRO_CLASSES, MICRO_PHN, MICRO_WRD

ADDITIVE = ("coverage_hit", "coverage_total", "token_hit", "token_discovered", "token_gold",
            "boundary_hit", "boundary_discovered", "boundary_gold")
SCORED = ("coverage", "token_precision", "token_recall", "token_fscore", "type_precision", "type_recall",
          "type_fscore", "boundary_precision", "boundary_recall", "boundary_fscore")


def read_tsv(path):
    with open(path) as f:
        return list(csv.DictReader(f, delimiter="\t"))


def value(x):
    return None if x == "-" else float(x)


def zrc2020(tmp_path, phn, wrd, classes, nj=1, utt2spk=None):
    (tmp_path / "x.phn").write_text(phn)
    (tmp_path / "x.wrd").write_text(wrd)
    (tmp_path / "x.class").write_text(classes)
    data, exp = str(tmp_path / "data"), str(tmp_path / "exp")
    prepare_zr(str(tmp_path / "x.phn"), str(tmp_path / "x.wrd"), data, spk_rule="prefix:1")
    s = score_language(data, str(tmp_path / "x.class"), exp, nj)     # score_tde's stage, nj jobs + merge
    assert s == json.load(open(os.path.join(exp, "scores", "scores.json")))
    return exp, s


def check_total(rows, scores, prefix=""):
    """TOTAL is last and shows the reported scores (6 decimals in the table)."""
    total = rows[-1]
    assert list(total.values())[0] == "TOTAL"
    for k in SCORED:
        assert value(total[k]) == pytest.approx(scores[prefix + k], abs=5e-7), k


@pytest.mark.parametrize("nj", [1, 2])
def test_zrc2020_micro(tmp_path, nj):
    exp, s = zrc2020(tmp_path, MICRO_PHN, MICRO_WRD, MICRO_CLASSES, nj)
    rows = read_tsv(os.path.join(exp, "details", "per_file.tsv"))
    assert [r["file"] for r in rows] == ["A", "B", "C", "TOTAL"]          # reco2dur order
    check_total(rows, s)
    # TOTAL's metrics are computed from its counts and equal the reported scores to rounding
    total = {k: float(v) for k, v in rows[-1].items() if k != "file" and k not in SCORED}
    m = metrics(total)
    for k in SCORED:
        assert m[k] == pytest.approx(s[k], abs=1e-12), k
    for k in ADDITIVE:
        assert sum(float(r[k]) for r in rows[:-1]) == float(rows[-1][k]), k
    # by hand: file C (phones e f, word z) has no discovered fragment
    c = rows[2]
    assert (c["coverage_hit"], c["coverage_total"], c["token_discovered"], c["token_gold"]) == ("0", "2", "0", "1")
    assert c["token_precision"] == "-" and c["token_recall"] == "0.000000"    # a value, not a count
    spk = read_tsv(os.path.join(exp, "details", "per_speaker.tsv"))
    assert [r["speaker"] for r in spk] == ["A", "B", "C", "TOTAL"]     # one speaker per file here
    assert [list(r.values())[1:] for r in spk] == [list(r.values())[1:] for r in rows]


def test_zrc2020_speakers_group_files(tmp_path):
    phn = MICRO_PHN.replace("B ", "A2 ").replace("C ", "B1 ")
    wrd = MICRO_WRD.replace("B ", "A2 ").replace("C ", "B1 ")
    classes = MICRO_CLASSES.replace("B ", "A2 ")
    exp, s = zrc2020(tmp_path, phn, wrd, classes)
    files = read_tsv(os.path.join(exp, "details", "per_file.tsv"))
    spk = read_tsv(os.path.join(exp, "details", "per_speaker.tsv"))
    assert [r["speaker"] for r in spk] == ["A", "B", "TOTAL"]
    for k in ADDITIVE:
        assert float(spk[0][k]) == float(files[0][k]) + float(files[1][k]), k
    check_total(spk, s)


def test_zr2017_folds_none(root, tmp_path):
    (tmp_path / "x.phn").write_text(MICRO_PHN)
    (tmp_path / "x.wrd").write_text(MICRO_WRD)
    (tmp_path / "x.class").write_text(MICRO_CLASSES)
    data, exp = tmp_path / "data", tmp_path / "exp"
    prepare_zr(str(tmp_path / "x.phn"), str(tmp_path / "x.wrd"), str(data), spk_rule="prefix:1")
    r = subprocess.run(["bash", "-c", f". ./path.sh && steps/score_tde.sh --benchmark zr2017 --folds none "
                        f"{data} {tmp_path / 'x.class'} {exp}"], cwd=root, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    s = json.load(open(exp / "scores" / "scores.json"))
    for suffix, prefix in (("", "cross_"), ("_within", "within_")):
        rows = read_tsv(exp / "details" / f"per_file{suffix}.tsv")
        assert [x["file"] for x in rows] == ["A", "B", "C", "TOTAL"]
        check_total(rows, s, prefix)
        for k in ADDITIVE:
            assert sum(float(x[k]) for x in rows[:-1]) == pytest.approx(float(rows[-1][k])), k
        if len(s["folds"][prefix[:-1]]) > 1:
            continue        # within: one fold per speaker, the scores are fold means
        # one fold: the reported token/boundary scores are the ratios of the summed counts
        m = metrics({k: float(v) for k, v in rows[-1].items() if k != "file" and k not in SCORED})
        for k in ("token_precision", "token_recall", "boundary_precision", "boundary_recall", "coverage"):
            assert m[k] == pytest.approx(s[prefix + k], abs=1e-12), (prefix, k)
        assert os.path.isfile(exp / "details" / f"per_speaker{suffix}.tsv")


def test_zrc2020_mandarin_total_equals_scores(shared, tmp_path):
    z = os.path.join(shared, "data", "zr17")
    exp, s = zrc2020(tmp_path, open(os.path.join(z, "mandarin.phn")).read(), open(os.path.join(z, "mandarin.wrd")).read(),
                     open(os.path.join(z, "kamper_mandarin.class")).read(), nj=2)
    rows = read_tsv(os.path.join(exp, "details", "per_file.tsv"))
    assert len(rows) == 13 and rows[-1]["file"] == "TOTAL"
    m = metrics({k: float(v) for k, v in rows[-1].items() if k != "file" and k not in SCORED})
    for k in SCORED:
        assert m[k] == pytest.approx(s[k], abs=1e-12), k
    assert rows[-1]["token_hit"] == "1903" and rows[-1]["type_discovered"] == "14218"
