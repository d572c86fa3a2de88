"""termeval.core.digest (the one content digest) and termeval.core.warn (the one warning line)."""
from __future__ import annotations

from termeval.core.digest import content_digest
from termeval.core.warn import warn


def test_digest_follows_content_not_time(tmp_path):
    f = tmp_path / "a"
    f.write_text("x")
    d1 = content_digest([str(f)], {"k": 1})
    f.write_text("y")
    assert content_digest([str(f)], {"k": 1}) != d1
    f.write_text("x")
    assert content_digest([str(f)], {"k": 1}) == d1 and len(d1) == 32
    assert content_digest([str(f)], {"k": 2}) != d1
    assert content_digest([str(tmp_path / "missing")]) != content_digest([str(tmp_path / "other")])


def test_digest_of_a_directory(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x").write_text("1")
    a = content_digest([str(tmp_path / "d")])
    (tmp_path / "d" / "x").write_text("2")
    assert content_digest([str(tmp_path / "d")]) != a


def test_warn_prints_one_line_and_keeps_it(capsys):
    sink: list[str] = []
    warn("score_std.py", "a keyword never occurs", sink)
    assert capsys.readouterr().err == "score_std.py: warning: a keyword never occurs\n"
    assert sink == ["a keyword never occurs"]
