"""classes.parse_class_file / write_class_dir on a plain class file go through numpy
(termeval/classes/fast.py, termeval/core/textwrite.py): the result and the class dir must be the
line-by-line reader's and writer's, value for value and byte for byte, and every other file
(errors, lenient drops) must still get that reader's message or counts (issue 24)."""
from __future__ import annotations

import filecmp
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termeval.classes import parse as classes
from termeval.core import textio, textwrite
from termeval.core.errors import InputError

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
DUR = {"f1": 10.0, "f2": 20.5, "é3": 3.0}


def times():
    return st.one_of(st.floats(0, 25, allow_nan=False).map(repr), st.floats(0, 25).map(lambda x: f"{x:.3f}"),
                     st.sampled_from(["0", "-0", "1e-3", "2.5E1", "nan", "inf", "-1", "x", "20.505", "3.004"]))


def fragment():
    return st.builds(lambda f, a, b: f"{f} {a} {b}", st.sampled_from(["f1", "f2", "é3", "zz"]), times(), times())


def good_fragment():
    return st.builds(lambda f, a, d: f"{f} {a:.4f} {a + d:.4f}", st.sampled_from(["f1", "f2", "é3"]),
                     st.floats(0, 2.9), st.floats(0.001, 0.1))


def header():
    return st.builds(lambda w, i, c, t: f"{w} {i}{c}{t}", st.sampled_from(["Class", "class", "CLASS", "cLaSs"]),
                     st.sampled_from(["1", "01", "2", "3", "a", "10", "1:"]), st.sampled_from(["", ":"]),
                     st.sampled_from(["", " [i,j,E,O]", " x y"]))


def class_file(draw_fragment):
    block = st.builds(lambda h, fr, blanks: "\n".join([h] + fr) + "\n" * blanks, header(),
                      st.lists(draw_fragment, max_size=5), st.integers(1, 3))
    return st.lists(block, min_size=1, max_size=6).map("".join)


def result(path, lenient, fast):
    classes.FAST_CLASSES = fast
    try:
        p = classes.parse_class_file(str(path), DUR, lenient=lenient)
    except InputError as e:
        return ("error", str(e))
    finally:
        classes.FAST_CLASSES = True
    arrays = {k: (getattr(p, k).dtype, getattr(p, k).tobytes()) for k in ("starts", "onset", "offset", "line")}
    return (p.names, p.file, p.fmt, list(p.counts.items()), p.discarded, p.notes, arrays)


def mutate(text, how):
    if how == "crlf":
        return text.replace("\n", "\r\n")
    if how == "tabs":
        return text.replace(" ", "\t")
    if how == "odd space":
        return text.replace(" ", "\u3000", 1)
    if how == "no final newline":
        return text.rstrip("\n")
    if how == "leading blank":
        return "\n  \n" + text
    if how == "fragment first":
        return "f1 0 1\n" + text
    return text


@SETTINGS
@given(st.one_of(class_file(good_fragment()), class_file(st.one_of(good_fragment(), fragment()))),
       st.sampled_from(["", "crlf", "tabs", "odd space", "no final newline", "leading blank", "fragment first"]),
       st.booleans(), st.sampled_from([16, 1 << 22]))
def test_fast_reader_equals_line_reader(tmp_path, monkeypatch, text, how, lenient, chunk):
    path = tmp_path / "words.class"
    path.write_bytes(mutate(text, how).encode("utf-8"))
    monkeypatch.setattr(textio, "CHUNK_BYTES", chunk)
    assert result(path, lenient, True) == result(path, lenient, False)


def test_plain_file_takes_the_fast_path_and_writes_the_same_dir(tmp_path, monkeypatch):
    rng = np.random.default_rng(3)
    lines = []
    for c in range(300):
        lines.append(f"Class {c} [x]")
        for _ in range(int(rng.integers(1, 6))):
            f = ["f1", "f2", "é3"][int(rng.integers(3))]
            on = float(rng.random() * 2)
            lines.append(f"{f} {on:.4f} {on + 0.001 + float(rng.random()):.{int(rng.integers(4, 13))}f}")
        lines.append("")
    lines += ["Class 300", "f1 9.995 10.005", ""]        # clipped to the file's end
    path = tmp_path / "words.class"
    path.write_text("\n".join(lines), encoding="utf-8")
    seen = []
    monkeypatch.setattr(classes, "class_file_tokens", lambda p: seen.append(p) or iter(()))
    fast = classes.parse_class_file(str(path), DUR)
    assert not seen and fast.counts["fragments_clipped_to_end"] == 1 and fast.offset[-1] == 10.0
    monkeypatch.undo()
    assert result(path, False, True) == result(path, False, False)
    classes.write_class_dir(fast, str(tmp_path / "fast"))
    classes.FAST_CLASSES = False
    try:
        classes.write_class_dir(fast, str(tmp_path / "slow"))
    finally:
        classes.FAST_CLASSES = True
    names = sorted(os.listdir(tmp_path / "slow"))
    assert names == sorted(os.listdir(tmp_path / "fast")) and "segments" in names
    for n in names:
        assert filecmp.cmp(tmp_path / "fast" / n, tmp_path / "slow" / n, shallow=False), n


