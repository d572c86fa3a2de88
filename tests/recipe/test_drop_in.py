"""Drop-in use: every termeval step called by absolute path from a scratch Kaldi-style recipe
directory (its own stand-ins for Kaldi's steps/ and utils/ first on PATH, a path.sh that knows
nothing of termeval, a cmd.sh exporting train_cmd/decode_cmd) with --nj 2 and the recipe's
launcher, gives the same scores as the same steps run from termeval's root, and writes nothing
into termeval's tree."""
from __future__ import annotations

import os
import subprocess

import pytest

# A stand-in for Kaldi's utils/run.pl: the same argument quoting as Kaldi's (plain words as they
# are, the others in "..." or '...'), runs from the current directory, marks that it was used.
KALDI_RUN_PL = r'''#!/usr/bin/env python3
import os, re, subprocess, sys
args = sys.argv[1:]
while args and args[0].startswith("--"):
    args = args[2:]
open(os.environ["STANDIN_MARK"], "a").write(os.getcwd() + "\n")
rng = re.fullmatch(r"(\w+)=(\d+):(\d+)", args[0])
if rng:
    args = args[1:]
log, words = args[0], args[1:]
cmd = " ".join(w if re.fullmatch(r"\S+", w) else (f"'{w}'" if '"' in w else f'"{w}"') for w in words)
tasks = range(int(rng.group(2)), int(rng.group(3)) + 1) if rng else [None]
bad = 0
for t in tasks:
    name = rng.group(1) if rng else None
    lg = log.replace(name, str(t)) if name else log
    c = cmd.replace(name, str(t)) if name else cmd
    os.makedirs(os.path.dirname(lg) or ".", exist_ok=True)
    with open(lg, "w") as f:
        f.write("# " + c + "\n")
        f.flush()
        code = subprocess.run(["bash", "-c", c], stdout=f, stderr=subprocess.STDOUT).returncode
        f.write(f"# Ended (code {code}) at now\n")
    bad += code != 0
if bad:
    print(f"run.pl: {bad} / {len(tasks)} failed, log is in {log}", file=sys.stderr)
sys.exit(1 if bad else 0)
'''


def make_recipe(d, mark) -> None:
    """A Kaldi egs/<corpus>/s5-like directory with its own steps/, utils/, path.sh, cmd.sh."""
    for sub in ("steps", "utils", "conf", "local"):
        (d / sub).mkdir(parents=True)
    (d / "utils" / "run.pl").write_text(KALDI_RUN_PL)
    os.chmod(d / "utils" / "run.pl", 0o755)
    # Kaldi scripts of the same names as termeval's, to prove they are not picked up
    for name in ("utils/parse_options.sh", "utils/validate_data_dir.sh", "steps/score_tde.sh",
                 "utils/summarize_scores.sh", "path.sh.kaldi"):
        (d / name).write_text("echo KALDI-SCRIPT-WAS-USED >&2; exit 3\n")
    (d / "path.sh").write_text('export PATH="$PWD/utils:$PWD/steps:$PATH"\nexport PYTHONPATH=/nonexistent\n')
    (d / "cmd.sh").write_text('export train_cmd="run.pl --mem 2G"\nexport decode_cmd="run.pl --mem 4G"\n')
    (d / "conf" / "slurm.conf").write_text("command sbatch --export=PATH\n")
    os.environ["STANDIN_MARK"] = str(mark)


def run_in(cwd, script: str, *args, env=None) -> subprocess.CompletedProcess:
    """Run like a Kaldi user: `. ./path.sh; . ./cmd.sh; set -u; <script> args`."""
    cmdline = ". ./path.sh; . ./cmd.sh; set -u; " + " ".join(f"'{a}'" for a in (script, *args))
    return subprocess.run(["bash", "-c", cmdline], cwd=cwd, capture_output=True, text=True, env=env)


def score_files(exp: str) -> dict[str, str]:
    out = {}
    for dirpath, _, files in os.walk(exp):
        if os.path.basename(dirpath) == "scores":
            for f in files:
                if f != "scores.json":
                    with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                        out[os.path.relpath(os.path.join(dirpath, f), exp)] = fh.read()
    return out


