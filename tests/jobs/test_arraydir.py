"""termeval.core.arraydir: the keyed, atomic array directories the steps save for their jobs."""
import os

import numpy as np
import pytest

from termeval.core import arraydir


def test_saved_whole_and_keyed(tmp_path):
    path = str(tmp_path / "tde" / "cache")
    arraydir.save(path, {"a": np.arange(3), "b": np.array(["x", "yz"])}, "k1", {"meta.json": "{}"})
    assert arraydir.key_matches(path, "k1") and not arraydir.key_matches(path, "k2")
    assert np.load(os.path.join(path, "a.npy")).tolist() == [0, 1, 2]
    assert open(os.path.join(path, "meta.json")).read() == "{}"
    # saved again: replaced whole (no file of the old one left), nothing beside it but the dir
    arraydir.save(path, {"c": np.zeros(2)}, "k2")
    assert sorted(os.listdir(path)) == ["c.npy", "key", "manifest"] and arraydir.key_matches(path, "k2")
    assert os.listdir(tmp_path / "tde") == ["cache"]


def test_a_failed_save_leaves_the_old_directory(tmp_path, monkeypatch):
    path = str(tmp_path / "cache")
    arraydir.save(path, {"a": np.arange(3)}, "old")

    def boom(*a, **k):
        raise OSError("disk full")
    monkeypatch.setattr(np, "save", boom)
    with pytest.raises(OSError):
        arraydir.save(path, {"a": np.arange(5)}, "new")
    assert arraydir.key_matches(path, "old") and os.listdir(tmp_path) == ["cache"]
    assert not arraydir.key_matches(str(tmp_path / "missing"), "old")
