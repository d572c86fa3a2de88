"""steps/score_tde.sh end to end on a micro corpus: outputs, --nj invariance, dispatch, errors."""
from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from termeval.tde.zrc2020.report import SCORE_KEYS
from termeval.tde.zrc2020.testing import write_data_dir
from tde_micro import MICRO_CLASSES, MICRO_PHN, MICRO_WRD


def sh(root, *args, cwd=None):
    cmd = "cd {} && . ./path.sh && {}".format(cwd or root, " ".join(args))
    return subprocess.run(["bash", "-c", cmd], capture_output=True, text=True)


@pytest.fixture()
def micro(tmp_path):
    for name, text in (("x.phn", MICRO_PHN), ("x.wrd", MICRO_WRD), ("x.class", MICRO_CLASSES)):
        (tmp_path / name).write_text(text)
    write_data_dir(str(tmp_path / "x.phn"), str(tmp_path / "x.wrd"), str(tmp_path / "data"))
    return tmp_path


def test_score_tde_outputs_and_nj(root, micro):
    results = {}
    for nj in (1, 4):
        exp = micro / f"exp{nj}"
        r = sh(root, "steps/score_tde.sh", "--nj", str(nj), str(micro / "data"), str(micro / "x.class"), str(exp))
        assert r.returncode == 0, r.stderr
        for stage in ("matching", "clustering", "parsing"):
            assert (exp / "scores" / stage).is_file()
        s = json.loads((exp / "scores" / "scores.json").read_text())
        assert s["benchmark"] == "zrc2020"
        results[nj] = {k: s[k] for k in SCORE_KEYS}, s["counts"], s["discarded"]
        assert (exp / "details" / "discarded").read_text().split()[-1] == "no_phone_passes_30ms_50pct_rule"
        clusters = (exp / "details" / "clusters.txt").read_text().splitlines()
        assert len(clusters) == 1 + 6
        assert clusters[2].split() == ["c0000001", "2", "4", "4", "0.125000", "0.750000", "a", "b", "c", "d"]
    assert results[1] == results[4]
    scores, counts, discarded = results[1]
    assert scores["ned"] == 0.175 and scores["ned_pairs"] == 10 and scores["boundary_recall"] == 0.8
    assert counts["classes"] == 6 and counts["fragments"] == 12
    assert discarded == {"no_phone_overlaps": 0, "no_phone_passes_30ms_50pct_rule": 1}
    lines = dict(l.split(" ", 1) for l in (micro / "exp1" / "scores" / "matching").read_text().splitlines())
    assert lines["ned"] == "0.175000 [ 10 pairs ]" and lines["ned_pairs"] == "10"


def test_classes_prepared_only_when_needed(root, micro):
    """exp/classes is reused only for the same class-file bytes, data dir and options: keyed
    on content, never on mtime (issue 21: a same-size rewrite in the same second was missed)."""
    exp = micro / "exp"
    args = ("steps/score_tde.sh", str(micro / "data"), str(micro / "x.class"), str(exp))
    r = sh(root, *args)
    assert r.returncode == 0 and " prepared " in r.stderr, r.stderr
    seg = exp / "classes" / "segments"
    before = seg.stat().st_mtime_ns
    r = sh(root, *args)
    assert r.returncode == 0 and " prepared " not in r.stderr
    assert seg.stat().st_mtime_ns == before
    # touched, same bytes: still the same preparation
    os.utime(micro / "x.class", ns=(before + 10**9, before + 10**9))
    r = sh(root, *args)
    assert r.returncode == 0 and " prepared " not in r.stderr
    # rewritten with the same size and the same mtime, other bytes: prepared again
    cls = micro / "x.class"
    st = cls.stat()
    text = cls.read_text()
    assert "A 0.1 0.3" not in text
    first = text.splitlines()[1]
    changed = text.replace(first, first[:-1] + ("1" if first[-1] != "1" else "2"), 1)
    assert len(changed) == len(text) and changed != text
    cls.write_text(changed)
    os.utime(cls, ns=(st.st_atime_ns, st.st_mtime_ns))
    r = sh(root, *args)
    assert r.returncode == 0 and " prepared " in r.stderr, r.stderr
    assert (exp / "classes" / "segments").read_text() != ""
    cls.write_text(text)
    # a different submission, older than the prepared classes, scored into the same exp dir
    other = micro / "other.class"
    other.write_text("Class 1\nA 0.1 0.3\nA 0.1 0.3\n\n")
    os.utime(other, ns=(before - 10**10, before - 10**10))
    r = sh(root, "steps/score_tde.sh", str(micro / "data"), str(other), str(exp))
    assert r.returncode == 0 and " prepared " in r.stderr, r.stderr
    assert json.loads((exp / "scores" / "scores.json").read_text())["counts"]["fragments"] == 2
    assert "fragments_read 2" in (exp / "scores" / "prepare").read_text()
    # the same file with another --lenient is prepared again
    r = sh(root, "steps/score_tde.sh", "--lenient", "true", str(micro / "data"), str(other), str(exp))
    assert r.returncode == 0 and " prepared " in r.stderr