def steps_of(root: str, src: str) -> list[tuple[str, ...]]:
    """(script, args...) for every step; paths relative to the directory the steps run in."""
    s, u = f"{root}/steps", f"{root}/utils"
    ex, std = f"{src}/example", f"{src}/example_std"
    return [
        (f"{s}/prepare_gold.sh", "--format", "zr", f"{ex}/zr/example.phn", f"{ex}/zr/example.wrd", "data/gold"),
        (f"{s}/prepare_gold.sh", "--format", "zr", "--drop-silence", "true", "--fill-gaps", "false",
         f"{ex}/zr/example.phn", f"{ex}/zr/example.wrd", "data/gold_nosil"),
        (f"{u}/validate_alignment_dir.sh", "data/gold"),
        (f"{u}/export_zr.sh", "data/gold", "exp/zr/g.phn", "exp/zr/g.wrd"),
        (f"{s}/prepare_classes.sh", "data/gold", f"{ex}/classes/example.classes", "exp/tde"),
        (f"{s}/score_tde.sh", "--nj", "2", "--cmd", "run.pl --mem 4G", "data/gold",
         f"{ex}/classes/example.classes", "exp/tde"),
        (f"{s}/score_tde.sh", "--benchmark", "zr2017", "--folds", "none", "--nj", "2", "data/gold_nosil",
         f"{ex}/classes/example.classes", "exp/tde_zr2017"),
        (f"{s}/score_std.sh", "--cmd", "run.pl", "--term-attr", "NGram:(1|2)", f"{std}/kws",
         f"{std}/detections.stdlist.xml", "exp/std"),
        (f"{u}/summarize_scores.sh", "exp"),
    ]


