"""One name per stage (issue 30): a stage's name is its benchmark's name, and every scoring step
names its logs (<exp>/log/<name>.log, <name>.JOB.log, <name>.merge.log) and shards
(<exp>/jobs/<name>.J.npz) by it, so the stale-shard cleanup before the jobs (te_run_stage,
`termeval <step> --nj N`) removes a shard an earlier run left. Run on the bundled toy data
(local/make_example*.py) with --nj 2 through utils/run.pl, wrapped to list the shards the jobs
wrote before the merge removes them."""
from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest

# every scoring step's stage names: the benchmark names
NAMES = {"zrc2020", "zr2015", "zr2017", "zr2015-doc", "lrec2014", "std", "quesst", "resources",
         "segmentation", "segmentation_phone", "text_segmentation"}

# the launcher: utils/run.pl, then (for the jobs) the shards in <exp>/jobs listed into <exp>.shards
WRAPPER = """#!/usr/bin/env bash
"{run_pl}" "$@" || exit $?
if [[ "$1" == JOB=* ]]; then
  exp=$(dirname "$(dirname "$2")")
  ls "$exp/jobs" > "$exp.shards"
fi
"""


def sh(root, cwd, *args):
    cmd = ". {}/path.sh && {}".format(root, " ".join(f"'{a}'" for a in args))
    return subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, cwd=cwd)


