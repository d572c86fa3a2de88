"""Processing-resource figures: measuring a process tree (CPU of all descendants, peak memory
summed over concurrent workers, exit status) and ISF/SSF/PMU/PL arithmetic (docs/std.md §5.3)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from termeval.resources import resources as R

SPEC_CONF = """\
# resources.conf  (std-spec 5.2 / 5.3 worked example)
[audio]
t_omega_s        = 1080000       # 300 h
t_query_s        = 900
[index]
wall_s           = 50400
cores            = 16            # 14 h x 16 cores = 224 CPU-h
pmu_gb           = 8.0
[search]
wall_s           = 10800
cores            = 16
pmu_gb           = 4.0
[report]
lambda           = 0.1
ssf_unit         = hour
hardware         = "2x Xeon E5-2680 (16 cores), 64 GB, Linux"
"""

# a parent that starts two CPU-burning children and one that leaves an orphan grandchild;
# every burner writes its own getrusage(RUSAGE_SELF) CPU time to <out>.<tag>
TREE = textwrap.dedent("""\
    import os, resource, subprocess, sys, time
    role, out = sys.argv[1], sys.argv[2]
    def burn(sec, tag, mb=0):
        keep = b"\\x01" * (mb << 20)  # touched pages: resident
        t = time.process_time()
        while time.process_time() - t < sec:
            pass
        time.sleep(float(os.environ.get("HOLD", "0")))
        ru = resource.getrusage(resource.RUSAGE_SELF)
        open(out + "." + tag, "w").write(repr(ru.ru_utime + ru.ru_stime))
    if role == "parent":
        kids = [subprocess.Popen([sys.executable, __file__, "burn", out, t]) for t in ("a", "b")]
        subprocess.Popen([sys.executable, __file__, "orphaner", out, "o"])
        for k in kids:
            k.wait()
    elif role == "orphaner":
        subprocess.Popen([sys.executable, __file__, "burn", out, "c"])
        os._exit(0)  # the grandchild is orphaned: re-parented to the measuring process
    elif role == "mem":
        kids = [subprocess.Popen([sys.executable, __file__, "memburn", out, t]) for t in ("a", "b")]
        for k in kids:
            k.wait()
    elif role == "memburn":
        burn(0.05, sys.argv[3], mb=80)
    else:
        burn(0.3, sys.argv[3])
    """)


def _measure(root, exp, phase, *cmd, env=None):
    return subprocess.run(["bash", "utils/measure_resources.sh", "--interval", "0.02", str(exp), phase,
                           "--", *cmd], cwd=root, capture_output=True, text=True, env=env)


def test_spec_worked_example(tmp_path):
    conf = tmp_path / "r.conf"
    conf.write_text(SPEC_CONF)
    rf = R.read_resources_file(str(conf))
    assert rf["index"].cpu_s == 50400 * 16 and rf["search"].cpu_s == 10800 * 16
    f = R.compute(rf["index"], rf["search"], float(rf["t_omega_s"]), float(rf["t_query_s"]), 0.1, "hour")
    assert f.isf == pytest.approx(224 / 300, abs=1e-12)                 # 0.746667
    assert f.ssf_per_hour == pytest.approx(0.64, abs=1e-12)             # the seed prints 0.8
    assert f.ssf_per_second == pytest.approx(0.64 / 3600, rel=1e-12)    # 1.77778e-4
    assert f.pl == pytest.approx(0.1 * (224 / 300) * 8 + 0.9 * 0.64 * 4, abs=1e-12)  # 2.901333
    assert f.pl == pytest.approx(2.901333, abs=1e-6)
    fs = R.compute(rf["index"], rf["search"], 1080000, 900, 0.1, "second")
    assert fs.ssf == pytest.approx(0.64 / 3600) and fs.pl == pytest.approx(0.1 * (224 / 300) * 8 + 0.9 * 0.64 / 3600 * 4)


def test_score_resources_cli_with_file(root, tmp_path):
    conf = tmp_path / "r.conf"
    conf.write_text(SPEC_CONF)
    kws = tmp_path / "kws"
    kws.mkdir()
    r = subprocess.run(["bash", "steps/score_resources.sh", "--resources-file", str(conf), str(kws),
                        str(tmp_path / "exp")], cwd=root, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    s = json.loads((tmp_path / "exp/scores/scores.json").read_text())
    assert s["isf"] == pytest.approx(0.7466666667) and s["ssf"] == pytest.approx(0.64)
    assert s["pl"] == pytest.approx(2.9013333333) and s["resources"]["ssf_unit"] == "hour"
    lines = (tmp_path / "exp/scores/resources").read_text().splitlines()
    assert "ssf 0.640000 [ per hour: search CPU / (query duration x audio duration) ]" in lines


def test_measure_counts_every_descendant(root, tmp_path):
    script = tmp_path / "tree.py"
    script.write_text(TREE)
    out = str(tmp_path / "cpu")
    r = _measure(root, tmp_path / "exp", "search", sys.executable, str(script), "parent", out)
    assert r.returncode == 0, r.stderr
    kv = R.read_kv(str(tmp_path / "exp/resources/search"))
    children = [float(open(f"{out}.{t}").read()) for t in ("a", "b", "c")]
    assert min(children) >= 0.3
    # the two children and the orphaned grandchild are all counted (plus interpreter start-ups)
    assert float(kv["cpu_s"]) >= sum(children)
    assert kv["exit_status"] == "0" and kv["phase"] == "search" and int(kv["cores"]) >= 1
    assert kv["cpu_model"] and kv["still_running"] == "0"


def test_measure_peak_memory_of_concurrent_workers(root, tmp_path):
    script = tmp_path / "tree.py"
    script.write_text(TREE)
    env = dict(os.environ, HOLD="0.6")
    r = _measure(root, tmp_path / "exp", "index", sys.executable, str(script), "mem",
                 str(tmp_path / "m"), env=env)
    assert r.returncode == 0, r.stderr
    kv = R.read_kv(str(tmp_path / "exp/resources/index"))
    # two workers hold 80 MiB each at the same time: the tree peak counts both, while the
    # largest single process (ru_maxrss) holds one
    assert int(kv["max_rss_single_kb"]) >= 80 * 1024
    assert int(kv["peak_mem_kb"]) >= 2 * 80 * 1024
    assert float(kv["pmu_gb"]) == pytest.approx(int(kv["peak_mem_kb"]) / 2**20)


def test_exit_status_is_propagated(root, tmp_path):
    exp = tmp_path / "exp"
    r = _measure(root, exp, "index", "bash", "-c", "exit 7")
    assert r.returncode == 7
    assert R.read_kv(str(exp / "resources/index"))["exit_status"] == "7"
    r = _measure(root, exp, "search", "bash", "-c", "kill -TERM $$")
    assert r.returncode == 128 + 15
    r = _measure(root, exp, "search", "no-such-command-xyz")
    assert r.returncode == 1 and "command not found" in r.stderr and "Traceback" not in r.stderr
    # a failed measurement is refused by the figures stage
    (tmp_path / "q2d").write_text("q1 1.5\n")
    r = subprocess.run(["bash", "steps/score_resources.sh", "--audio-duration", "10",
                        "--query-durations", str(tmp_path / "q2d"), str(tmp_path / "q2d"), str(exp)],
                       cwd=root, capture_output=True, text=True)
    assert r.returncode != 0 and "failed" in r.stdout + r.stderr


def test_append_and_figures_from_measurements(root, tmp_path):
    exp = tmp_path / "exp"
    kws = tmp_path / "kws"
    kws.mkdir()
    (kws / "ecf.xml").write_text(
        '<ecf source_signal_duration="30" version="1">\n'
        '<excerpt audio_filename="a.wav" channel="1" tbeg="0" dur="20"/>\n'
        '<excerpt audio_filename="b.wav" channel="1" tbeg="0" dur="10"/>\n</ecf>\n')
    (kws / "query2dur").write_text("q1 1.0\nq1_02 0.5\nq2 1.5\n")
    for phase in ("index", "search"):
        assert _measure(root, exp, phase, "true").returncode == 0
    first = R.read_kv(str(exp / "resources/search"))
    r = subprocess.run(["bash", "utils/measure_resources.sh", "--append", "true", str(exp), "search",
                        "--", "true"], cwd=root, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    kv = R.read_kv(str(exp / "resources/search"))
    assert kv["runs"] == "2" and float(kv["cpu_s"]) >= float(first["cpu_s"])
    # hand-made measurement files: known numbers
    R.write_kv(str(exp / "resources/index"), {"exit_status": 0, "cpu_s": 6.0, "wall_s": 3.0, "peak_mem_kb": 2**20})
    R.write_kv(str(exp / "resources/search"), {"exit_status": 0, "cpu_s": 0.45, "wall_s": 1.0, "peak_mem_kb": 2**19})
    r = subprocess.run(["bash", "steps/score_resources.sh", "--lambda", "0.5", str(kws), str(exp)],
                       cwd=root, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    s = json.loads((exp / "scores/scores.json").read_text())
    assert s["t_audio_s"] == 30 and s["t_query_s"] == 3.0
    assert s["isf"] == pytest.approx(6.0 / 30)
    assert s["ssf_per_second"] == pytest.approx(0.45 / (3.0 * 30))
    assert s["ssf"] == pytest.approx(0.45 / (3.0 * 30) * 3600)
    assert s["pmu_index_gb"] == 1.0 and s["pmu_search_gb"] == 0.5
    assert s["pl"] == pytest.approx(0.5 * 0.2 * 1.0 + 0.5 * 18.0 * 0.5)


def test_query_duration_from_termlist_and_missing(root, tmp_path):
    kws = tmp_path / "kws"
    kws.mkdir()
    (kws / "tlist.xml").write_text(
        '<termlist ecf_filename="e" language="x" version="1">'
        '<term termid="q1"><termtext>q1</termtext><terminfo><attr><name>duration</name><value>1.25</value></attr></terminfo></term>'
        '<term termid="q2"><termtext>q2</termtext><terminfo><attr><name>duration</name><value>0.75</value></attr></terminfo></term>'
        '</termlist>\n')
    assert R.query_duration_from_termlist(str(kws))[0] == 2.0
    exp = tmp_path / "exp"
    R.write_kv(str(exp / "resources/search"), {"exit_status": 0, "cpu_s": 1.0, "peak_mem_kb": 1024})
    r = subprocess.run(["bash", "steps/score_resources.sh", "--audio-duration", "100", str(kws), str(exp)],
                       cwd=root, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    s = json.loads((exp / "scores/scores.json").read_text())
    assert s["t_query_s"] == 2.0 and s["ssf_per_second"] == pytest.approx(1.0 / 200)
    assert s["isf"] is None and s["pl"] is None  # no indexing phase measured
    (kws / "tlist.xml").unlink()
    r = subprocess.run(["bash", "steps/score_resources.sh", "--audio-duration", "100", str(kws), str(exp)],
                       cwd=root, capture_output=True, text=True)
    assert r.returncode != 0 and "no query duration" in r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
