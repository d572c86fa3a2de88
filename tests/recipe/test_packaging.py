"""`pip install /path/to/termeval` gives every subpackage and the runtime dependencies the
recipe pins (pyproject.toml stays in step with requirements.txt)."""
from __future__ import annotations

import os
import re
import tomllib


def test_pyproject_matches_requirements_and_package_tree(root):
    with open(os.path.join(root, "pyproject.toml"), "rb") as f:
        meta = tomllib.load(f)
    deps = {re.split(r"[<>=!~ ]", d)[0].lower() for d in meta["project"]["dependencies"]}
    runtime = set()
    with open(os.path.join(root, "requirements.txt"), encoding="utf-8") as f:
        section = None
        for line in f:
            if line.startswith("# Runtime"):
                section = "runtime"
            elif line.startswith("# Tests"):
                section = "tests"
            elif line.strip() and not line.startswith("#") and section == "runtime":
                runtime.add(line.split("==")[0].strip().lower())
    assert runtime and deps == runtime
    # every package directory is a regular package, so setuptools' find includes it
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, "termeval")):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        if any(n.endswith(".py") for n in filenames):
            assert "__init__.py" in filenames, dirpath
    assert meta["tool"]["setuptools"]["packages"]["find"]["include"] == ["termeval*"]
