"""Bad gold input: each case is a one-line error naming file and line, exit 1, no output
(no data dir, no temp dir left behind) and the input files untouched."""
from __future__ import annotations

import hashlib
import os
import shutil

import pytest

from test_gold import FIX, PREPARE, call


def snapshot(d) -> dict[str, str]:
    out = {}
    for dirpath, _, files in os.walk(d):
        for f in files:
            p = os.path.join(dirpath, f)
            with open(p, "rb") as fh:
                out[p] = hashlib.sha256(fh.read()).hexdigest()
    return out


def edit(path, old, new, count=1):
    text = open(path, encoding="utf-8").read()
    assert old in text, old
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, count))


def zr(inp, *opts):
    return [*opts, "--format", "zr", f"{inp}/zr/example.phn", f"{inp}/zr/example.wrd"]


def ctm(inp, *opts, words=None, phones_txt=True, segments=True):
    args = [*opts, "--format", "ctm"]
    if phones_txt:
        args += ["--phones-txt", phones_txt if isinstance(phones_txt, str) else f"{inp}/ctm/phones.txt"]
    if segments:
        args += ["--segments", f"{inp}/ctm/segments"]
    return args + [f"{inp}/ctm/phones.ctm", words or f"{inp}/ctm/words.ctm"]


def tg(inp, *opts):
    return [*opts, "--format", "textgrid", f"{inp}/textgrid"]


S01 = "textgrid/s01/s01-rec1.TextGrid"
S02 = "textgrid/s02/s02-rec2.TextGrid"

