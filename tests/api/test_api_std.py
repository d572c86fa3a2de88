"""The STD/KWS side of the Python API built from the steps' typed options: score_std,
prepare_kws, score_resources and compare_systems equal their commands; their signatures list
the options; a wrong type is a TypeError naming the argument, a bad value the step's line."""
from __future__ import annotations

import inspect
import json
import os

import pytest

import termeval
from termeval import command

TIMING = {"stages", "command"}


def same(a: dict, b: dict) -> bool:
    return {k: v for k, v in a.items() if k not in TIMING} == {k: v for k, v in b.items() if k not in TIMING}


def files(d) -> dict:
    return {os.path.relpath(os.path.join(r, f), d): open(os.path.join(r, f), "rb").read()
            for r, _, fs in os.walk(d) for f in fs}


def test_signatures_list_the_options():
    assert {"preset", "compat", "kst", "fa_per_hour", "bootstrap", "nj"} <= set(
        inspect.signature(termeval.score_std).parameters)
    assert {"keywords", "kwlist", "frame_shift"} <= set(inspect.signature(termeval.prepare_kws).parameters)
    assert {"lam", "ssf_unit", "resources_file"} <= set(inspect.signature(termeval.score_resources).parameters)
    assert {"bootstrap", "test", "plot"} <= set(inspect.signature(termeval.compare_systems).parameters)
    assert "compat (str, default 'none')" in termeval.score_std.__doc__


def _prepare_inputs(example, tmp_path) -> str:
    words = {}
    with open(os.path.join(example, "data/example/words")) as f:
        for line in f:
            w = line.split()[3]
            words[w] = words.get(w, 0) + 1
    top = sorted((w for w in words if w != "SIL"), key=lambda w: (-words[w], w))[:3]
    kw = tmp_path / "keywords.txt"
    kw.write_text("".join(f"KW-{i} {w}\n" for i, w in enumerate(top, 1)))
    return str(kw)


def test_prepare_kws_and_std_kaldi_equal_the_commands(example, tmp_path, capsys):
    data = os.path.join(example, "data/example")
    kw = _prepare_inputs(example, tmp_path)
    assert command.main(["prepare-kws", "--keywords", kw, data, str(tmp_path / "cmd_kws")]) == 0
    got = termeval.prepare_kws(data, tmp_path / "api_kws", keywords=kw)
    assert files(tmp_path / "cmd_kws") == files(tmp_path / "api_kws")
    assert got["n_keywords"] == 3 and got["n_occurrences"] > 0 and got["no_occurrence"] == []
    # the output guard: a kws dir that is, or holds, the data dir
    for bad in (data, os.path.dirname(data)):
        with pytest.raises(termeval.InputError, match=r"the output of prepare_kws (is|contains) its input"):
            termeval.prepare_kws(data, bad, keywords=kw)
    with pytest.raises(termeval.InputError, match="exactly one of"):
        termeval.prepare_kws(data, tmp_path / "x")
    with pytest.raises(TypeError, match="data_dir"):
        termeval.prepare_kws(3, tmp_path / "x", keywords=kw)
    # --compat kaldi on the kws dir's own hitlist as results
    kws = str(tmp_path / "api_kws")
    hits = tmp_path / "results"
    hits.write_text("".join(" ".join(x.split()[:4] + ["0.9"]) + "\n"
                            for x in open(os.path.join(kws, "hitlist"))))
    opts = ["--compat", "kaldi", "--plots", "false"]
    assert command.main(["score-std", *opts, kws, str(hits), str(tmp_path / "c")]) == 0
    with open(tmp_path / "c/scores/scores.json") as f:
        want = json.load(f)
    r = termeval.score_std(kws, hits, compat="kaldi", plots=False, exp_dir=tmp_path / "a")
    assert same(r, want) and same(termeval.score_std(kws, hits, compat="kaldi", plots=False), want)
    assert r["atwv"] == pytest.approx(1.0) and r["benchmark"] == "kaldi"
    for name in ("scores/std", "details/score.txt", "details/alignment.csv"):
        assert (tmp_path / "c" / name).read_bytes() == (tmp_path / "a" / name).read_bytes()


