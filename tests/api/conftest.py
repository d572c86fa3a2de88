"""The bundled example (local/make_example.py, make_example_std.py) built once per session,
laid out as run.sh stages 0-1 lay it out: data/local/example{,_std}/ and data/example/."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.fixture(scope="session")
def example(tmp_path_factory, root) -> str:
    """A directory holding data/local/example, data/local/example_std, data/example and
    data/local/example_units."""
    d = tmp_path_factory.mktemp("api_example")
    env = dict(os.environ, PYTHONPATH=root)
    for script, out in (("make_example.py", "data/local/example"), ("make_example_std.py", "data/local/example_std")):
        subprocess.run([sys.executable, os.path.join(root, "local", script), str(d / out)], check=True,
                       stderr=subprocess.DEVNULL, env=env)
    src = d / "data/local/example/zr"
    subprocess.run([sys.executable, "-m", "termeval.bin.prepare_gold", "--format", "zr", str(src / "example.phn"),
                    str(src / "example.wrd"), str(d / "data/example")], check=True, stderr=subprocess.DEVNULL,
                   env=env, cwd=root)
    subprocess.run([sys.executable, os.path.join(root, "local", "make_example_units.py"), str(d / "data/example"),
                    str(d / "data/local/example_units")], check=True, stderr=subprocess.DEVNULL, env=env)
    return str(d)


@pytest.fixture
def two_systems(example, tmp_path):
    """Two systems scored with zrc2020 into tmp_path/a (all classes) and tmp_path/b (half)."""
    import termeval
    ex = os.path.join(example, "data/local/example")
    gold = os.path.join(example, "data/example")
    termeval.score_tde(gold, f"{ex}/classes/example.classes", exp_dir=tmp_path / "a")
    blocks = open(f"{ex}/classes/example.classes").read().strip().split("\n\n")
    (tmp_path / "half.class").write_text("\n\n".join(blocks[: len(blocks) // 2]) + "\n")
    termeval.score_tde(gold, tmp_path / "half.class", exp_dir=tmp_path / "b")
    return tmp_path / "a", tmp_path / "b"
