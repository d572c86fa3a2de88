"""steps/score_std.sh --nj N: terms split into jobs, identical output for any N."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from termeval.run import driver as jobs
from termeval.bin import score_std as score_std_bin
from termeval.core.errors import InputError
from termeval.std.detections import read_detections
from termeval.std.kwsdir import load_kws_dir
from termeval.std.score import Params, align_terms, score_std

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "local"))
from bench_std import generate  # noqa: E402


def sh(root, *args):
    cmd = "cd {} && . ./path.sh && {}".format(root, " ".join(f"'{a}'" for a in args))
    return subprocess.run(["bash", "-c", cmd], capture_output=True, text=True)


@pytest.fixture(scope="module")
def example(root, tmp_path_factory):
    d = tmp_path_factory.mktemp("ex")
    subprocess.run([sys.executable, "local/make_example_std.py", str(d)], cwd=root, check=True, capture_output=True)
    return d


def tree(d) -> dict[str, bytes]:
    return {os.path.relpath(os.path.join(r, f), d): open(os.path.join(r, f), "rb").read()
            for r, _, fs in os.walk(d) for f in fs}


def same_outputs(a, b) -> None:
    """Every score file and detail byte-identical; scores.json equal but for the command
    lines and dates; the per-term statistics equal."""
    for sub in ("details",):
        ta, tb = tree(a / sub), tree(b / sub)
        assert sorted(ta) == sorted(tb)
        for k in ta:
            assert ta[k] == tb[k], k
    for f in ("std", "std_operating"):
        assert (a / "scores" / f).read_bytes() == (b / "scores" / f).read_bytes(), f
    ja, jb = (json.loads((x / "scores" / "scores.json").read_text()) for x in (a, b))
    for j in (ja, jb):
        j.pop("command")
        j.pop("stages")
    assert ja == jb
    with np.load(a / "units" / "units.std_term.npz") as za, np.load(b / "units" / "units.std_term.npz") as zb:
        for k in za.files:
            assert np.array_equal(za[k], zb[k]), k


@pytest.mark.parametrize("opts", [
    (),
    ("--align", "kaldi", "--term-attr", "NGram:(1|2)", "--bootstrap", "40"),
    ("--align", "kaldi", "--term-attr", "NGram:(2|3)", "--bootstrap", "40"),
])
def test_nj_gives_identical_files(root, example, tmp_path, opts):
    outs, printed = [], []
    for nj in (1, 3):
        exp = tmp_path / f"nj{nj}"
        r = sh(root, "steps/score_std.sh", "--nj", nj, "--plots", "false", *opts, example / "kws",
               example / "detections.stdlist.xml", exp)
        assert r.returncode == 0, r.stderr
        outs.append(exp)
        printed.append(r.stdout)
        assert not (exp / "scores" / ".summary").exists()   # printed, not left in scores/
    same_outputs(*outs)
    # the first line names the system (its exp dir) and the operating point, then the scores
    heads = [p.split("\n", 1)[0] for p in printed]
    assert [h.split(": ", 1)[0] for h in heads] == [f"# {o}" for o in outs] and heads[0].split(": ")[1:] == heads[1].split(": ")[1:]
    assert printed[0].split("\n", 1)[1] == printed[1].split("\n", 1)[1] and "atwv" in printed[0]
    s = json.loads((outs[1] / "scores" / "scores.json").read_text())
    # the regex reached the jobs and the merge intact: 7 terms occur, 2 of them are bigrams
    assert s["n_terms"] == (2 if "NGram:(2|3)" in opts else 7)
    assert all((outs[1] / "log" / f"std.{j}.log").is_file() for j in (1, 2, 3))
    assert not list((outs[1]).glob("jobs/std.*.npz"))       # job files removed after the merge
    if "--bootstrap" in opts:
        assert s["ci"]["atwv"]["n"] == 40


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("std"))
    return generate(d, 60, 6000, 15, 30.0, "kwslist", seed=5)


def stage_and_args(kws_dir, det, exp, *opts):
    from termeval.run.cli import options_of
    parser = score_std_bin.get_parser()
    args = options_of(parser, parser.parse_args([*opts, str(kws_dir), str(det), str(exp)]))
    return score_std_bin.stage_of(args), args


@pytest.mark.parametrize("align", ["f4de", "kaldi"])
@pytest.mark.parametrize("nj", [2, 5, 70])
def test_jobs_reproduce_one_process(task, tmp_path, align, nj):
    kws_dir, det = task
    kws = load_kws_dir(kws_dir)
    dets = read_detections(det, "auto", kws.frame_length, kws.utt_map, kws.segments)
    p = Params(preset="nist2006", align=align)
    whole = score_std(kws, dets, p)
    stage, args = stage_and_args(kws_dir, det, tmp_path, "--preset", "nist2006", "--align", align)
    ctx = stage.load(args)
    ranges = jobs.balanced_ranges(stage.costs(ctx), nj)
    assert len(ranges) == nj and ranges[0][0] == 0 and ranges[-1][1] == ctx.prep.n_terms
    assert all(a[1] == b[0] for a, b in zip(ranges[:-1], ranges[1:]))
    for j in range(1, nj + 1):
        assert jobs.run(stage, args, str(tmp_path), nj=nj, job=j) is None
    res = stage.merge(ctx, [jobs.load_shard(jobs.shard_path(str(tmp_path), "std", j), {}) for j in range(1, nj + 1)])
    assert res.metrics == whole.metrics and res.extra == whole.extra
    for k in ("det_ref", "ref_det"):
        assert np.array_equal(res.ali[k], whole.ali[k])
    if align == "f4de":
        assert whole.extra["alignment_stats"]["pairs"] > 0


def test_balanced_ranges():
    assert jobs.balanced_ranges(np.array([9, 0, 0, 9]), 2) == [(0, 2), (2, 4)]
    assert jobs.balanced_ranges(np.zeros(0), 3) == [(0, 0)] * 3
    assert jobs.balanced_ranges(np.ones(2), 4)[-1] == (2, 2)
    with pytest.raises(InputError):
        jobs.balanced_ranges(np.ones(3), 0)


def test_stale_or_missing_job_files_are_refused(task, tmp_path):
    kws_dir, det = task
    stage, args = stage_and_args(kws_dir, det, tmp_path)
    for j in (1, 2, 3):
        jobs.run(stage, args, str(tmp_path), nj=3, job=j)
    with pytest.raises(InputError, match="another run"):
        jobs.run(stage, args, str(tmp_path), merge=2)           # written for nj = 3
    os.remove(jobs.shard_path(str(tmp_path), "std", 2))
    with pytest.raises(InputError, match="not found"):
        jobs.run(stage, args, str(tmp_path), merge=3)
    assert not (tmp_path / "scores").exists()
    assert align_terms(stage.load(args).prep, 0, 0).det.size == 0


def test_compat_kaldi_is_scored_in_the_merge(root, tmp_path):
    kws = tmp_path / "kws"
    kws.mkdir()
    (kws / "hitlist").write_text("KW1 1 100 150 1\nKW1 2 300 340 1\nKW2 1 500 560 1\n")
    (kws / "keywords.txt").write_text("KW1 alpha\nKW2 beta\n")
    (kws / "utt2dur").write_text("1 100.0\n2 100.0\n")
    res = tmp_path / "results"
    res.write_text("KW1 1 101 149 0.9\nKW1 2 200 240 0.7\nKW2 1 505 555 0.3\n")
    outs = []
    for nj in (1, 2):
        exp = tmp_path / f"k{nj}"
        r = sh(root, "steps/score_std.sh", "--nj", nj, "--compat", "kaldi", kws, res, exp)
        assert r.returncode == 0, r.stderr
        outs.append(exp)
    assert (outs[0] / "scores" / "std").read_bytes() == (outs[1] / "scores" / "std").read_bytes()
    assert (outs[0] / "details" / "score.txt").read_bytes() == (outs[1] / "details" / "score.txt").read_bytes()
    assert (outs[1] / "log" / "std.merge.log").is_file() and not (outs[1] / "jobs").exists()


def test_std_term_tables_of_two_systems_are_paired(task):
    """Two systems with different numbers of distinct scores have the same table columns
    (compare_systems.sh refused them before the grid had a fixed width)."""
    from termeval.bootstrap.engine import check_paired, full_values, paired_test
    from termeval.std.units import term_table
    kws_dir, det = task
    kws = load_kws_dir(kws_dir)
    tabs = []
    for digits in (None, 1):
        dets = read_detections(det, "auto", kws.frame_length, kws.utt_map, kws.segments)
        if digits is not None:
            dets.score = np.round(dets.score, digits)
        res = score_std(kws, dets, Params(preset="nist2006"))
        tabs.append(term_table(res, dets))
        assert full_values(tabs[-1])["mtwv"] == pytest.approx(res.metrics["mtwv"], abs=1e-12)
    check_paired(tabs[1], tabs[0])
    assert paired_test(tabs[1], tabs[0], 50, 1)["mtwv"]["diff"] != 0
