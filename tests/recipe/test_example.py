"""The bundled synthetic example (local/make_example.py): determinism, consistency of the
three gold forms, and that its class file prepares."""
from __future__ import annotations

import filecmp
import os
import subprocess
import sys

import pytest

SEED = 1


def generate(root: str, out: str, seed: int = SEED) -> subprocess.CompletedProcess:
    r = subprocess.run([sys.executable, "local/make_example.py", "--seed", str(seed), out], cwd=root,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r


@pytest.fixture(scope="module")
def example(root, tmp_path_factory):
    out = str(tmp_path_factory.mktemp("example") / "ex")
    generate(root, out)
    return out


def all_files(d: str) -> list[str]:
    return sorted(os.path.relpath(os.path.join(a, f), d) for a, _, fs in os.walk(d) for f in fs)


def frames(t: str) -> int:
    """Seconds text -> integer 10 ms frames; the text must be exactly on the grid."""
    n = round(float(t) * 100)
    assert abs(float(t) * 100 - n) < 1e-6, t
    return n


def lines(path: str) -> list[list[str]]:
    with open(path, encoding="utf-8") as f:
        return [x.split() for x in f.read().splitlines() if x.strip()]


def test_deterministic(root, example, tmp_path):
    again = str(tmp_path / "again")
    generate(root, again)
    names = all_files(example)
    assert names == all_files(again)
    match, mismatch, errors = filecmp.cmpfiles(example, again, names, shallow=False)
    assert mismatch == [] and errors == []
    other = str(tmp_path / "other")
    generate(root, other, seed=2)
    with open(os.path.join(example, "zr", "example.phn"), "rb") as a, \
            open(os.path.join(other, "zr", "example.phn"), "rb") as b:
        assert a.read() != b.read()


def test_layout_and_counts(example):
    names = all_files(example)
    assert [n for n in names if not n.startswith("textgrid/")] == [
        "README", "classes/example.classes", "classes/example.pairs", "ctm/phones.ctm",
        "ctm/phones.txt", "ctm/segments", "ctm/words.ctm", "ctm/words.reco.ctm", "lexicon.txt",
        "utt2spk", "zr/example.phn", "zr/example.wrd", "zr/index.json"]
    assert len([n for n in names if n.endswith(".TextGrid")]) == 24
    lex = lines(os.path.join(example, "lexicon.txt"))
    assert len(lex) == 48
    prons = [tuple(x[1:]) for x in lex]
    assert len(set(prons)) == 44                                  # 4 homophone pairs
    assert len({p for x in prons for p in x}) == 25                # the whole inventory is used
    utt2spk = lines(os.path.join(example, "utt2spk"))
    assert len(utt2spk) == 24 and {s for _, s in utt2spk} == {"s01", "s02", "s03", "s04"}
    assert all(r.split("-")[0] == s for r, s in utt2spk)
    wrd = lines(os.path.join(example, "zr", "example.wrd"))
    phn = lines(os.path.join(example, "zr", "example.phn"))
    assert len(wrd) == 539 and len({w[3] for w in wrd}) == 48
    assert len(phn) == 2715 and sum(p[3] == "SIL" for p in phn) == 192
    assert len(lines(os.path.join(example, "ctm", "segments"))) == 78
    syms = lines(os.path.join(example, "ctm", "phones.txt"))
    assert syms[0] == ["<eps>", "0"] and syms[1] == ["SIL", "1"] and syms[-1] == ["#3", str(len(syms) - 1)]
    assert len(syms) == 1 + 2 * 5 + 25 * 4 + 4
    end = {}
    for f, a, b, _ in phn:
        end[f] = frames(b)
    assert sum(end.values()) == 30448                              # 304.48 s in total
    assert (min(end.values()), max(end.values())) == (952, 1613)     # 9.5-16 s per recording
    cls = open(os.path.join(example, "classes", "example.classes")).read()
    assert cls.count("Class ") == 40 and len(cls.splitlines()) - 2 * 40 == 392
    assert len(lines(os.path.join(example, "classes", "example.pairs"))) == 84


def zr_phones(example):
    return [(f, frames(a), frames(b), lab) for f, a, b, lab in lines(os.path.join(example, "zr", "example.phn"))]


def zr_words(example):
    return [(f, frames(a), frames(b), w) for f, a, b, w in lines(os.path.join(example, "zr", "example.wrd"))]


def test_zr_alignment_is_sane(example):
    phn = zr_phones(example)
    prev = {}
    for f, a, b, lab in phn:
        assert a == prev.get(f, 0)                                 # contiguous from 0, sorted
        assert b > a
        if lab != "SIL":
            assert 4 <= b - a <= 15                                # 40-150 ms
        prev[f] = b
    sil_runs = [1 for x, y in zip(phn, phn[1:]) if x[0] == y[0] and x[3] == y[3] == "SIL"]
    assert sil_runs == []                                          # no two adjacent silences
    edges = {(f, t) for f, a, b, _ in phn for t in (a, b)}
    for f, a, b, w in zr_words(example):
        assert (f, a) in edges and (f, b) in edges                 # word edges are phone edges


def test_ctm_matches_zr(example):
    d = os.path.join(example, "ctm")
    sym = {i: s for s, i in lines(os.path.join(d, "phones.txt"))}
    seg = {u: (r, frames(a), frames(b)) for u, r, a, b in lines(os.path.join(d, "segments"))}
    out, pos = [], []
    for u, ch, st, du, ph in lines(os.path.join(d, "phones.ctm")):
        assert ch == "1" and ph.isdigit() and u.startswith(seg[u][0] + "-")
        r, s0, s1 = seg[u]
        a = s0 + frames(st)
        b = a + frames(du)
        assert b <= s1
        s = sym[ph]
        lab, p = (s[:-2], s[-1]) if s[-2:-1] == "_" else (s, "")
        out.append((r, a, b, lab))
        pos.append(p)
    # each utterance is covered contiguously from 0 to its segment's length (ali-to-phones style)
    cover: dict[str, int] = {}
    for u, ch, st, du, ph in lines(os.path.join(d, "phones.ctm")):
        assert frames(st) == cover.get(u, 0)
        cover[u] = frames(st) + frames(du)
    assert cover == {u: s1 - s0 for u, (r, s0, s1) in seg.items()}
    # filling the gaps between utterances with SIL gives the ZR phones exactly
    filled, prev = [], {}
    for r, a, b, lab in out:
        if a > prev.get(r, 0):
            filled.append((r, prev.get(r, 0), a, "SIL"))
        filled.append((r, a, b, lab))
        prev[r] = b
    assert filled == zr_phones(example)
    # position suffixes agree with the words; silence has none
    starts = {(f, a) for f, a, b, w in zr_words(example)}
    ends = {(f, b) for f, a, b, w in zr_words(example)}
    for (r, a, b, lab), p in zip(out, pos):
        if lab == "SIL":
            assert p == ""
        else:
            assert ((r, a) in starts) == (p in "BS") and ((r, b) in ends) == (p in "ES")
    words = [(r, frames(a), frames(a) + frames(du), w) for r, ch, a, du, w in lines(os.path.join(d, "words.reco.ctm"))]
    assert words == zr_words(example)
    uwords = [(seg[u][0], seg[u][1] + frames(a), seg[u][1] + frames(a) + frames(du), w)
              for u, ch, a, du, w in lines(os.path.join(d, "words.ctm"))]
    assert uwords == zr_words(example)


def test_textgrid_matches_zr(example):
    textgrid = pytest.importorskip("textgrid")
    d = os.path.join(example, "textgrid")
    phones, words = [], []
    for name in sorted(os.listdir(d)):
        with open(os.path.join(d, name), "rb") as f:
            raw = f.read()
        raw.decode("utf-8")
        assert raw.startswith(b'File type = "ooTextFile"')
        tg = textgrid.TextGrid.fromFile(os.path.join(d, name))
        assert [t.name for t in tg.tiers] == ["words", "phones"]
        reco = name[: -len(".TextGrid")]
        for tier, out, empty in ((tg.getFirst("phones"), phones, "SIL"), (tg.getFirst("words"), words, None)):
            assert tier[0].minTime == 0 and tier[-1].maxTime == tg.maxTime
            for iv in tier:
                if iv.mark or empty:
                    out.append((reco, frames(repr(iv.minTime)), frames(repr(iv.maxTime)), iv.mark or empty))
    assert phones == zr_phones(example)
    assert words == zr_words(example)


def test_classes_are_realistic(example):
    from termeval.classes.parse import parse_class_file
    phn = zr_phones(example)
    dur = {}
    for f, a, b, _ in phn:
        dur[f] = b / 100
    path = os.path.join(example, "classes", "example.classes")
    text = open(path).read()
    assert text.endswith("\n\n") and "\n\n\n" not in text and "  " not in text and "\t" not in text
    prep = parse_class_file(path, dur)                              # strict: no error
    c = prep.counts
    assert (c["classes_written"], c["fragments_written"]) == (40, 392)
    assert c["classes_singleton"] == 1 and c["fragments_duplicate_in_class"] == 1
    # how many fragments sit exactly on word boundaries (few: boundaries are jittered)
    words = {(f, a * 10, b * 10) for f, a, b, _ in zr_words(example)}
    exact = sum((f, round(a * 1000), round(b * 1000)) in words
                for f, a, b in zip(prep.file, prep.onset.tolist(), prep.offset.tolist()))
    assert 0 < exact < 0.2 * len(prep)
    # the errors of a real system: merged and split clusters, fragments across pauses
    wl = zr_words(example)
    best = []
    for f, a, b in zip(prep.file, prep.onset.tolist(), prep.offset.tolist()):
        ov = [(min(b * 100, y) - max(a * 100, x), w) for g, x, y, w in wl if g == f]
        o, w = max(ov)
        best.append(w if o > 0 else None)
    st = prep.starts.tolist()
    types = [set(best[st[c]:st[c + 1]]) - {None} for c in range(len(prep.names))]
    assert sum(len(t) >= 2 for t in types) == 5    # 2 merged, 3 false matches
    per_word: dict[str, int] = {}
    for t in types:
        if len(t) == 1:
            w = next(iter(t))
            per_word[w] = per_word.get(w, 0) + 1
    assert sum(n >= 2 for n in per_word.values()) == 3             # 3 split clusters
    pauses = [(f, a, b) for f, a, b, lab in zr_phones(example) if lab == "SIL" and a > 0]
    across = sum(any(g == f and a * 100 < x and y < b * 100 for g, x, y in pauses)
                 for f, a, b in zip(prep.file, prep.onset.tolist(), prep.offset.tolist()))
    assert across == 8
    assert exact == 17
    pairs = parse_class_file(os.path.join(example, "classes", "example.pairs"), dur)
    assert pairs.fmt == "pairs" and len(pairs.names) == 84


def gold_script(root):
    for name in ("steps/prepare_gold.sh",):
        if os.path.isfile(os.path.join(root, name)):
            return name
    pytest.skip("steps/prepare_gold.sh is not there yet")


def test_three_forms_prepare_identically(root, example, tmp_path):
    script = gold_script(root)
    z, c, t = (str(tmp_path / x) for x in ("zr", "ctm", "tg"))
    e = example
    cmds = [
        ["--format", "zr", f"{e}/zr/example.phn", f"{e}/zr/example.wrd", z],
        ["--format", "ctm", "--phones-txt", f"{e}/ctm/phones.txt", "--segments", f"{e}/ctm/segments",
         f"{e}/ctm/phones.ctm", f"{e}/ctm/words.ctm", c],
        ["--format", "textgrid", f"{e}/textgrid", t],
    ]
    for cmd in cmds:
        r = subprocess.run([script, *cmd], cwd=root, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    names = sorted(os.listdir(z))
    assert {"phones", "words", "utt2spk", "spk2utt", "reco2dur"} <= set(names)
    for other in (c, t):
        assert sorted(os.listdir(other)) == names
        match, mismatch, errors = filecmp.cmpfiles(z, other, names, shallow=False)
        assert mismatch == [] and errors == [], (other, mismatch)
    with open(os.path.join(z, "reco2dur")) as f:
        assert len(f.read().splitlines()) == 24
    # and the discovered classes prepare against it, strictly
    r = subprocess.run(["steps/prepare_classes.sh", z, f"{e}/classes/example.classes", str(tmp_path / "exp")],
                       cwd=root, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    from termeval.core.datadir import load_classes, load_gold
    cl = load_classes(str(tmp_path / "exp" / "classes"), load_gold(z))
    assert len(cl) == 392 and len(cl.keys) == 40
