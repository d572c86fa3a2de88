"""Shared pytest fixtures.

`shared`: the ../shared folder beside the checkout (real data, specs, reference scores), or
$TERMEVAL_SHARED. Tests that use it are skipped cleanly when it is absent.
`reference_tde`: the reference `tde` package (PyPI zerospeech-tde, a test-only dependency);
skipped when it is not installed.
TERMEVAL_CACHE_DIR is `none` (no user cache) for every test that does not set its own.
"""
from __future__ import annotations

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
# no user cache (termeval.core.usercache) unless a test sets one: every run parses and prepares
# as a first run does, and nothing is written under the user's home
os.environ["TERMEVAL_CACHE_DIR"] = "none"


def shared_dir() -> str | None:
    path = os.environ.get("TERMEVAL_SHARED") or os.path.join(os.path.dirname(ROOT), "shared")
    return path if os.path.isdir(os.path.join(path, "data")) else None


@pytest.fixture(scope="session")
def root() -> str:
    """The recipe root (where run.sh is); scripts are run from here."""
    return ROOT


@pytest.fixture(scope="session")
def shared() -> str:
    path = shared_dir()
    if path is None:
        pytest.skip("../shared (real data and references) is not available")
    return path


@pytest.fixture(scope="session")
def reference_tde():
    return pytest.importorskip("tde.measures.ned", reason="zerospeech-tde (reference) not installed")