# (id, modify(inp), args(inp), file relative to inp (None: message names no file), line, message part)
CASES = [
    # ---- ZeroSpeech files
    ("zr-unsorted", lambda i: edit(f"{i}/zr/example.phn", "s01-rec1 0.6 0.7 AE1\ns01-rec1 0.7 0.8 t\n",
                                   "s01-rec1 0.7 0.8 t\ns01-rec1 0.6 0.7 AE1\n"),
     zr, "zr/example.phn", 3, "starts before the previous one"),
    ("zr-overlap", lambda i: edit(f"{i}/zr/example.phn", "s01-rec1 0.7 0.8 t", "s01-rec1 0.65 0.8 t"),
     zr, "zr/example.phn", 3, "overlaps 0.6..0.7"),
    ("zr-duplicate-line", lambda i: edit(f"{i}/zr/example.phn", "s01-rec1 0.7 0.8 t\n", "s01-rec1 0.7 0.8 t\n" * 2),
     zr, "zr/example.phn", 4, "overlaps"),
    ("zr-word-overlap", lambda i: edit(f"{i}/zr/example.wrd", "s01-rec1 0.8 0.9 a", "s01-rec1 0.6 0.9 a"),
     zr, "zr/example.wrd", 2, "word interval 0.6..0.9 of 's01-rec1' overlaps"),
    ("zr-word-edge", lambda i: edit(f"{i}/zr/example.wrd", "s01-rec1 1.25 1.6 dog", "s01-rec1 1.3 1.6 dog"),
     zr, "zr/example.wrd", 3, "word 'dog' onset 1.3 in 's01-rec1' is not a phone edge (the nearest phone edge is 1.25"),
    ("zr-word-in-pause", lambda i: edit(f"{i}/zr/example.wrd", "s01-rec1 1.25 1.6 dog", "s01-rec1 1.0 1.1 um"),
     zr, "zr/example.wrd", 3, "word 'um' onset 1 in 's01-rec1' is not a phone edge"),
    ("zr-word-no-phones", lambda i: edit(f"{i}/zr/example.wrd", "s02-rec2 3.0 3.2 the", "s03-rec3 3.0 3.2 the"),
     zr, "zr/example.wrd", 6, "word in file 's03-rec3', which has no phones"),
    ("zr-3-fields", lambda i: edit(f"{i}/zr/example.phn", "s01-rec1 0.7 0.8 t", "s01-rec1 0.7 0.8"),
     zr, "zr/example.phn", 3, "expected '<file> <onset> <offset> <label>', got 3 fields"),
    ("zr-5-fields", lambda i: edit(f"{i}/zr/example.wrd", "s01-rec1 0.8 0.9 a", "s01-rec1 0.8 0.9 a b"),
     zr, "zr/example.wrd", 2, "got 5 fields"),
    ("zr-nan", lambda i: edit(f"{i}/zr/example.phn", "s01-rec1 0.7 0.8 t", "s01-rec1 0.7 nan t"),
     zr, "zr/example.phn", 3, "offset 'nan' is not a finite number"),
    ("zr-inf", lambda i: edit(f"{i}/zr/example.phn", "s01-rec1 0.7 0.8 t", "s01-rec1 -inf 0.8 t"),
     zr, "zr/example.phn", 3, "onset '-inf' is not a finite number"),
    ("zr-garbage", lambda i: edit(f"{i}/zr/example.phn", "s01-rec1 0.7 0.8 t", "s01-rec1 0.7 0,8 t"),
     zr, "zr/example.phn", 3, "offset '0,8' is not a number"),
    ("zr-negative", lambda i: edit(f"{i}/zr/example.phn", "s02-rec2 2 2.1 HH", "s02-rec2 -2 2.1 HH"),
     zr, "zr/example.phn", 8, "negative onset -2"),
    ("zr-zero-length", lambda i: edit(f"{i}/zr/example.phn", "s01-rec1 0.7 0.8 t", "s01-rec1 0.7 0.7 t"),
     zr, "zr/example.phn", 3, "zero-length phone interval at 0.7"),
    ("zr-reversed", lambda i: edit(f"{i}/zr/example.wrd", "s01-rec1 0.8 0.9 a", "s01-rec1 0.9 0.8 a"),
     zr, "zr/example.wrd", 2, "reversed word interval: offset 0.8 before onset 0.9"),
    ("zr-empty-phn", lambda i: open(f"{i}/zr/example.phn", "w").close(),
     zr, "zr/example.phn", None, "empty file"),
    ("zr-blank-wrd", lambda i: open(f"{i}/zr/example.wrd", "w").write("\n\n"),
     zr, "zr/example.wrd", None, "empty file"),
    ("zr-only-silence-words", lambda i: open(f"{i}/zr/example.wrd", "w").write("s01-rec1 0 0.5 SIL\n"),
     zr, "zr/example.wrd", None, "no word intervals"),
    ("zr-utf16", lambda i: open(f"{i}/zr/example.phn", "wb").write(open(f"{FIX}/zr/example.phn").read().encode("utf-16")),
     zr, "zr/example.phn", 1, "UTF-16"),
    ("zr-latin1", lambda i: open(f"{i}/zr/example.wrd", "ab").write(b"s02-rec2 3.0 3.2 caf\xe9\n"),
     zr, "zr/example.wrd", 7, "not valid UTF-8"),
    # ---- CTM
    ("ctm-unknown-id", lambda i: edit(f"{i}/ctm/phones.ctm", "s01-rec1-0001 1 0.90 0.10 12", "s01-rec1-0001 1 0.90 0.10 99"),
     ctm, "ctm/phones.ctm", 7, "phone id 99 is not in"),
    ("ctm-unknown-symbol", lambda i: edit(f"{i}/ctm/phones.ctm", "s01-rec1-0001 1 0.90 0.10 12", "s01-rec1-0001 1 0.90 0.10 XX_I"),
     ctm, "ctm/phones.ctm", 7, "unknown phone 'XX_I'"),
    ("ctm-no-phones-txt", None, lambda i: ctm(i, phones_txt=False), "ctm/phones.ctm", 1,
     "integer phone id '19' but no symbol table given: pass phones.txt (--phones-txt)"),
    ("ctm-missing-phones-txt", None, lambda i: ctm(i, phones_txt=f"{i}/ctm/nope.txt"), "ctm/nope.txt", None,
     "no such file or directory"),
    ("ctm-bad-phones-txt", lambda i: edit(f"{i}/ctm/phones.txt", "SPN 6", "SPN six"),
     ctm, "ctm/phones.txt", 7, "symbol id 'six' is not a non-negative integer"),
    ("ctm-duplicate-id", lambda i: edit(f"{i}/ctm/phones.txt", "SPN 6", "SPN 5"),
     ctm, "ctm/phones.txt", 7, "duplicate symbol id 5"),
    ("ctm-4-fields", lambda i: edit(f"{i}/ctm/phones.ctm", "s01-rec1-0001 1 0.20 0.10 20", "s01-rec1-0001 0.20 0.10 20"),
     ctm, "ctm/phones.ctm", 3, "expected '<reco> <channel> <start> <duration> <label> [<confidence>]', got 4 fields"),
    ("ctm-7-fields", lambda i: edit(f"{i}/ctm/words.ctm", "s01-rec1-0001 1 0.30 0.10 a", "s01-rec1-0001 1 0.30 0.10 a 1 x"),
     ctm, "ctm/words.ctm", 2, "got 7 fields"),
    ("ctm-bad-confidence", lambda i: edit(f"{i}/ctm/words.ctm", "s01-rec1-0001 1 0.30 0.10 a", "s01-rec1-0001 1 0.30 0.10 a high"),
     ctm, "ctm/words.ctm", 2, "confidence 'high' is not a number"),
    ("ctm-nan", lambda i: edit(f"{i}/ctm/phones.ctm", "s01-rec1-0001 1 0.20 0.10 20", "s01-rec1-0001 1 NaN 0.10 20"),
     ctm, "ctm/phones.ctm", 3, "start time 'NaN' is not a finite number"),
    ("ctm-negative-start", lambda i: edit(f"{i}/ctm/phones.ctm", "s01-rec1-0001 1 0.20 0.10 20", "s01-rec1-0001 1 -0.20 0.10 20"),
     ctm, "ctm/phones.ctm", 3, "negative start time -0.20"),
    ("ctm-negative-dur", lambda i: edit(f"{i}/ctm/words.ctm", "s01-rec1-0001 1 0.30 0.10 a", "s01-rec1-0001 1 0.30 -0.10 a"),
     ctm, "ctm/words.ctm", 2, "negative duration -0.10"),
    ("ctm-zero-dur", lambda i: edit(f"{i}/ctm/phones.ctm", "s01-rec1-0001 1 0.20 0.10 20", "s01-rec1-0001 1 0.20 0 20"),
     ctm, "ctm/phones.ctm", 3, "zero duration 0"),
    ("ctm-overlap", lambda i: edit(f"{i}/ctm/phones.ctm", "s01-rec1-0001 1 0.20 0.10 20", "s01-rec1-0001 1 0.20 0.20 20"),
     ctm, "ctm/phones.ctm", 4, "overlaps 0.7..0.9"),
    ("ctm-unknown-utterance", lambda i: edit(f"{i}/ctm/phones.ctm", "s02-rec2-0002 1 0.00 0.10 13", "s02-rec2-0009 1 0.00 0.10 13"),
     ctm, "ctm/phones.ctm", 14, "'s02-rec2-0009' is neither an utterance nor a recording of the segments file"),
    ("ctm-bad-segments", lambda i: edit(f"{i}/ctm/segments", "s02-rec2-0001 s02-rec2 2.00 2.70", "s02-rec2-0001 s02-rec2 2.00"),
     ctm, "ctm/segments", 2, "expected '<utt> <reco> <start> <end>', got 3 fields"),
    ("ctm-segment-reversed", lambda i: edit(f"{i}/ctm/segments", "s02-rec2-0001 s02-rec2 2.00 2.70", "s02-rec2-0001 s02-rec2 2.00 1.70"),
     ctm, "ctm/segments", 2, "segment end is not after its start"),
    ("ctm-segments-overlap", lambda i: edit(f"{i}/ctm/segments", "s02-rec2-0002 s02-rec2 3.00", "s02-rec2-0002 s02-rec2 2.50"),
     ctm, "ctm/phones.ctm", 14, "overlaps"),
    ("ctm-two-channels", lambda i: edit(f"{i}/ctm/words.ctm", "s01-rec1-0001 1 0.30 0.10 a", "s01-rec1-0001 2 0.30 0.10 a"),
     ctm, "ctm/words.ctm", 2, "appears with channels '1' and '2'"),
    ("ctm-derive-unclosed", lambda i: edit(f"{i}/ctm/phones.ctm", "s01-rec1-0001 1 0.20 0.10 20", "s01-rec1-0001 1 0.20 0.10 10"),
     lambda i: ctm(i, words="-"), "ctm/phones.ctm", 4, "cannot derive words: _S phone inside a word"),
    ("ctm-derive-E-outside", lambda i: edit(f"{i}/ctm/phones.ctm", "s01-rec1-0001 1 0.00 0.10 19", "s01-rec1-0001 1 0.00 0.10 18"),
     lambda i: ctm(i, words="-"), "ctm/phones.ctm", 1, "_E phone outside a word"),
    ("ctm-derive-SIL-inside", lambda i: edit(f"{i}/ctm/phones.ctm", "s01-rec1-0001 1 0.20 0.10 20", "s01-rec1-0001 1 0.20 0.10 1"),
     lambda i: ctm(i, words="-"), "ctm/phones.ctm", 3, "phone without a position suffix inside a word"),
    ("ctm-derive-file-ends-in-word", lambda i: edit(f"{i}/ctm/phones.ctm", "s01-rec1-0001 1 1.00 0.10 18", "s01-rec1-0001 1 1.00 0.10 12"),
     lambda i: ctm(i, words="-"), "ctm/phones.ctm", 8, "the file ends inside a word"),
    # ---- TextGrid
    ("tg-missing-tier", lambda i: edit(f"{i}/{S01}", 'name = "phones"', 'name = "phone"'),
     tg, S01, None, "no tier 'phones' (or '<speaker> - phones'); the interval tiers are: 'words', 'phone'"),
    ("tg-missing-speaker-tier", lambda i: edit(f"{i}/{S02}", '"s02 - words"', '"s02 - orth"'),
     tg, S02, None, "no tier 'words'"),
    ("tg-utf16-no-bom", lambda i: open(f"{i}/{S01}", "wb").write(open(f"{FIX}/{S01}").read().encode("utf-16-le")),
     tg, S01, 1, "UTF-16 without a byte-order mark"),
    ("tg-zero-length", lambda i: edit(f"{i}/{S01}", "            xmin = 0.7\n            xmax = 0.8\n            text = \"t\"",
                                      "            xmin = 0.7\n            xmax = 0.7\n            text = \"t\""),
     tg, S01, 53, "zero-length interval at 0.7 in tier 'phones'"),
    ("tg-reversed", lambda i: edit(f"{i}/{S02}", "3.1\n3.2\n\"AH0\"", "3.2\n3.1\n\"AH0\""),
     tg, S02, 60, "reversed interval 3.2..3.1 in tier 's02 - phones'"),
    ("tg-overlap", lambda i: edit(f"{i}/{S01}", "            xmin = 0.6\n            xmax = 0.7\n            text = \"AE1\"",
                                  "            xmin = 0.6\n            xmax = 0.75\n            text = \"AE1\""),
     tg, S01, 53, f"overlaps 0.6..0.75 ("),
    ("tg-truncated", lambda i: open(f"{i}/{S01}", "w").write("".join(open(f"{FIX}/{S01}").readlines()[:30])),
     tg, S01, 30, "cannot parse TextGrid: unexpected end of file"),
    ("tg-not-textgrid", lambda i: open(f"{i}/{S01}", "w").write("hello\n"),
     tg, S01, 1, "cannot parse TextGrid (TextGridError"),
    ("tg-no-files", lambda i: shutil.rmtree(f"{i}/textgrid/s01") or shutil.rmtree(f"{i}/textgrid/s02"),
     tg, "textgrid", None, "no *.TextGrid files under this directory"),
    ("tg-duplicate-id", lambda i: shutil.copy(f"{i}/{S01}", f"{i}/textgrid/s02/s01-rec1.TextGrid"),
     tg, "textgrid/s02/s01-rec1.TextGrid", None, "file id 's01-rec1' also comes from"),
    ("tg-two-speakers", lambda i: edit(f"{i}/{S02}", '<exists>\n2\n', '<exists>\n4\n') or
     open(f"{i}/{S02}", "a").write(open(f"{FIX}/{S02}").read().split("<exists>\n2\n")[1].replace("s02", "s03")),
     tg, S02, None, "2 speakers' 'phones' tiers"),
    ("utt2spk-missing-file", lambda i: open(f"{i}/u2s", "w").write("s01-rec1 a\n"),
     lambda i: zr(i, "--utt2spk", f"{i}/u2s"), "u2s", None, "1 file id(s) have no speaker, e.g. 's02-rec2'"),
    ("utt2spk-duplicate", lambda i: open(f"{i}/u2s", "w").write("s01-rec1 a\ns01-rec1 b\n"),
     lambda i: zr(i, "--utt2spk", f"{i}/u2s"), "u2s", 2, "duplicate file id 's01-rec1'"),
    ("bad-spk-rule", None, lambda i: zr(i, "--spk-rule", "prefix:zero"), None, None, "bad --spk-rule 'prefix:zero'"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input(tmp_path, capsys, case):
    _, modify, args, rel, line, message = case
    inp = tmp_path / "in"
    shutil.copytree(FIX, inp)
    if modify:
        modify(str(inp))
    before = snapshot(inp)
    out = tmp_path / "out" / "data"
    code, err = call(PREPARE, args(str(inp)) + [str(out)], capsys)
    assert code == 1
    assert err.count("\n") == 1, err           # one line, no traceback
    assert "error: " in err and message in err, err
    if rel is not None:
        where = f"{inp}/{rel}:{line}: " if line else f"{inp}/{rel}: "
        assert where in err, err
    assert not out.exists()
    assert not (tmp_path / "out").exists() or os.listdir(tmp_path / "out") == []
    assert snapshot(inp) == before              # inputs untouched


def test_output_must_not_overwrite_input(tmp_path, capsys):
    d = tmp_path / "d"
    d.mkdir()
    shutil.copy(f"{FIX}/zr/example.phn", d / "phones")
    shutil.copy(f"{FIX}/zr/example.wrd", d / "words")
    before = snapshot(d)
    code, err = call(PREPARE, ["--format", "zr", d / "phones", d / "words", d], capsys)
    assert code == 1 and "output file would overwrite the input" in err
    assert snapshot(d) == before and sorted(os.listdir(tmp_path)) == ["d"]


def test_failed_run_keeps_previous_data_dir(tmp_path, capsys):
    """A failing preparation leaves an existing data dir exactly as it was."""
    d = tmp_path / "d"
    code, _ = call(PREPARE, ["--format", "zr", f"{FIX}/zr/example.phn", f"{FIX}/zr/example.wrd", d], capsys)
    assert code == 0
    before = snapshot(d)
    bad = tmp_path / "bad.phn"
    bad.write_text(open(f"{FIX}/zr/example.phn").read().replace("0.7 0.8 t", "0.7 0.7 t"))
    code, err = call(PREPARE, ["--format", "zr", bad, f"{FIX}/zr/example.wrd", d], capsys)
    assert code == 1 and f"{bad}:3:" in err
    assert snapshot(d) == before and sorted(os.listdir(tmp_path)) == ["bad.phn", "d"]
