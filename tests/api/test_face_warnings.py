"""The same warnings from every face for the same input (issue 42): the shell step, `termeval
<step>`, `python -m termeval.bin.<step>` and the Python API each print every warning once,
headed by their own name (`termeval score-tde:`, `score_tde.py:` for the entry point and the
shell step that runs it, `score_tde:` for the API), whether one process scores or jobs and a
merge do; the driver prints them (the
Report's warnings, termeval/run/driver.py), and scores.json keeps them. A test per step that
can warn on the bundled example."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

import termeval

WARNING = re.compile(r"^(\S.*?): warning: (.*)$")


def ex(example: str, rel: str) -> str:
    return os.path.join(example, rel)


def inputs_of(example: str, tmp_path, step: str) -> list[str]:
    """The step's positional inputs: in the example, or written into tmp_path by the test."""
    return [str(tmp_path / p) if (tmp_path / p).exists() else ex(example, p) for p in CASES[step][2]]


# step -> (command-line options, API keyword options, positional inputs (relative to the example),
#          what every face must say, at least)
CASES = {
    "score_tde": (["--benchmark", "zr2017"], {"benchmark": "zr2017"},
                  ["data/example", "data/local/example/classes/example.classes"],
                  ["--folds auto: no fold files in", "has SIL lines; the zr2017 definitions expect pauses as gaps"]),
    "score_segmentation": (["--tolerance", "0.15"], {"tolerance": 0.15},
                           ["data/example", "data/local/example/classes/example.classes"],
                           ["--tolerance 0.15 s is larger than boundary tolerances usually are"]),
    "score_std": (["--tolerance", "20", "--plots", "false"], {"tolerance": 20.0, "plots": False},
                  ["data/local/example_std/kws", "data/local/example_std/detections.stdlist.xml"],
                  ["--tolerance 20 s is implausible"]),
    "score_quesst": ([], {}, ["data/local/example_std/kws", "data/local/example_std/detections.stdlist.xml"],
                     ["Removing unseen models"]),
    # units of all files but the first (units_partial); --compat fairseq skips it (discophon refuses)
    "score_units": (["--compat", "fairseq"], {"compat": "fairseq"}, ["data/example", "units.partial.txt"],
                    ["gold files have no units in", "skipped, as fairseq's script does"]),
}


@pytest.fixture
def units_partial(example, tmp_path):
    """The example's units without the first file's line, in tmp_path (score_units warns)."""
    lines = open(ex(example, "data/local/example_units/units.txt"), encoding="utf-8").readlines()
    (tmp_path / "units.partial.txt").write_text("".join(lines[1:]))


def said(text: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in map(WARNING.match, text.splitlines()) if m]


def faces(root: str, example: str, tmp_path, step: str, nj: int) -> dict[str, list[tuple[str, str]]]:
    cli = CASES[step][0]
    paths = inputs_of(example, tmp_path, step)
    env = dict(os.environ, PYTHONPATH=root)
    jobs = ["--nj", str(nj)] if nj > 1 else []
    out: dict[str, list[tuple[str, str]]] = {}
    for face, argv in (
            ("shell", [os.path.join(root, "steps", f"{step}.sh"), *jobs, *cli, *paths, str(tmp_path / "sh")]),
            ("command", [sys.executable, "-m", "termeval", step.replace("_", "-"), *jobs, *cli, *paths,
                         str(tmp_path / "cmd")]),
            ("python -m", [sys.executable, "-m", f"termeval.bin.{step}", *jobs, *cli, *paths, str(tmp_path / "py")])):
        r = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=str(tmp_path))
        assert r.returncode == 0, (face, r.stderr)
        out[face] = said(r.stderr)
    return out


@pytest.mark.parametrize("step", sorted(CASES))
def test_every_face_prints_the_same_warnings_once(step, example, root, tmp_path, capsys, units_partial):
    expected = CASES[step][3]
    got = faces(root, example, tmp_path, step, nj=1)
    capsys.readouterr()
    getattr(termeval, step)(*inputs_of(example, tmp_path, step), exp_dir=tmp_path / "api", **CASES[step][1])
    got["api"] = said(capsys.readouterr().err)
    # a shell step's lines are those of the Python entry point it runs (one process, or the merge)
    heads = {"shell": f"{step}.py", "command": f"termeval {step.replace('_', '-')}", "python -m": f"{step}.py",
             "api": step}
    for face, lines in got.items():
        assert {h for h, _ in lines} <= {heads[face]}, (face, lines)
        messages = [m for _, m in lines]
        assert len(messages) == len(set(messages)), (face, "a warning said twice", messages)
        assert all(any(e in m for m in messages) for e in expected), (face, messages)
    assert len({tuple(sorted(m for _, m in lines)) for lines in got.values()}) == 1, got


@pytest.mark.parametrize("step", ["score_tde", "score_quesst"])
def test_jobs_and_a_merge_say_them_as_one_process(step, example, root, tmp_path):
    """With --nj 2 the merge's warnings are shown by the step, headed by its face's name."""
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one = faces(root, example, tmp_path / "one", step, nj=1)
    two = faces(root, example, tmp_path / "two", step, nj=2)
    for face in one:
        assert sorted(one[face]) == sorted(two[face]), face


def test_a_one_shot_step_too(example, root, tmp_path, capsys):
    """prepare_kws: a keyword that never occurs is one warning, the same on every face."""
    word = open(ex(example, "data/example/words"), encoding="utf-8").readline().split()[3]
    kw = tmp_path / "keywords.txt"
    kw.write_text(f"KW-1 {word}\nKW-2 zzzneverspoken\n")
    data = ex(example, "data/example")
    env = dict(os.environ, PYTHONPATH=root)
    got = {}
    for face, argv in (
            # a one-shot shell step runs its Python entry point as it is: its lines are that one's
            ("prepare_kws.py", [os.path.join(root, "steps", "prepare_kws.sh"), "--keywords", str(kw), data, "k1"]),
            ("termeval prepare-kws", [sys.executable, "-m", "termeval", "prepare-kws", "--keywords", str(kw), data,
                                      "k2"]),
            ("prepare_kws.py", [sys.executable, "-m", "termeval.bin.prepare_kws", "--keywords", str(kw), data, "k3"])):
        r = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=str(tmp_path))
        assert r.returncode == 0, r.stderr
        got[face] = said(r.stderr)
    capsys.readouterr()
    termeval.prepare_kws(data, tmp_path / "k4", keywords=str(kw))
    got["prepare_kws"] = said(capsys.readouterr().err)
    for face, lines in got.items():
        assert [h for h, _ in lines] == [face], (face, lines)
        assert "zzzneverspoken" not in lines[0][1] and "KW-2" in lines[0][1]
    assert len({m for lines in got.values() for _, m in lines}) == 1
