"""textio.read_table parses chunks on their bytes (termeval.core.textfast) when it can: the table
must equal the str.split path's value for value (doubles bit for bit, codes in first-seen
order) and every bad input must give the same error text and line (issue 24)."""
from __future__ import annotations

import math
import struct

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termeval.core import textfast, textio
from termeval.core.errors import InputError

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def tokens_of(text: str):
    """(bytes, starts, ends) of the whitespace-separated tokens of `text`."""
    raw = text.encode("utf-8")
    b = np.frombuffer(raw, dtype=np.uint8)
    s, e = textfast.token_bounds(b)
    return raw, b, s, e


def bits(x: float) -> bytes:
    return struct.pack("<d", x)


def decimal_text():
    digits = st.text("0123456789", max_size=22)
    exponent = st.one_of(st.just(""), st.builds(lambda e, s, d: e + s + d, st.sampled_from("eE"),
                                                st.sampled_from(["", "+", "-"]), st.text("0123456789", max_size=4)))
    return st.builds(lambda sign, a, point, b, exp: sign + a + point + b + exp, st.sampled_from(["", "-", "+"]),
                     digits, st.sampled_from(["", "."]), digits, exponent)


def double_text():
    fmt = st.sampled_from(["repr", ".1f", ".3f", ".4f", ".6f", ".10f", ".17f", ".20f", ".15g", ".17g", ".3e"])
    return st.builds(lambda x, f: repr(x) if f == "repr" else format(x, f),
                     st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6), fmt)


@SETTINGS
@given(st.lists(st.one_of(decimal_text(), double_text()), min_size=1, max_size=40))
def test_floats_are_float_of_the_token_bit_for_bit(texts):
    texts = [t for t in texts if t] or ["0"]
    raw, b, s, e = tokens_of(" ".join(texts) + "\n")
    got = textfast.parse_floats(b, s, e)
    expected = []
    for t in texts:
        try:
            v = float(t)
        except ValueError:
            v = None
        expected.append(v if v is not None and math.isfinite(v) else None)
    if None in expected:
        assert got is None            # the chunk then goes the str.split way (its message)
    else:
        assert got is not None and [bits(x) for x in got.tolist()] == [bits(x) for x in expected]


def test_float_corner_cases():
    texts = ["-0", "-0.000", "+0", "0.0125", "9007199254740993", "9007199254740992", "123456789012345678",
             "1234567890123456789", "0.30000000000000004", "00000000000000000001.5", "5.", ".5", "-.5",
             "1e5", "1E-3", "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308"]
    raw, b, s, e = tokens_of(" ".join(texts))
    got = textfast.parse_floats(b, s, e)
    assert [bits(x) for x in got.tolist()] == [bits(float(t)) for t in texts]
    for bad in ["-", ".", "+", "1.2.3", "1e", "e5", "--1", "1-2", "inf", "nan", "1e999", "0x10", "1_0", "١"]:
        assert textfast.parse_floats(*tokens_of(f"1.5 {bad} 2")[1:]) is None, bad


def test_factorise_first_seen_order_runs_and_long_tokens(monkeypatch):
    words = ["s0101a", "s0101a", "é", "consolation", "a" * 17, "é", "zz", "a" * 16 + "b", "s0101a"]
    raw, b, s, e = tokens_of(" ".join(words))
    table = {"zz": 0}
    codes = textfast.Factoriser(table)(raw, b, s, e)
    assert list(table) == ["zz", "s0101a", "é", "consolation", "a" * 17, "a" * 16 + "b"]
    assert [list(table)[c] for c in codes.tolist()] == words
    assert textfast.Factoriser({})(*tokens_of("a" * 65)) is None
    monkeypatch.setattr(textfast, "_DECODE_EACH", 0)     # keys, a sorted array of known texts
    table2 = {"zz": 0}
    factorise = textfast.Factoriser(table2)
    assert factorise(raw, b, s, e).tolist() == codes.tolist() and table2 == table
    more = words[::-1] + ["new", "a" * 24 + "c", "é"]    # the same texts again (known), and new ones
    got = factorise(*tokens_of(" ".join(more)))
    assert list(table2) == list(table) + ["new", "a" * 24 + "c"] and [list(table2)[c] for c in got.tolist()] == more


def test_factorise_key_clash_goes_the_slow_way(monkeypatch):
    monkeypatch.setattr(textfast, "_DECODE_EACH", 0)
    monkeypatch.setattr(textfast, "_MIXERS", [np.uint64(0)] * 8)  # keys = first 8 bytes only
    factorise = textfast.Factoriser({})
    assert factorise(*tokens_of("abcdefgh1 abcdefgh2")) is None             # clash in a chunk
    assert factorise(*tokens_of("abcdefgh1 x")).tolist() == [0, 1]
    assert factorise(*tokens_of("abcdefgh2")) is None                        # clash with a known text


