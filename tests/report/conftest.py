"""Every kind of report.html on the bundled example (local/report_gallery.py), built once per
session with --textgrids true: the exp dirs tests/report/ renders and reads back."""
from __future__ import annotations

import importlib.util
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def local_module(name: str):
    """local/<name>.py as a module (the recipe's scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(f"local_{name}", os.path.join(ROOT, "local", f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def gallery(tmp_path_factory) -> str:
    work = str(tmp_path_factory.mktemp("gallery"))
    local_module("report_gallery").score(work, textgrids=True)
    return work
