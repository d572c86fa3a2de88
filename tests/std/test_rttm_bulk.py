"""The RTTM reader's bulk path (numpy on the file's bytes) reads what the line-by-line reader
reads, and find_occurrences (every candidate followed along the speaker chain together) finds
what a plain loop over the chain finds (F4DE's findTermOccurrences, docs/std.md §1.2)."""
from __future__ import annotations

import numpy as np
import pytest

from termeval.core.errors import InputError
from termeval.std import rttm
from termeval.std.ecf import round4
from termeval.std.termlist import TermList

FIELDS = ("file", "chan", "tbeg", "tend", "token", "subtype", "speaker")


def same_lexemes(a, b):
    for f in FIELDS:
        x, y = getattr(a, f), getattr(b, f)
        assert x.dtype == y.dtype and x.tolist() == y.tolist(), f


def random_rttm(rng, n=400) -> str:
    words = ["a", "B", "café", "the", "x" * 70, "b"]        # a token longer than 64 bytes too
    lines = ["SPEAKER d1 1 0.000 99.000 <NA> <NA> s1 <NA>", "", "NOSCORE d1 1 0 1"]
    t = {("d1.wav", "s1"): 0.0, ("d2", "s2"): 0.0}
    for _ in range(n):
        f, s = list(t)[int(rng.integers(2))]
        d = round(float(rng.uniform(0.1, 0.4)), 3)
        extra = " 0.9" if rng.random() < 0.1 else ""
        chan = "<NA>" if rng.random() < 0.1 else "1"
        sub = "fp" if rng.random() < 0.05 else "lex"
        lines.append(f"LEXEME {f} {chan} {t[f, s]:.3f} {d} {words[int(rng.integers(len(words)))]} {sub} {s} <NA>{extra}")
        t[f, s] += d + round(float(rng.choice([0.0, 0.2, 0.5, 0.50004, 0.7])), 5)
    return "\r\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", [0, 1])
def test_bulk_reads_what_the_line_reader_reads(tmp_path, seed):
    p = tmp_path / "rttm"
    text = random_rttm(np.random.default_rng(seed))
    p.write_bytes(text.encode("utf-8"))
    data = p.read_bytes()
    if "x" * 70 in text:
        assert rttm._read_bulk(data, str(p)) is None       # a token > 64 bytes: the line reader
    same_lexemes(rttm.read_rttm(str(p)), rttm._read_lines(data.decode("utf-8"), str(p)))
    p.write_bytes(text.replace("x" * 70, "y").encode("utf-8"))
    data = p.read_bytes()
    bulk = rttm._read_bulk(data, str(p))
    assert bulk is not None
    same_lexemes(bulk, rttm._read_lines(data.decode("utf-8"), str(p)))


@pytest.mark.parametrize("line,message", [
    ("LEXEME d1 1 0.5 x1 a lex s <NA>", "bad tbeg/tdur"),
    ("LEXEME d1 1 0.5 0.2 a lex s", "needs 9 fields"),
    ("LEXEME d1 c 0.5 0.2 a lex s <NA>", "not an integer"),
    ("LEXEME d1 1 -0.5 0.2 a lex s <NA>", "negative time"),
    ("LEXEME d1 1 0.5 1e999 a lex s <NA>", "finite"),
])
def test_a_bad_line_is_named_by_the_line_reader(tmp_path, line, message):
    p = tmp_path / "rttm"
    p.write_text("LEXEME d1 1 0.1 0.2 a lex s <NA>\nSPEAKER d1 1 0 9 <NA> <NA> s <NA>\n" + line + "\n")
    with pytest.raises(InputError, match=message) as e:
        rttm.read_rttm(str(p))
    assert e.value.line == 3


def loop_occurrences(lex, terms, thr=0.5):
    """The plain loop: each start token followed along its speaker chain one by one."""
    nxt = rttm._speaker_chain(lex)
    out = []
    for ti, text in enumerate(terms.texts):
        toks = text.strip().lower().split()
        for s in range(len(lex)):
            if lex.subtype[s] in ("fp", "frag") or lex.token[s].strip().lower() != toks[0]:
                continue
            cur, ok = s, True
            for t in toks[1:]:
                j = nxt[cur]
                if j < 0 or lex.token[j].lower() != t or round(lex.tbeg[j] - lex.tend[cur], 4) > thr:
                    ok = False
                    break
                cur = j
            if ok:
                out.append((ti, s, cur))
    return out


def test_find_occurrences_as_the_loop(tmp_path):
    p = tmp_path / "rttm"
    p.write_text(random_rttm(np.random.default_rng(2), 600).replace("x" * 70, "y"), encoding="utf-8")
    lex = rttm.read_rttm(str(p))
    texts = ["a", "a b", "B a", "the café a", "b b b", "a y", "nothing here", "A"]
    terms = TermList([f"t{i}" for i in range(len(texts))], texts, [{} for _ in texts], "lowercase")
    occ = rttm.find_occurrences(lex, terms)
    want = loop_occurrences(lex, terms)
    assert len(occ) == len(want) > 0
    i0 = np.array([w[1] for w in want])
    i1 = np.array([w[2] for w in want])
    ref = rttm.sort_occurrences(rttm.Occurrences(np.array([w[0] for w in want], dtype=np.int32), lex.file[i0],
                                                 lex.chan[i0], lex.tbeg[i0], lex.tend[i1], lex.tend[i0]))
    for f in ("term", "file", "chan", "beg", "end", "first_end"):
        assert getattr(occ, f).tolist() == getattr(ref, f).tolist(), f
    assert round4(0.50004) == 0.5                      # a gap of 0.50004 s is within 0.5 s