def test_plain_chunk_is_false_exactly_where_str_split_cuts_more():
    for c in [*range(0x3100), *range(0xFE00, 0x10000), 0x1F600, 0x10FFFF]:
        if 0xD800 <= c < 0xE000:
            continue
        text = f"a{chr(c)}b"
        odd = chr(c).isspace() and not chr(c).encode().isspace()
        assert textfast.plain_chunk(text.encode("utf-8")) is not odd, hex(c)


# ---- whole files: fast path == str.split path ------------------------------------------------

LABELS = st.text(st.characters(blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc")), min_size=1, max_size=12)
ODD = ["\xa0", "\x1c", "\u3000", "\u2028", "\x85"]        # str.split cuts there, bytes.split does not


def field():
    return st.one_of(double_text(), decimal_text().filter(bool), LABELS,
                     st.sampled_from(["inf", "nan", "-", "1e", "1e999", "0x1"]))


def line():
    good = st.builds(lambda f, a, b, l: [f, a, b, l], st.sampled_from(["s01", "s02", "é_3", "a" * 20]),
                     double_text(), double_text(), LABELS)
    return st.one_of(good, good, good, st.lists(field(), min_size=0, max_size=6))


def render(lines, seps, odd, crlf):
    out = []
    for i, fields in enumerate(lines):
        sep = seps[i % len(seps)]
        text = sep.join(fields)
        if odd is not None and i == len(lines) // 2:
            text = text.replace(sep, odd + sep, 1) if fields else odd
        out.append(text + ("\r\n" if crlf else "\n"))
    return "".join(out)


def read(path, allowed, floats, strings, fast):
    textio.FAST_COLUMNS = fast
    try:
        t = textio.read_table(str(path), allowed, "the fields", floats, strings, allow_empty=True)
    except InputError as e:
        return ("error", str(e))
    finally:
        textio.FAST_COLUMNS = True
    return (t.line.tolist(), t.nfields.tolist(), t.line.dtype, t.nfields.dtype,
            {k: (v.dtype, v.tobytes()) for k, v in t.floats_.items()},
            {k: (tab, c.dtype, c.tolist()) for k, (tab, c) in t.codes_.items()})


@SETTINGS
@given(st.lists(line(), min_size=0, max_size=30), st.lists(st.sampled_from([" ", "\t", "  ", " \t "]), min_size=1,
       max_size=3), st.one_of(st.none(), st.sampled_from(ODD)), st.booleans(), st.sampled_from([7, 64, 1 << 22]),
       st.sampled_from([((4,), {1: "onset", 2: "offset"}, (0, 3)), ((3, 4), {1: "onset", 2: "offset"}, (0, 3)),
                        ((5, 6), {2: "start time", 3: "duration", 5: "confidence"}, (0, 1, 4)),
                        ((2,), {}, (0, 1))]))
def test_fast_path_equals_str_split_path(tmp_path, monkeypatch, lines, seps, odd, crlf, chunk, layout):
    path = tmp_path / "cols"
    path.write_bytes(render(lines, seps, odd, crlf).encode("utf-8"))
    monkeypatch.setattr(textio, "CHUNK_BYTES", chunk)
    allowed, floats, strings = layout
    assert read(path, allowed, floats, strings, True) == read(path, allowed, floats, strings, False)


def test_a_good_file_takes_the_fast_path(tmp_path, monkeypatch):
    path = tmp_path / "phones"
    path.write_text("".join(f"s{i // 50:02d} {i / 40} {i / 40 + 0.025} ph{i % 9}é\n" for i in range(2000)),
                    encoding="utf-8")
    calls = []
    monkeypatch.setattr(textio, "_chunk_columns", lambda *a: calls.append(a) or {})
    monkeypatch.setattr(textio, "CHUNK_BYTES", 4096)
    t = textio.read_table(str(path), (4,), "4 fields", {1: "onset", 2: "offset"}, (0, 3))
    assert not calls and len(t) == 2000 and t.floats(2)[-1] == 1999 / 40 + 0.025
    assert t.codes(0)[0] == [f"s{i:02d}" for i in range(40)] and t.codes(3)[0][:2] == ["ph0é", "ph1é"]


@pytest.mark.parametrize("bad, msg", [("s01 1e 1.0 a", "onset '1e' is not a number"),
                                      ("s01 0.5 1e999 a", "offset '1e999' is not a finite number"),
                                      ("s01 0.5 nan a", "offset 'nan' is not a finite number"),
                                      ("s01 0.5 a", "expected 4 fields, got 3 fields")])
def test_errors_name_the_line_as_before(tmp_path, bad, msg):
    path = tmp_path / "phones"
    path.write_text("s01 0 0.5 a\n" * 3 + bad + "\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        textio.read_table(str(path), (4,), "4 fields", {1: "onset", 2: "offset"}, (0, 3))
    assert e.value.line == 4 and msg in str(e.value)
