"""--breakdown phones --lexicon lexicon.txt: keyword length in phones (first pronunciation),
terms with a word missing from the lexicon in their own group."""
from __future__ import annotations

import os

import pytest

from termeval.bin import prepare_kws, score_std
from termeval.core.errors import InputError
from termeval.std import breakdown


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def test_phone_labels():
    lex = {"white": ["w", "ai", "t"], "horse": ["h", "o", "r", "s"], "cat": ["k", "a", "t"]}
    assert breakdown.labels("phones", ["white horse", "cat", "zebra", "cat white"], [], None, [1], lex) == \
        ["7", "3", "oov", "6"]
    assert breakdown.groups("phones", ["7", "3", "oov", "10"], [1])[0][0] == "3"
    assert [g for g, _ in breakdown.groups("phones", ["7", "3", "oov", "10"], [1])] == ["3", "7", "10", "oov"]
    with pytest.raises(InputError, match="needs --lexicon"):
        breakdown.parse_kinds("phones", False)


def test_phones_breakdown_end_to_end(tmp_path):
    d = tmp_path / "data"
    _write(str(d / "words"), "a 0.5 0.8 white\na 0.9 1.2 horse\na 2.0 2.3 cat\na 3.0 3.3 horse\n")
    _write(str(d / "reco2dur"), "a 5\n")
    _write(str(tmp_path / "kw.txt"), "K1 white horse\nK2 horse\nK3 cat\n")
    kws = str(tmp_path / "kws")
    prepare_kws.main(["--keywords", str(tmp_path / "kw.txt"), "--ecf-source-type", "cts", str(d), kws])
    with open(os.path.join(kws, "hitlist"), encoding="utf-8") as f:
        res = "".join(" ".join(line.split()[:4]) + " 1\n" for line in f)
    _write(str(tmp_path / "res"), res)
    lex = str(tmp_path / "lexicon.txt")
    _write(lex, "white w ai t\nhorse h o r s\nhorse h oo r s\n")
    exp = str(tmp_path / "exp")
    score_std.main(["--preset", "nist2006", "--plots", "false", "--breakdown", "phones", "--lexicon", lex,
                    kws, str(tmp_path / "res"), exp])
    with open(os.path.join(exp, "details", "breakdown_phones.tsv"), encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    assert [r[0] for r in rows[1:]] == ["4", "7", "oov"]          # horse, white horse, cat (no entry)
    assert [r[rows[0].index("n_targets")] for r in rows[1:]] == ["2", "1", "1"]
    _write(lex, "white w ai t\nhorse\n")
    with pytest.raises(InputError, match="malformed lexicon line") as e:
        score_std.main(["--breakdown", "phones", "--lexicon", lex, kws, str(tmp_path / "res"), exp + "2"])
    assert e.value.line == 2
