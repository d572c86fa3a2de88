"""matplotlib is optional (`pip install 'termeval[plots]'`): without it every step writes every
score and details file, byte for byte as with it, no plot file, and one
`<step>: note: plots skipped (...)` line per run on stderr (a note, kept out of scores.json).
The bundled example is scored (TDE, segmentation, STD with plots, compare_systems) by the
`termeval` command in a Python whose import system refuses matplotlib, as if not installed."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

NOTE = "plots skipped (matplotlib is not installed; pip install 'termeval[plots]')"
PLOTS = ("tde/details/segmentation/tolerance_sweep", "std/details/det", "std/details/twv", "cmp/forest")
TIMING = ("stages", "command")            # scores.json: run times and the command line

BLOCK = """
import sys
class NoMatplotlib:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "matplotlib":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, NoMatplotlib())
"""

RUN = """
import sys
from termeval import command
ex, out = sys.argv[1], sys.argv[2]
data, cls = ex + "/data/example", ex + "/data/local/example/classes/example.classes"
std = ex + "/data/local/example_std"
steps = [["score-tde", "--bootstrap", "20", data, cls, out + "/tde"],
         ["score-segmentation", "--tolerance", "0.02", data, cls, out + "/tde"],
         ["score-std", "--preset", "sws2013", std + "/kws", std + "/detections.stdlist.xml", out + "/std"],
         ["score-std", "--plots", "false", std + "/kws", std + "/detections.stdlist.xml", out + "/std2"],
         ["compare-systems", "--bootstrap", "50", out + "/std", out + "/std2", out + "/cmp"]]
for argv in steps:
    print("==", argv[0], file=sys.stderr, flush=True)
    if command.main(argv) != 0:
        sys.exit(1)
"""


def score(root: str, example: str, out: str, block: bool) -> str:
    r = subprocess.run([sys.executable, "-c", (BLOCK if block else "") + RUN, example, out],
                       capture_output=True, text=True, cwd=root, env=dict(os.environ, PYTHONPATH=root))
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stderr


def tree(d: str) -> dict[str, bytes]:
    out = {}
    for r, _, fs in os.walk(d):
        for f in fs:
            path = os.path.join(r, f)
            rel = os.path.relpath(path, d)
            if rel.split(os.sep)[1] == "log" or f == "report.html":     # the run's command line and times
                continue
            data = open(path, "rb").read()
            if f == "scores.json":
                data = json.dumps({k: v for k, v in json.loads(data).items() if k not in TIMING}).encode()
            out[rel] = data
    return out


@pytest.fixture(scope="module")
def both(root, example, tmp_path_factory):
    d = tmp_path_factory.mktemp("plots")
    return (score(root, example, str(d / "with"), False), tree(str(d / "with")),
            score(root, example, str(d / "without"), True), tree(str(d / "without")))


def test_without_matplotlib_every_score_file_and_no_plot(both):
    _, with_plots, _, without = both
    plots = {f"{p}.{ext}" for p in PLOTS for ext in ("png", "pdf")}
    assert plots <= set(with_plots) and not plots & set(without)
    assert set(with_plots) - plots == set(without)
    assert {"tde/scores/scores.json", "std/scores/std", "std/details/det_points.tsv",
            "cmp/scores/compare", "tde/details/segmentation/tolerance_sweep"} <= set(without)
    for name, data in without.items():
        assert with_plots[name] == data, name


def test_one_note_per_run_on_stderr(both):
    err_with, _, err_without, _ = both
    assert "note:" not in err_with
    notes = {}
    step = None
    for line in err_without.splitlines():
        if line.startswith("== "):
            step = line[3:]
        elif "note:" in line:
            notes.setdefault(step, []).append(line)
    assert notes == {s: [f"termeval {s}: note: {NOTE}"] for s in ("score-segmentation", "score-std", "compare-systems")}
