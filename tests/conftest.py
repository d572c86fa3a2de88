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


# what the tests read from ../shared, and where a user gets it (README.md, "Tests")
SHARED_PARTS = ("data/zr17", "data/zr17_tde17", "data/zr15", "reference/f4de")
SHARED_SKIP = ("needs ../shared (real corpora and reference outputs; or $TERMEVAL_SHARED): "
               "local/get_zr17.sh --dir ../shared/data fetches the ZeroSpeech 2017 files, "
               "README.md 'Tests' says where the rest comes from")


def shared_dir() -> str | None:
    """The shared folder when it holds every part the tests read (a partial one: None)."""
    path = os.environ.get("TERMEVAL_SHARED") or os.path.join(os.path.dirname(ROOT), "shared")
    return path if all(os.path.isdir(os.path.join(path, p)) for p in SHARED_PARTS) else None


@pytest.fixture(scope="session")
def root() -> str:
    """The recipe root (where run.sh is); scripts are run from here."""
    return ROOT


@pytest.fixture(scope="session")
def shared() -> str:
    path = shared_dir()
    if path is None:
        pytest.skip(SHARED_SKIP)
    return path


@pytest.fixture(scope="session")
def reference_tde():
    return pytest.importorskip("tde.measures.ned", reason="zerospeech-tde (reference) not installed")


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """One closing line saying how many tests skipped for want of ../shared and how to get it."""
    n = sum(1 for r in terminalreporter.stats.get("skipped", [])
            if isinstance(r.longrepr, tuple) and "../shared" in str(r.longrepr[2]))
    if n:
        terminalreporter.write_line(f"{n} tests skipped, each {SHARED_SKIP}")
