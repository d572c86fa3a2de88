"""The bundled example (local/make_example.py, make_example_std.py) built once per session,
laid out as run.sh stages 0-1 lay it out: data/local/example{,_std}/ and data/example/."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.fixture(scope="session")
def example(tmp_path_factory, root) -> str:
    """A directory holding data/local/example, data/local/example_std and data/example."""
    d = tmp_path_factory.mktemp("api_example")
    env = dict(os.environ, PYTHONPATH=root)
    for script, out in (("make_example.py", "data/local/example"), ("make_example_std.py", "data/local/example_std")):
        subprocess.run([sys.executable, os.path.join(root, "local", script), str(d / out)], check=True,
                       stderr=subprocess.DEVNULL, env=env)
    src = d / "data/local/example/zr"
    subprocess.run([sys.executable, "-m", "termeval.bin.prepare_gold", "--format", "zr", str(src / "example.phn"),
                    str(src / "example.wrd"), str(d / "data/example")], check=True, stderr=subprocess.DEVNULL,
                   env=env, cwd=root)
    return str(d)