def test_bad_options_and_inputs(root, micro):
    data, cls = str(micro / "data"), str(micro / "x.class")
    r = sh(root, "steps/score_tde.sh", "--benchmark", "zr2099", data, cls, str(micro / "e"))
    assert r.returncode == 1 and "--benchmark: invalid choice: 'zr2099' (choose from 'zrc2020', 'zr2015'" in r.stderr
    r = sh(root, "steps/score_tde.sh", data, str(micro / "missing.class"), str(micro / "e"))
    assert r.returncode == 1 and "no such file" in r.stderr
    r = sh(root, "steps/score_tde.sh", data, cls)
    assert r.returncode == 1 and "Usage:" in r.stderr
    # overlapping phones: a one-line error from the job, no traceback
    phones = micro / "data" / "phones"
    phones.write_text(phones.read_text().replace("A 0.1 0.2 b", "A 0.05 0.2 b"))
    r = sh(root, "steps/score_tde.sh", data, cls, str(micro / "e2"))
    assert r.returncode != 0 and "phones overlap in file A" in r.stderr and "Traceback" not in r.stderr
    log = (micro / "e2" / "log" / "zrc2020.log").read_text()
    assert "phones overlap in file A" in log and "Traceback" not in log
    assert not (micro / "e2" / "scores").exists()


def test_folds_script_hands_over_to_score_tde(root, micro, tmp_path_factory):
    """steps/score_tde_folds.sh is steps/score_tde.sh --benchmark zr2015 of the same install."""
    fake = tmp_path_factory.mktemp("install")
    (fake / "steps").mkdir()
    shutil.copy(os.path.join(root, "steps", "score_tde_folds.sh"), fake / "steps")
    (fake / "steps" / "score_tde.sh").write_text('#!/usr/bin/env bash\necho "TDE $*"\n')
    os.chmod(fake / "steps" / "score_tde.sh", 0o755)
    args = (str(fake / "steps" / "score_tde_folds.sh"), "--benchmark", "zr2017", "--nj", "3", "--folds", "none",
            "d", "c", "e")
    r = subprocess.run(args, cwd=str(micro), capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "TDE --benchmark zr2015 --benchmark zr2017 --nj 3 --folds none d c e"


def test_stdout_has_the_score_lines_only(root, micro):
    r = sh(root, "steps/score_tde.sh", str(micro / "data"), str(micro / "x.class"), str(micro / "e"))
    assert r.returncode == 0, r.stderr
    expected = [f"{stage}: {line}" for stage in ("matching", "clustering", "parsing")
                for line in (micro / "e" / "scores" / stage).read_text().splitlines()]
    assert r.stdout.splitlines() == expected
    assert "matching: ned 0.175000 [ 10 pairs ]" in r.stdout.splitlines()


def test_a_run_owns_its_outputs(root, micro, tmp_path):
    """zr2017 then zrc2020 into one exp dir: nothing of the zr2017 run is left; a failing run
    (corrupt data dir) leaves the previous scores as they were."""
    nosil = micro / "data"           # gaps kept as gaps (write_data_dir): fit for zr2017 too
    exp = micro / "x"
    r = sh(root, "steps/score_tde.sh", "--benchmark", "zr2017", "--folds", "none", str(nosil),
           str(micro / "x.class"), str(exp))
    assert r.returncode == 0, r.stderr
    s = json.loads((exp / "scores" / "scores.json").read_text())
    assert "cross_ned" in s and (exp / "scores" / "tde15_input").is_file() and (exp / "details" / "tde15").is_dir()
    other = micro / "other.class"
    other.write_text("Class 1\nA 0.1 0.3\nB 0.1 0.3\n\n")
    r = sh(root, "steps/score_tde.sh", str(micro / "data"), str(other), str(exp))
    assert r.returncode == 0, r.stderr
    s = json.loads((exp / "scores" / "scores.json").read_text())
    assert s["benchmark"] == "zrc2020" and s["counts"]["fragments"] == 2
    assert not [k for k in s if k.startswith(("cross_", "within_"))] and "folds" not in s
    assert sorted(os.listdir(exp / "scores")) == ["clustering", "matching", "parsing", "prepare", "scores.json"]
    assert sorted(os.listdir(exp / "details")) == ["clusters.txt", "discarded", "per_file.tsv", "per_speaker.tsv"]
    # issue 40 item 21: details/discarded has its header even when no fragment was discarded
    assert (exp / "details" / "discarded").read_text().startswith("# fragment-id file onset offset reason")
    assert sorted(os.listdir(exp / "units")) == ["units.tde_class.npz", "units.tde_file.npz"]
    before = {p: (exp / "scores" / p).read_bytes() for p in os.listdir(exp / "scores")}
    bad = tmp_path / "bad"
    shutil.copytree(micro / "data", bad)
    (bad / "phones").write_text((bad / "phones").read_text() + "A 0.1 oops b\n")
    r = sh(root, "steps/score_tde.sh", str(bad), str(micro / "x.class"), str(exp))
    assert r.returncode == 1 and "error:" in r.stderr and "Traceback" not in r.stderr
    assert {p: (exp / "scores" / p).read_bytes() for p in os.listdir(exp / "scores")} == before
    assert not [p for p in os.listdir(exp) if p.startswith(".")]     # no temp dir, no lock left
