"""prepare_gold options that belong to some formats only: --segments with per-utterance
TextGrids (MFA run on an ESPnet/Kaldi data dir) gives the same data dir as the CTM with the
same segments; --phones-txt / --words-txt / --segments where they mean nothing are refused."""
from __future__ import annotations

import os

import pytest

from termeval.bin import prepare_gold as PREPARE
from termeval.run.cli import run

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "fixtures")
DATA_FILES = ("phones", "words", "utt2spk", "spk2utt", "reco2dur")


def call(argv, capsys) -> tuple[int, str]:
    with pytest.raises(SystemExit) as e:
        run(PREPARE.main, [str(a) for a in argv])
    return e.value.code or 0, capsys.readouterr().err


def read_dir(d) -> dict[str, bytes]:
    return {n: open(os.path.join(d, n), "rb").read() for n in DATA_FILES}


def rows(path):
    return [(f, float(a), float(b), lab) for f, a, b, lab in (ln.split() for ln in open(path) if ln.strip())]


def tier(name: str, items: list[tuple[float, float, str]], xmax: float) -> str:
    out = [f'    item [{name[0]}]:', '        class = "IntervalTier"', f'        name = "{name[1]}"',
           "        xmin = 0", f"        xmax = {xmax:g}", f"        intervals: size = {len(items)}"]
    for i, (a, b, lab) in enumerate(items, 1):
        out += [f"        intervals [{i}]:", f"            xmin = {a:g}", f"            xmax = {b:g}",
                f'            text = "{lab}"']
    return "\n".join(out)


def contiguous(items, end):
    """Praat tiers cover the whole utterance: gaps become empty intervals."""
    out, t = [], 0.0
    for a, b, lab in items:
        if a > t:
            out.append((t, a, ""))
        out.append((a, b, "" if lab == "SIL" else lab))
        t = b
    if t < end:
        out.append((t, end, ""))
    return out


def utterance_textgrids(dst, segments, names=None):
    """One TextGrid per utterance of `segments`, cut from the expected data dir, times relative
    to the utterance (rounded to the microsecond, as a TextGrid writer would)."""
    phones, words = rows(f"{FIX}/expected/phones"), rows(f"{FIX}/expected/words")
    os.makedirs(dst, exist_ok=True)
    for ln in open(segments):
        utt, reco, s, e = ln.split()
        s, e = float(s), float(e)
        L = round(e - s, 6)

        def cut(rs):
            return [(round(a - s, 6), round(b - s, 6), lab) for f, a, b, lab in rs if f == reco and s <= a and b <= e]
        body = "\n".join([tier((1, "words"), contiguous(cut(words), L), L), tier((2, "phones"), contiguous(cut(phones), L), L)])
        head = f'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\nxmax = {L:g}\ntiers? <exists>\nsize = 2\nitem []:\n'
        with open(os.path.join(dst, f"{(names or {}).get(utt, utt)}.TextGrid"), "w") as f:
            f.write(head + body + "\n")


SEGMENTS = "s01-rec1-0001 s01-rec1 0.50 1.60\ns02-rec2-0001 s02-rec2 2.00 2.70\ns02-rec2-0002 s02-rec2 3.00 3.35\n"


def test_textgrid_per_utterance_with_segments_equals_ctm(tmp_path, capsys):
    # the CTM fixture's segments, but s01's utterance ending with its last phone (a TextGrid
    # covers its utterance: 1.60-1.62 would be a trailing silence interval the CTM has not)
    segs = tmp_path / "segments"
    segs.write_text(SEGMENTS)
    utterance_textgrids(tmp_path / "tg", segs)
    code, err = call(["--format", "textgrid", "--segments", segs, tmp_path / "tg", tmp_path / "d"], capsys)
    assert code == 0, err
    got, want = read_dir(tmp_path / "d"), read_dir(f"{FIX}/expected")
    # the leading silence before each first utterance is filled from 0, as with the CTM
    assert got == want
    # without --segments the utterance ids are taken as recordings (the case)
    code, err = call(["--format", "textgrid", tmp_path / "tg", tmp_path / "d2"], capsys)
    assert code == 0
    assert open(tmp_path / "d2" / "reco2dur").read().split() == [
        "s01-rec1-0001", "1.1", "s02-rec2-0001", "0.7", "s02-rec2-0002", "0.35"]


def test_textgrid_segments_variants(tmp_path, capsys):
    # one TextGrid named after its recording (recording-relative), the others utterances
    segs = tmp_path / "segments"
    segs.write_text(SEGMENTS)
    utterance_textgrids(tmp_path / "tg", segs)
    os.remove(tmp_path / "tg" / "s01-rec1-0001.TextGrid")
    import shutil
    shutil.copy(f"{FIX}/textgrid/s01/s01-rec1.TextGrid", tmp_path / "tg" / "s01-rec1.TextGrid")
    code, err = call(["--format", "textgrid", "--strip-stress", "true", "--segments", segs, tmp_path / "tg",
                      tmp_path / "d"], capsys)
    assert code == 0, err
    assert read_dir(tmp_path / "d") == read_dir(f"{FIX}/expected")
    # an unknown name, and an utterance TextGrid longer than its segment, are one-line errors
    utterance_textgrids(tmp_path / "bad", segs, names={"s02-rec2-0002": "nope"})
    code, err = call(["--format", "textgrid", "--segments", segs, tmp_path / "bad", tmp_path / "d3"], capsys)
    assert code == 1 and err.strip().endswith(
        f"nope.TextGrid: TextGrid name 'nope' is neither an utterance nor a recording of the segments file {segs}")
    short = tmp_path / "short"
    short.write_text("s01-rec1-0001 s01-rec1 0.50 1.60\ns02-rec2-0001 s02-rec2 2.00 2.50\n"
                     "s02-rec2-0002 s02-rec2 3.00 3.35\n")
    code, err = call(["--format", "textgrid", "--segments", short, tmp_path / "tg", tmp_path / "d4"], capsys)
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert "s02-rec2-0001.TextGrid:" in err and f"after the end of its utterance (0.5 s long in {short})" in err
    assert not (tmp_path / "d3").exists() and not (tmp_path / "d4").exists()


@pytest.mark.parametrize("fmt,inputs,opt", [
    ("zr", [f"{FIX}/zr/example.phn", f"{FIX}/zr/example.wrd"], "--phones-txt"),
    ("textgrid", [f"{FIX}/textgrid"], "--phones-txt"),
    ("textgrid", [f"{FIX}/textgrid"], "--words-txt"),
    ("zr", [f"{FIX}/zr/example.phn", f"{FIX}/zr/example.wrd"], "--segments"),
])
def test_options_outside_their_format_refused(tmp_path, capsys, fmt, inputs, opt):
    val = f"{FIX}/ctm/segments" if opt == "--segments" else f"{FIX}/ctm/phones.txt"
    code, err = call([opt, val, "--format", fmt, *inputs, tmp_path / "d"], capsys)
    assert code == 1 and len(err.strip().splitlines()) == 1
    only = "ctm and textgrid" if opt == "--segments" else "ctm"
    assert err.strip().endswith(f"error: {opt} applies to --format {only} only, not to --format {fmt} "
                                "(its labels and times are used as they are)")
    assert not (tmp_path / "d").exists()