@pytest.fixture(scope="module")
def toy(root, tmp_path_factory):
    """data/example (+ _nosil), the simulated classes, the STD example and texts of data/example."""
    d = tmp_path_factory.mktemp("names")
    src = d / "data/local/example"
    for script, out in (("make_example.py", src), ("make_example_std.py", d / "data/local/example_std")):
        r = subprocess.run([sys.executable, f"{root}/local/{script}", str(out)], capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=root))
        assert r.returncode == 0, r.stderr
    zr = src / "zr"
    for extra, out in (((), "data/example"), (("--drop-silence", "true", "--fill-gaps", "false"), "data/example_nosil")):
        r = sh(root, d, f"{root}/steps/prepare_gold.sh", "--format", "zr", *extra, zr / "example.phn",
               zr / "example.wrd", d / out)
        assert r.returncode == 0, r.stderr
    r = sh(root, d, f"{root}/utils/export_text.sh", d / "data/example", d / "text")
    assert r.returncode == 0, r.stderr
    r = subprocess.run([sys.executable, f"{root}/local/make_text_segmentation.py", str(d / "text/gold.txt"),
                        str(d / "text/prepared.txt"), str(d / "text/seg.txt")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    (d / "resources.conf").write_text("[audio]\nt_omega_s = 3600\nt_query_s = 10\n[index]\ncpu_s = 5\npmu_gb = 1\n"
                                      "[search]\ncpu_s = 2\npmu_gb = 1\n[report]\nlambda = 0.1\n")
    launcher = d / "launch.sh"
    launcher.write_text(WRAPPER.format(run_pl=f"{root}/utils/run.pl"))
    launcher.chmod(0o755)
    return d


CLASSES = "data/local/example/classes/example.classes"
STD = "data/local/example_std"
# (benchmark name, step, options, arguments) of every scoring step that runs jobs
CASES = [
    ("zrc2020", "score_tde", ["--benchmark", "zrc2020"], ["data/example", CLASSES]),
    ("zr2015", "score_tde", ["--benchmark", "zr2015", "--folds", "none"], ["data/example_nosil", CLASSES]),
    ("zr2017", "score_tde", ["--benchmark", "zr2017", "--folds", "none"], ["data/example_nosil", CLASSES]),
    ("zr2015-doc", "score_tde", ["--benchmark", "zr2015-doc"], ["data/example", CLASSES]),
    ("lrec2014", "score_tde", ["--benchmark", "lrec2014", "--folds", "random:4x0.5:1"], ["data/example", CLASSES]),
    ("std", "score_std", ["--plots", "false"], [f"{STD}/kws", f"{STD}/detections.stdlist.xml"]),
    ("quesst", "score_quesst", ["--default-score", "-10"], [f"{STD}/kws", f"{STD}/detections.stdlist.xml"]),
    ("segmentation", "score_segmentation", [], ["data/example", CLASSES]),
    ("segmentation_phone", "score_segmentation", ["--level", "phone"], ["data/example", CLASSES]),
    ("text_segmentation", "score_text_segmentation", [], ["text/gold.txt", "text/seg.txt"]),
]


def stage_name(step: str, argv: list[str]) -> str:
    """The name of the step's stage for these arguments, asked of its bin module."""
    mod = importlib.import_module(f"termeval.bin.{step}")
    return mod.stage_of(mod.get_parser().parse_args(argv)).name


@pytest.mark.parametrize("name,step,opts,args", CASES, ids=[c[0] for c in CASES])
def test_logs_and_shards_are_named_by_the_stage(root, toy, name, step, opts, args):
    exp = f"exp/{name}"
    assert stage_name(step, [*opts, *args, exp]) == name and name in NAMES
    os.makedirs(toy / exp / "jobs", exist_ok=True)
    stale = toy / exp / "jobs" / f"{name}.9.npz"
    stale.write_bytes(b"left by an earlier run")
    r = sh(root, toy, f"{root}/steps/{step}.sh", "--nj", "2", "--cmd", toy / "launch.sh", *opts, *args, exp)
    assert r.returncode == 0, r.stderr
    assert not stale.exists()                                    # cleared before the jobs
    assert (toy / f"{exp}.shards").read_text().split() == [f"{name}.1.npz", f"{name}.2.npz"]
    assert not list((toy / exp).glob("jobs/*.npz"))              # removed by the merge
    logs = set(os.listdir(toy / exp / "log")) - {"prepare_classes.log"}   # score_tde's preparation
    assert logs == {f"{name}.1.log", f"{name}.2.log", f"{name}.merge.log"}


def test_resources_log_is_named_by_the_stage(root, toy):
    """score_resources runs one process (no jobs): log/resources.log."""
    assert stage_name("score_resources", [f"{STD}/kws", "exp/r"]) == "resources"
    r = sh(root, toy, f"{root}/steps/score_resources.sh", "--resources-file", "resources.conf", f"{STD}/kws", "exp/r")
    assert r.returncode == 0, r.stderr
    assert os.listdir(toy / "exp/r/log") == ["resources.log"]


@pytest.mark.parametrize("name,step,opts,args", [c for c in CASES if c[0] in ("zr2015-doc", "segmentation_phone", "std")],
                         ids=["zr2015-doc", "segmentation_phone", "std"])
def test_the_termeval_command_names_them_alike(root, toy, name, step, opts, args):
    """`termeval <step> --nj 2` (termeval/command.py): the same log names, the stale shard
    cleared, and one process logged as <name>.log."""
    for nj in ("1", "2"):
        exp = f"exp/cmd{nj}_{name}"
        os.makedirs(toy / exp / "jobs", exist_ok=True)
        stale = toy / exp / "jobs" / f"{name}.9.npz"
        stale.write_bytes(b"left by an earlier run")
        r = subprocess.run([sys.executable, "-m", "termeval", step.replace("_", "-"), "--nj", nj, *opts, *args, exp],
                           capture_output=True, text=True, cwd=toy, env=dict(os.environ, PYTHONPATH=root))
        assert r.returncode == 0, r.stderr
        logs = set(os.listdir(toy / exp / "log"))
        if nj == "1":
            assert logs == {f"{name}.log"}
            stale.unlink()
        else:
            assert logs == {f"{name}.1.log", f"{name}.2.log", f"{name}.merge.log"}
            assert not stale.exists() and not list((toy / exp).glob("jobs/*.npz"))


def test_the_shell_steps_keep_no_table_of_names(root):
    """Each step passes its stage's name to te_run_stage: score_tde.sh the benchmark itself,
    score_segmentation.sh the stage's answer (--print-stage-name), the others the fixed name of
    their stage; no step names a log after itself."""
    expected = {"score_tde": '"$benchmark"', "score_segmentation": '"$stage"', "score_std": "std",
                "score_quesst": "quesst", "score_resources": "resources",
                "score_text_segmentation": "text_segmentation"}
    for step, name in expected.items():
        text = open(os.path.join(root, "steps", f"{step}.sh")).read()
        calls = [ln.split()[2] for ln in text.splitlines() if ln.startswith("te_run_stage ")]
        assert calls == [name], (step, calls)
    seg = open(os.path.join(root, "steps", "score_segmentation.sh")).read()
    assert "stage=$(te_stage_name score_segmentation " in seg and "segmentation_phone\n" not in seg
    r = subprocess.run([sys.executable, "-m", "termeval.bin.score_segmentation", "--print-stage-name", "--level",
                        "phone", "d", "s", "e"], capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=root))
    assert (r.returncode, r.stdout, r.stderr) == (0, "segmentation_phone\n", "")
