"""`pip install /path/to/termeval` gives every subpackage and the runtime dependencies termeval
really imports (`[plots]` adds matplotlib, `[test]` what only the tests use); every one of them
is pinned: the runtime (core and plots) in requirements.txt, which ./run.sh and the steps
install into tools/venv, the test-only rest in requirements-test.txt, which tests/run_tests.sh
adds (issue 40 item 21: the venv of ./run.sh holds no test package)."""
from __future__ import annotations

import ast
import os
import re
import sys
import tomllib

MODULE_TO_DIST = {"yaml": "pyyaml"}        # an import name that is not its distribution's name


def names(reqs: list[str]) -> set[str]:
    return {re.split(r"[<>=!~ \[]", d)[0].lower() for d in reqs}


def imported_libraries(root: str) -> set[str]:
    """Distributions of every third-party module termeval/ imports (in functions too)."""
    out = set()
    for dirpath, _, filenames in os.walk(os.path.join(root, "termeval")):
        for fn in filenames:
            if not fn.endswith(".py"):
                continue
            with open(os.path.join(dirpath, fn), encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    mods = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and not node.level:
                    mods = [node.module]
                else:
                    continue
                for m in mods:
                    top = m.split(".")[0]
                    if top != "termeval" and top not in sys.stdlib_module_names and top != "__future__":
                        out.add(MODULE_TO_DIST.get(top, top))
    return out


def test_pyproject_matches_requirements_and_package_tree(root):
    with open(os.path.join(root, "pyproject.toml"), "rb") as f:
        meta = tomllib.load(f)
    core = names(meta["project"]["dependencies"])
    extras = {k: names(v) for k, v in meta["project"]["optional-dependencies"].items()}
    assert extras["plots"] == {"matplotlib"}
    assert core | extras["plots"] == imported_libraries(root)     # the core is what runs, no more
    assert {"pytest", "hypothesis", "matplotlib", "textgrid", "editdistance"} <= extras["test"]
    def pinned(name: str) -> set[str]:
        with open(os.path.join(root, name), encoding="utf-8") as f:
            return {line.split("==")[0].strip().lower() for line in f if line.strip() and not line.startswith("#")}
    assert core | extras["plots"] == pinned("requirements.txt")            # ./run.sh, the steps
    assert extras["test"] - core - extras["plots"] == pinned("requirements-test.txt")     # the tests
    # every package directory is a regular package, so setuptools' find includes it
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, "termeval")):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        if any(n.endswith(".py") for n in filenames):
            assert "__init__.py" in filenames, dirpath
    assert meta["tool"]["setuptools"]["packages"]["find"]["include"] == ["termeval*"]
    # the files that are not Python and that a page inlines (termeval/report/page.py asset)
    data = meta["tool"]["setuptools"]["package-data"]
    assert data == {"termeval.report": ["report.css", "report.js"]}
    assert all(os.path.isfile(os.path.join(root, "termeval", "report", f)) for f in data["termeval.report"])


def test_building_writes_nothing_into_the_source_tree(root, tmp_path):
    """issue 31: `pip install /opt/termeval` from a read-only clone failed creating
    termeval.egg-info there. Building the wheel (what pip install does) must leave the tree as
    it was: no egg-info, no build/ (setup.py sends setuptools' scratch files to a temp dir).
    Root ignores permissions, so the check is "nothing written", not the permission error."""
    import shutil
    import stat
    import subprocess
    import sys
    import zipfile
    import pytest
    src = tmp_path / "termeval-src"
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(os.path.join(root, name), src / name)
    shutil.copytree(os.path.join(root, "termeval"), src / "termeval",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))

    def listing():
        return sorted((os.path.relpath(os.path.join(d, f), src), os.stat(os.path.join(d, f)).st_mtime_ns)
                      for d, dirs, files in os.walk(src) for f in files + dirs)
    before = listing()
    for d, dirs, files in os.walk(src):
        for f in files + dirs + ["."]:
            p = os.path.join(d, f)
            os.chmod(p, os.stat(p).st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    out = tmp_path / "wheels"
    env = dict(os.environ, PIP_NO_CACHE_DIR="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    try:
        r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(out), str(src)],
                           capture_output=True, text=True, timeout=600, env=env, cwd=str(tmp_path))
    finally:
        for d, dirs, files in os.walk(src):
            os.chmod(d, 0o755)
    if r.returncode != 0 and ("No matching distribution" in r.stdout + r.stderr
                              or "Could not find a version" in r.stdout + r.stderr):
        pytest.skip("setuptools/wheel for the isolated build are not available offline")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert listing() == before
    [whl] = list(out.glob("termeval-*.whl"))
    names = zipfile.ZipFile(whl).namelist()
    assert "termeval/command.py" in names and any(n.endswith("entry_points.txt") for n in names)