@pytest.fixture(scope="module")
def example_src(root, tmp_path_factory):
    src = tmp_path_factory.mktemp("src")
    for script, out in (("make_example.py", "example"), ("make_example_std.py", "example_std")):
        r = subprocess.run([os.path.join(root, "utils", "termeval_python.sh"), os.path.join(root, "local", script),
                            "--seed", "1", str(src / out)],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    return str(src)


# What the steps of this test could write into termeval's tree if they resolved a path against
# it instead of the caller's directory: the exp and data dirs they are given (relative paths),
# the summary, and what a stage writes beside its exp dir. Only these are compared, not the whole
# checkout (a concurrent `pip install .` or editor in the checkout is not this test's business).
OWN_PATHS = ("exp", "data", "RESULTS.md", "log", "jobs", "scores", "details", "units", "classes")


def git_status(root: str) -> str | None:
    if not os.path.isdir(os.path.join(root, ".git")) and not os.path.isfile(os.path.join(root, ".git")):
        return None
    r = subprocess.run(["git", "status", "--porcelain", "--ignored", "--untracked-files=all", "--",
                        *OWN_PATHS], cwd=root, capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def test_every_step_runs_from_a_kaldi_recipe(root, example_src, tmp_path):
    before = git_status(root)
    recipe = tmp_path / "egs" / "mycorpus" / "s5"
    mark = tmp_path / "standin_used"
    make_recipe(recipe, mark)
    env = {k: v for k, v in os.environ.items() if k not in ("cmd", "PYTHONPATH", "TERMEVAL_ROOT")}
    env["STANDIN_MARK"] = str(mark)
    env["PATH"] = "/usr/bin:/bin"          # no termeval venv on PATH, as in a fresh shell
    for step in steps_of(root, example_src):
        r = run_in(recipe, *step, env=env)
        assert r.returncode == 0, f"{step}: {r.stderr}"
        assert "KALDI-SCRIPT-WAS-USED" not in r.stderr
        assert "Traceback" not in r.stderr
    # the recipe's launcher ran the jobs, from the recipe directory
    used = mark.read_text().split()
    assert used and set(used) == {str(recipe)}
    assert (recipe / "RESULTS.md").is_file()
    assert "|tde|" in (recipe / "RESULTS.md").read_text()
    # the same steps from termeval's root, into a directory outside the tree
    ref = tmp_path / "from_root"
    ref.mkdir()
    for step in steps_of(root, example_src):
        args = [a if a.startswith(("/", "-")) or " " in a or a in ("zr", "true", "false", "none", "zr2017",
                                                                   "2", "run.pl", "NGram:(1|2)")
                else str(ref / a) for a in step[1:]]
        script = os.path.relpath(step[0], root)
        args = [a.replace("run.pl --mem 4G", f"{root}/utils/run.pl") if a == "run.pl --mem 4G" else
                (f"{root}/utils/run.pl" if a == "run.pl" else a) for a in args]
        if script.endswith("summarize_scores.sh"):
            args = ["--out", str(ref / "RESULTS.md"), *args]   # the cwd is termeval's root here
        r = subprocess.run(["bash", script, *args], cwd=root, capture_output=True, text=True)
        assert r.returncode == 0, f"{step}: {r.stderr}"
    got, want = score_files(str(recipe / "exp")), score_files(str(ref / "exp"))
    assert sorted(got) == sorted(want) and len(got) >= 6
    for name in want:
        assert got[name] == want[name], name
    for name in ("phones", "words", "utt2spk", "reco2dur"):
        assert (recipe / "data/gold" / name).read_bytes() == (ref / "data/gold" / name).read_bytes()
    if before is not None:
        assert git_status(root) == before, "termeval's tree was changed by steps run from elsewhere"


def test_a_missing_launcher_is_one_line(root, example_src, tmp_path):
    ex = f"{example_src}/example"
    r = subprocess.run(["bash", f"{root}/steps/score_tde.sh", "--cmd", "queue.pl -q all.q", f"{tmp_path}/nodata",
                        f"{ex}/classes/example.classes", "exp/x"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 1
    errors = [x for x in r.stderr.splitlines() if "error:" in x]
    assert errors == [f"score_tde.sh: error: data dir {tmp_path}/nodata: no such directory"]
    r = subprocess.run(["bash", f"{root}/steps/prepare_gold.sh", "--format", "zr", f"{ex}/zr/example.phn",
                        f"{ex}/zr/example.wrd", "data/g"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run(["bash", f"{root}/steps/score_tde.sh", "--cmd", "queue.pl -q all.q", "data/g",
                        f"{ex}/classes/example.classes", "exp/x"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1].startswith("score_tde.sh: error: --cmd: launcher 'queue.pl' not found")
    assert not (tmp_path / "exp" / "x").exists()


def test_read_only_exp_dir_is_one_line(root, example_src, tmp_path):
    if os.geteuid() == 0:
        target = "/proc/termeval_exp"     # root can write anywhere else
    else:
        ro = tmp_path / "ro"
        ro.mkdir()
        os.chmod(ro, 0o500)
        target = str(ro / "exp")
    ex = f"{example_src}/example"
    subprocess.run(["bash", f"{root}/steps/prepare_gold.sh", "--format", "zr", f"{ex}/zr/example.phn",
                    f"{ex}/zr/example.wrd", "data/g"], cwd=tmp_path, capture_output=True, text=True, check=True)
    r = subprocess.run(["bash", f"{root}/steps/score_tde.sh", "data/g", f"{ex}/classes/example.classes", target],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr.splitlines()[-1] == f"score_tde.sh: error: {target}/log: cannot create or write this directory"


def test_a_failing_job_shows_its_own_error_line(root, example_src, tmp_path):
    ex = f"{example_src}/example"
    subprocess.run(["bash", f"{root}/steps/prepare_gold.sh", "--format", "zr", f"{ex}/zr/example.phn",
                    f"{ex}/zr/example.wrd", "data/g"], cwd=tmp_path, capture_output=True, text=True, check=True)
    r = subprocess.run(["bash", f"{root}/steps/score_tde.sh", "data/g", f"{ex}/classes/example.classes", "exp/x"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # a corrupt data dir is caught once, by the preparation the step runs before its jobs
    with open(tmp_path / "data/g/phones", "a", encoding="utf-8") as f:
        f.write("garbage line\n")
    args = ["bash", f"{root}/steps/score_tde.sh", "--nj", "2", "data/g", f"{ex}/classes/example.classes", "exp/x"]
    r = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 1 and "data/g/phones:" in r.stderr and "got 2 fields" in r.stderr, r.stderr
    assert not (tmp_path / "exp/x/log/zrc2020.1.log").exists()
    # the prepared class arrays the jobs read broken (truncated): the preparation sees it (their
    # digests, issue 40) and saves them again, after a note; the jobs then score as before
    with open(tmp_path / "data/g/phones", "rb+") as f:
        f.truncate(f.seek(0, 2) - len("garbage line\n"))
    good = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True)
    assert good.returncode == 0
    onset = tmp_path / "exp/x/tde/classes/onset.npy"
    onset.write_bytes(onset.read_bytes()[:100])
    r = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "tde/classes: saved arrays fail their check (onset.npy is not what was saved): made again" in r.stderr
    assert r.stdout == good.stdout


def test_a_termeval_package_in_the_current_directory_is_not_run(root, tmp_path):
    # `python -m` puts the current directory first on the module path: a step run from a
    # directory holding another termeval (an older clone, a half-edited copy) must still run
    # its own tree's code
    fake = tmp_path / "termeval"
    (fake / "bin").mkdir(parents=True)
    (fake / "__init__.py").write_text("raise SystemExit('the termeval of the current directory was imported')\n")
    (fake / "bin" / "__init__.py").write_text("")
    r = subprocess.run([os.path.join(root, "utils", "termeval_python.sh"), "-c",
                        "import termeval, os; print(os.path.dirname(termeval.__file__))"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == os.path.join(root, "termeval")
    r = subprocess.run([os.path.join(root, "steps", "score_std.sh"), "--help"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 0 and "current directory" not in r.stdout + r.stderr
