"""The user's store of parsed gold arrays (termeval/tde/zrc2020/goldcache.py): a new exp dir on a
gold parsed before reads the arrays (and gets its own tde/gold.npz); an altered entry or an
edited data dir is parsed afresh; the scores are the same every time."""
from __future__ import annotations

import os

import pytest

from termeval.core import usercache
from termeval.tde.zrc2020 import goldcache, stage as zstage
from test_stage import micro, parses, score  # noqa: F401  (fixtures)


def _fresh():
    goldcache._memo.clear()
    zstage._corpus_memo.clear()


@pytest.fixture()
def store(tmp_path, monkeypatch):
    monkeypatch.setenv(usercache.ENV, str(tmp_path / "store"))
    return tmp_path / "store" / goldcache.STORE


def test_a_new_exp_dir_reads_the_store(micro, parses, store):
    first = score(micro / "data", micro / "x.class", micro / "exp1")
    assert len(parses) == 1 and len(os.listdir(store)) == 1
    _fresh()
    again = score(micro / "data", micro / "x.class", micro / "exp2")
    assert len(parses) == 1 and (micro / "exp2" / "tde" / "gold.npz").is_file()
    assert again["ned"] == first["ned"] and again["counts"] == first["counts"]
    # an altered entry is not trusted: parsed again (and the entry rewritten)
    entry = store / os.listdir(store)[0]
    entry.write_bytes(entry.read_bytes()[:100])
    _fresh()
    assert score(micro / "data", micro / "x.class", micro / "exp3")["ned"] == first["ned"]
    assert len(parses) == 2
    # an edited data dir: another key, parsed
    phones = micro / "data" / "phones"
    phones.write_text(phones.read_text().replace("A 0.1 0.2 b", "A 0.1 0.2 c", 1))
    _fresh()
    score(micro / "data", micro / "x.class", micro / "exp4")
    assert len(parses) == 3 and len(os.listdir(store)) == 2


def test_no_store(micro, parses, monkeypatch, tmp_path):
    monkeypatch.setenv(usercache.ENV, "none")
    score(micro / "data", micro / "x.class", micro / "exp1")
    _fresh()
    score(micro / "data", micro / "x.class", micro / "exp2")
    assert len(parses) == 2