@pytest.mark.parametrize("text, msg", [("Class 1\nf1 0 1\n\nClass 01\nf2 0 1\n", "duplicate class id '01'"),
                                       ("Class 1\nf1 0 1\n\nf2 0 1\n", "fragment line outside a class"),
                                       ("Class 1\nf1 0 1 2\n", "got 4 fields"),
                                       ("Class 1\nzz 0 1\n", "unknown file ids"),
                                       ("Class 1\nf1 1 0.5\n", "onset >= offset"),
                                       ("Class 1\nf1 0 11\n", "ends after the end of file f1"),
                                       ("Class\nf1 0 1\n", "class header without an id"),
                                       ("Class 1\nf1 0 1e\n", "offset '1e' is not a number")])
def test_errors_are_the_line_readers(tmp_path, text, msg):
    path = tmp_path / "words.class"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=msg) as e:
        classes.parse_class_file(str(path), DUR)
    assert result(path, False, False) == ("error", str(e.value))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                          st.floats(0, 1e5).map(lambda x: round(x, 4)),
                          st.decimals(0, 100000, places=6).map(float)), min_size=1, max_size=50))
def test_time_text_is_fast_fmt_times(values):
    x = np.array(values, dtype=np.float64)
    field = textwrite.time_field(x, textio.fast_fmt_times)
    got = textwrite.join_lines([field, textwrite.literal("\n", len(x))]).decode().split("\n")[:-1]
    assert got == textio.fast_fmt_times(x)


def test_int_and_table_fields():
    ints = textwrite.int_field(np.array([0, 5, 1234567, 12345678, 10 ** 15]), 7)
    names = textwrite.table_field(["a", "ééé", ""], np.array([1, 0, 2, 1, 1]))
    text = textwrite.join_lines([ints, textwrite.literal(" ", 5), names, textwrite.literal("|", 5)])
    assert text.decode() == ("0000000 ééé|0000005 a|1234567 |12345678 ééé|1000000000000000 ééé|")


def zr2015_result(path, fast):
    from termeval.classes import fast as classfast
    from termeval.tde.zr2015.classfile import read_classfile
    classfast.FAST = fast
    try:
        r = read_classfile(str(path), {"f1": 0, "f2": 1, "é3": 2})
    except InputError as e:
        return ("error", str(e))
    finally:
        classfast.FAST = True
    return (r.names, r.unknown_files, list(r.counts.items()),
            {k: (getattr(r, k).dtype, getattr(r, k).tobytes()) for k in ("cls", "file", "onset", "offset")})


def zr2015_file():
    head = st.builds(lambda w, i, t: f"{w} {i}{t}", st.sampled_from(["Class", "class"]),
                     st.sampled_from(["1", "01", "2", "3", "a", "10", "007"]),
                     st.sampled_from(["", " [i,j]", " x  y ", ":"]))
    frag = st.one_of(good_fragment(), good_fragment(), fragment(),
                     st.sampled_from(["f1 1 1", "f1 -0 0.5", "f2 0 1 extra", "f2 0", "zz 0.5 0.7"]))
    block = st.builds(lambda h, fr, blanks: "\n".join([h] + fr) + "\n" * blanks, head,
                      st.lists(frag, max_size=4), st.sampled_from([0, 1, 1, 2]))
    return st.lists(block, min_size=1, max_size=6).map("".join)


@SETTINGS
@given(zr2015_file(), st.sampled_from(["", "crlf", "tabs", "odd space", "no final newline", "leading blank",
                                       "fragment first"]), st.sampled_from([16, 1 << 22]))
def test_zr2015_fast_reader_equals_line_reader(tmp_path, monkeypatch, text, how, chunk):
    path = tmp_path / "words.class"
    path.write_bytes(mutate(text, how).encode("utf-8"))
    monkeypatch.setattr(textio, "CHUNK_BYTES", chunk)
    assert zr2015_result(path, True) == zr2015_result(path, False)


def test_zr2015_plain_file_is_read_fast(tmp_path):
    from termeval.classes import fast as classfast
    path = tmp_path / "words.class"
    path.write_text("Class 007 [x]\nf1 -0 0.5\nzz 1 1\n\n\nClass 2\né3 0.1 0.3\n", encoding="utf-8")
    r = classfast.read_zr2015_plain(str(path), {"f1": 0, "f2": 1, "é3": 2})
    assert r is not None and r.names == ["7 [x]", "2"] and r.file.tolist() == [0, -1, 2]
    assert np.signbit(r.onset[0]) and r.unknown_files == ["zz"] and r.counts["unknown_file_fragments"] == 1
    assert zr2015_result(path, True) == zr2015_result(path, False)
