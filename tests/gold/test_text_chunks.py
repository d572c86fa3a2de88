"""textio.iter_byte_chunks / read_table read a file piece by piece (never whole): same table for
any piece size, and the checks of read_bytes name the right line in any piece (issue 24)."""
from __future__ import annotations

import pytest

from termeval.core import textio
from termeval.core.errors import InputError


def table(path):
    t = textio.read_table(str(path), (4,), "4 fields", {1: "onset", 2: "offset"}, (0, 3))
    return (t.line.tolist(), t.floats(1).tolist(), t.floats(2).tolist(), t.codes(0)[0], t.codes(0)[1].tolist(),
            t.codes(3)[0], t.codes(3)[1].tolist())


def test_same_table_for_any_piece_size(tmp_path, monkeypatch):
    p = tmp_path / "phones"
    p.write_bytes(b"\xef\xbb\xbf" + b"".join(f"f{i % 3} {i / 10} {i / 10 + 0.05} p{i % 7}\n".encode()
                                             for i in range(500)) + b"\nf9 1 2 \xc3\xa9")
    whole = table(p)
    assert whole[0][-1] == 502 and whole[3] == ["f0", "f1", "f2", "f9"] and whole[5][-1] == "é"
    for size in (1, 7, 64, 1000):
        monkeypatch.setattr(textio, "CHUNK_BYTES", size)
        assert table(p) == whole
        assert b"".join(x for x, _ in textio.iter_byte_chunks(str(p))) == p.read_bytes()[3:]


@pytest.mark.parametrize("bad, line, msg", [(b"f1 0 1 \xe9\n", 41, "not valid UTF-8"),
                                            (b"f1 0 1 a\0\n", 41, "NUL byte")])
def test_checks_name_the_line_in_a_later_piece(tmp_path, monkeypatch, bad, line, msg):
    p = tmp_path / "phones"
    p.write_bytes(b"f1 0 1 a\n" * 40 + bad + b"f1 0 1 a\n")
    monkeypatch.setattr(textio, "CHUNK_BYTES", 16)
    with pytest.raises(InputError, match=msg) as e:
        table(p)
    assert f":{line}:" in str(e.value) or e.value.line == line


def test_utf16_is_refused_at_line_1(tmp_path):
    p = tmp_path / "phones"
    p.write_bytes("f1 0 1 a\n".encode("utf-16"))
    with pytest.raises(InputError, match="UTF-16"):
        table(p)