def test_score_std_option_errors_are_the_step_lines(example):
    std = os.path.join(example, "data/local/example_std")
    args = (f"{std}/kws", f"{std}/detections.stdlist.xml")
    for options, line in (
            ({"compat": "kaldi", "preset": "sws2012"}, "preset='sws2012' with compat='kaldi'"),
            ({"fa_per_hour": "inf"}, "fa_per_hour: expected a comma list of finite numbers, got 'inf'"),
            ({"term_attr": "x:("}, "term_attr: "),
            ({"p_target": 1.5}, "p_target: must lie strictly between 0 and 1, got '1.5'")):
        with pytest.raises(termeval.InputError) as e:
            termeval.score_std(*args, **options)
        assert str(e.value).startswith(line), (options, str(e.value))
    with pytest.raises(TypeError, match="detections"):
        termeval.score_std(args[0], None)
    # a float field given an int, a comma list as a list: the same scores as the command's text
    a = termeval.score_std(*args, p_target=0.0001, c_miss=10, fa_per_hour=[1, 10], plots=False)
    b = termeval.score_std(*args, p_target=0.0001, c_miss=10.0, fa_per_hour="1,10", plots=False)
    assert same(a, b)


SPEC = """[audio]
t_omega_s = 1080000
t_query_s = 900
[index]
wall_s = 50400
cores = 16
pmu_gb = 8.0
[search]
wall_s = 10800
cores = 16
pmu_gb = 4.0
"""


def test_score_resources_equals_the_command(example, tmp_path):
    kws = os.path.join(example, "data/local/example_std/kws")
    conf = tmp_path / "r.conf"
    conf.write_text(SPEC)
    assert command.main(["score-resources", "--resources-file", str(conf), "--lambda", "0.5", kws,
                         str(tmp_path / "c")]) == 0
    with open(tmp_path / "c/scores/scores.json") as f:
        want = json.load(f)
    assert same(termeval.score_resources(kws, tmp_path / "a", resources_file=conf, lam=0.5), want)
    assert same(termeval.score_resources(kws, resources_file=conf, lam=0.5), want)
    assert (tmp_path / "c/scores/resources").read_bytes() == (tmp_path / "a/scores/resources").read_bytes()
    with pytest.raises(termeval.InputError, match=r"^lam: must lie in \[0, 1\], got '2.5'$"):
        termeval.score_resources(kws, resources_file=conf, lam=2.5)
    with pytest.raises(termeval.InputError, match="no resources_file"):
        termeval.score_resources(kws)


def test_compare_systems_types_and_outputs(two_systems, tmp_path):
    for wrong in (str(tmp_path / "a"), tmp_path / "a"):
        with pytest.raises(TypeError, match="systems"):
            termeval.compare_systems(wrong, bootstrap=50)
    c = termeval.compare_systems([tmp_path / "a", tmp_path / "b"], out_dir=tmp_path / "api", bootstrap=50,
                                 plot=False)
    assert command.main(["compare-systems", "--bootstrap", "50", "--plot", "false", str(tmp_path / "a"),
                         str(tmp_path / "b"), str(tmp_path / "cmd")]) == 0
    api, cmd = files(tmp_path / "api"), files(tmp_path / "cmd")
    assert api.pop("report.html").count(b"<!--te-section:compare-->") == cmd.pop("report.html").count(
        b"<!--te-section:compare-->") == 1         # the page names its dir and date
    assert api == cmd
    with open(tmp_path / "cmd/scores/compare.json") as f:
        assert json.load(f) == c
    assert sorted(os.listdir(tmp_path / "api")) == ["RESULTS.compare.md", "report.html", "scores"]
    with pytest.raises(termeval.InputError, match="the output dir is the system"):
        termeval.compare_systems([tmp_path / "a", tmp_path / "b"], out_dir=tmp_path / "a", bootstrap=50)
    with pytest.raises(termeval.InputError, match="^bootstrap must be >= 1 and ci in"):
        termeval.compare_systems([tmp_path / "a", tmp_path / "b"], bootstrap=0)
