"""The prepared-gold store of score_zrc_submission (termeval/zrc/gold.py): a second run copies
the prepared data dir from the store; an edited entry or edited gold files are
prepared again; the scores are the same every time."""
from __future__ import annotations

import json
import os

from test_zrc_submission import layout, run_main  # noqa: F401  (layout: the fixture)

from termeval.zrc import gold as zrc_gold


def _entries(store):
    root = store / "zrc-gold"
    return sorted(p.name for p in root.iterdir()) if root.is_dir() else []


def test_store_reused_edited_entry_and_gold_prepared_again(layout, tmp_path, monkeypatch):
    _, ds, sub = layout
    store = tmp_path / "store"
    monkeypatch.setenv(zrc_gold.CACHE_ENV, str(store))
    first, _ = run_main(sub, ds)
    names = _entries(store)
    assert [n.split("-")[0] for n in names] == ["english", "wolof"]
    data = sub / "scores" / "termeval" / "english" / "data"
    prepared = {n: (data / n).read_bytes() for n in os.listdir(data)}
    stamp = {n: os.stat(store / "zrc-gold" / n / "record.json").st_mtime_ns for n in names}
    assert run_main(sub, ds)[0] == first                               # from the store
    assert {n: os.stat(store / "zrc-gold" / n / "record.json").st_mtime_ns for n in names} == stamp
    assert {n: (data / n).read_bytes() for n in os.listdir(data)} == prepared
    # an edited entry is not trusted: prepared again, and the entry rewritten
    entry = store / "zrc-gold" / names[0]
    (entry / "data" / "words").write_text("edited\n")
    assert run_main(sub, ds)[0] == first
    assert {n: (data / n).read_bytes() for n in os.listdir(data)} == prepared
    assert (entry / "data" / "words").read_bytes() == prepared["words"]
    assert json.loads((entry / "record.json").read_text())["source"] == zrc_gold.source_key(
        zrc_gold.locate("english", str(ds)))
    # edited gold files: another key, another entry
    wrd = ds / "english" / "english.wrd"
    wrd.write_text(wrd.read_text() + "\n")
    run_main(sub, ds)
    assert len(_entries(store)) == 3
    # at most MAX_ENTRIES a language
    monkeypatch.setattr(zrc_gold, "MAX_ENTRIES", 1)
    wrd.write_text(wrd.read_text() + "\n")
    run_main(sub, ds)
    assert [n.split("-")[0] for n in _entries(store)] == ["english", "wolof"]


def test_store_off_or_unwritable(layout, tmp_path, monkeypatch):
    _, ds, sub = layout
    monkeypatch.setenv(zrc_gold.CACHE_ENV, "none")
    first, _ = run_main(sub, ds)
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(zrc_gold.CACHE_ENV, str(blocker))              # not a directory: not used
    assert run_main(sub, ds)[0] == first
