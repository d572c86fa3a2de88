"""Discovered-class preparation (termeval/classes/parse.py, steps/prepare_classes.sh)."""
from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest

from termeval.classes.parse import COUNT_NAMES, parse_class_file, read_reco2dur, \
    write_class_dir
from termeval.core.datadir import load_classes, load_gold
from termeval.core.errors import InputError
from termeval.core.textio import fast_fmt_times, fmt_time


def make_data_dir(path: str, durations: dict[str, float], spk_chars: int = 1) -> str:
    """A tiny prepared gold data dir (the 5 files) with one SIL phone/one word per file."""
    os.makedirs(path, exist_ok=True)
    files = sorted(durations)
    with open(os.path.join(path, "reco2dur"), "w") as f:
        f.writelines(f"{k} {fmt_time(durations[k])}\n" for k in files)
    with open(os.path.join(path, "phones"), "w") as f:
        f.writelines(f"{k} 0 {fmt_time(durations[k])} SIL\n" for k in files)
    with open(os.path.join(path, "words"), "w") as f:
        f.writelines(f"{k} 0 {fmt_time(durations[k])} w\n" for k in files)
    with open(os.path.join(path, "utt2spk"), "w") as f:
        f.writelines(f"{k} {k[:spk_chars]}\n" for k in files)
    spk: dict[str, list[str]] = {}
    for k in files:
        spk.setdefault(k[:spk_chars], []).append(k)
    with open(os.path.join(path, "spk2utt"), "w") as f:
        f.writelines(f"{s} {' '.join(u)}\n" for s, u in sorted(spk.items()))
    return path


DURS = {"A01": 10.0, "B02": 5.5}


@pytest.fixture
def data(tmp_path):
    return make_data_dir(str(tmp_path / "data"), DURS)


def write(tmp_path, name: str, text: str | bytes) -> str:
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text)
    return str(p)


def read(path: str) -> str:
    with open(path) as f:
        return f.read()


def prepare(root, data, cls, exp, *opts):
    return subprocess.run(["steps/prepare_classes.sh", *opts, data, cls, exp], cwd=root,
                          capture_output=True, text=True)


# Everything real submissions contain: tabs, CRLF, runs of spaces, several blank lines,
# `Class 3:`, extra header text, a header right after a class, an empty class, no final blank.
MESSY = (b"Class 0 [i,j,E,O]\r\n"
         b"A01\t0.1\t0.50\r\n"
         b"B02   1.25  2\r\n"
         b"\r\n\r\n\r\n"
         b"Class 3:\n"
         b"A01 3.0 3.3\n"
         b"Class 7\n"
         b"\n"
         b"class 8 extra text\n"
         b"B02 0.000001 5.5\n"
         b"B02 0.000001 5.5")


def test_messy_but_valid(tmp_path, data):
    path = write(tmp_path, "messy.class", MESSY)
    prep = parse_class_file(path, read_reco2dur(data))
    assert prep.names == ["0", "3", "8"]
    assert prep.starts.tolist() == [0, 2, 3, 5]
    assert prep.counts["classes_read"] == 4
    assert prep.counts["classes_empty"] == 1
    assert prep.counts["fragments_duplicate_in_class"] == 1
    assert prep.counts["classes_singleton"] == 1
    assert "empty classes" in prep.notes[0] and "line 9" in prep.notes[0]
    out = str(tmp_path / "exp" / "classes")
    write_class_dir(prep, out)
    assert read(os.path.join(out, "segments")) == (
        "c0000000-0000000 A01 0.1 0.5\n"
        "c0000000-0000001 B02 1.25 2\n"
        "c0000001-0000000 A01 3 3.3\n"
        "c0000002-0000000 B02 0.000001 5.5\n"
        "c0000002-0000001 B02 0.000001 5.5\n")
    assert fmt_time(1e-6) == "0.000001"
    assert read(os.path.join(out, "utt2class")).splitlines()[1] == "c0000000-0000001 c0000000"
    assert read(os.path.join(out, "class2utt")) == (
        "c0000000 c0000000-0000000 c0000000-0000001\nc0000001 c0000001-0000000\n"
        "c0000002 c0000002-0000000 c0000002-0000001\n")
    assert read(os.path.join(out, "class_names")) == "c0000000 0\nc0000001 3\nc0000002 8\n"
    assert not os.path.exists(os.path.join(out, "discarded"))
    counts = dict(line.split() for line in read(os.path.join(out, "counts")).splitlines())
    assert list(counts) == list(COUNT_NAMES)
    assert counts["fragments_written"] == "5"
    # the data.py loader reads it back with the exact doubles
    gold = load_gold(data)
    cl = load_classes(out, gold)
    assert cl.cls.tolist() == [0, 0, 1, 2, 2]
    assert cl.onset.tolist() == [0.1, 1.25, 3.0, 1e-6, 1e-6]
    assert cl.offset.tolist() == [0.5, 2.0, 3.3, 5.5, 5.5]
    assert [gold.files[f] for f in cl.file] == ["A01", "B02", "A01", "B02", "B02"]
    assert cl.names == ["0", "3", "8"]


def test_times_are_exact_doubles():
    x = np.array([0.1, 0.3 - 0.2, 1 / 3, 1e-7, 2.0, 1234.5678901234567, 5e-324])
    assert fast_fmt_times(x) == [fmt_time(v) for v in x.tolist()]
    assert [float(s) for s in fast_fmt_times(x)] == x.tolist()


def test_unknown_files_all_listed(tmp_path, data):
    path = write(tmp_path, "u.class", "Class 1\nA01 1 2\nA99 1 2\nB12 0 1\n\nClass 2\nA99 3 4\nA01 1 2\n")
    with pytest.raises(InputError) as e:
        parse_class_file(path, read_reco2dur(data))
    msg = str(e.value)
    assert msg.startswith(f"{path}:3: 3 fragments with 2 unknown file ids")
    assert "A99 (2 fragments, first at line 3), B12 (1 fragment, first at line 4)" in msg
    assert "\n" not in msg


@pytest.mark.parametrize("text, line, needle", [
    ("Class 1\nA01 2 1\n", 2, "onset >= offset"),
    ("Class 1\nA01 2 2\n", 2, "onset >= offset"),
    ("Class 1\nA01 -0.5 1\n", 2, "finite and non-negative"),
    ("Class 1\nA01 nan 1\n", 2, "finite and non-negative"),
    ("Class 1\nA01 -0 1\nA01 -1e-9 1\n", 3, "finite and non-negative"),
    ("Class 1\nA01 1 inf\n", 2, "finite and non-negative"),
    ("Class 1\nA01 1 2\nB02 5 5.6\n", 3, "ends after the end of file B02 (5.5 s"),
    ("A01 1 2\nClass 1\nA01 1 2\n", 1, "before any 'Class' header"),
    ("Class 1\nA01 1 2\n\nB02 1 2\n", 4, "outside a class"),
    ("Class 1\nA01 1 2\n\nClass 1:\nB02 1 2\n", 4, "duplicate class id '1:' (first at line 1)"),
    ("Class 01\nA01 1 2\n\nClass 1\nB02 1 2\n", 4, "duplicate class id"),
    ("Class 1\nA01 1 2 0.5\n", 2, "got 4 fields"),
    ("Class 1\nA01 1 x\n", 2, "offset 'x' is not a number"),
    ("Class\nA01 1 2\n", 1, "without an id"),
])
def test_strict_errors(tmp_path, data, text, line, needle):
    path = write(tmp_path, "bad.class", text)
    with pytest.raises(InputError) as e:
        parse_class_file(path, read_reco2dur(data))
    assert e.value.line == line and e.value.path == path
    assert needle in e.value.message


def test_tolerance_and_empty(tmp_path, data):
    ok = write(tmp_path, "ok.class", "Class 1\nB02 5 5.5000005\n")
    prep = parse_class_file(ok, read_reco2dur(data))
    assert prep.offset.tolist() == [5.5000005]        # within 1e-6: kept unchanged
    for text in ("", "\n\n  \n", "Class 1\n\nClass 2\n"):
        with pytest.raises(InputError, match="empty class file|no fragment left"):
            parse_class_file(write(tmp_path, "e.class", text), read_reco2dur(data))


LENIENT = ("B02 0.5 1\n"                # 1 outside (before any header)
           "Class 1\n"
           "A01 1 2\n"                  # 3 kept
           "A99 1 2\n"                  # 4 unknown
           "A01 3 2\n"                  # 5 bad
           "B02 5 6.25\n"               # 6 truncated to 5.5
           "\n"
           "Class 1\n"                  # 8 duplicate id: kept as a separate class
           "B02 6 7\n"                  # 9 wholly beyond the end: dropped -> class emptied
           "\n"
           "Class 2\n"
           "A01 0 nan\n"                # 12 bad
           "B02 0 1\n"                  # 13 kept
           "\n"
           "Class 3\n"
           "\n")


def test_lenient_counts(tmp_path, data, root):
    path = write(tmp_path, "l.class", LENIENT)
    exp = str(tmp_path / "exp")
    r = prepare(root, data, path, exp)
    assert r.returncode == 1 and "l.class:1: fragment line before any 'Class' header" in r.stderr
    assert not os.path.exists(os.path.join(exp, "classes"))
    assert not os.path.exists(os.path.join(exp, "scores"))
    r = prepare(root, data, path, exp, "--lenient", "true")
    assert r.returncode == 0, r.stderr
    d = os.path.join(exp, "classes")
    assert read(os.path.join(d, "segments")) == (
        "c0000000-0000000 A01 1 2\nc0000000-0000001 B02 5 5.5\nc0000001-0000000 B02 0 1\n")
    assert read(os.path.join(d, "class_names")) == "c0000000 1\nc0000001 2\n"
    assert read(os.path.join(d, "discarded")) == (
        "1 dropped outside_class B02 0.5 1\n"
        "4 dropped unknown_file A99 1 2\n"
        "5 dropped bad_interval A01 3 2\n"
        "6 truncated beyond_end B02 5 6.25 5.5\n"
        "9 dropped beyond_end B02 6 7\n"
        "12 dropped bad_interval A01 0 nan\n")
    expected = {"classes_read": 4, "fragments_read": 8, "classes_written": 2, "fragments_written": 3,
                "classes_empty": 1, "classes_emptied": 1, "classes_duplicate_id": 1,
                "classes_singleton": 1, "fragments_duplicate_in_class": 0,
                "fragments_dropped_unknown_file": 1, "fragments_dropped_bad_interval": 2,
                "fragments_dropped_outside_class": 1, "fragments_dropped_beyond_end": 1,
                "fragments_truncated_beyond_end": 1, "fragments_clipped_to_end": 0}
    assert read(os.path.join(d, "counts")) == "".join(f"{k} {v}\n" for k, v in expected.items())
    assert read(os.path.join(exp, "scores", "prepare")) == read(os.path.join(d, "counts"))
    with open(os.path.join(exp, "scores", "scores.json")) as f:
        js = json.load(f)
    assert "benchmark" not in js and js["fragments_dropped_unknown_file"] == 1
    assert js["stages"]["prepare"]["benchmark"] is None
    assert {k: js[k] for k in expected} == expected
    assert os.path.isfile(os.path.join(exp, "log", "prepare_classes.log"))
    # a later strict run that fails leaves the previous output untouched
    before = read(os.path.join(d, "segments"))
    assert prepare(root, data, path, exp).returncode == 1
    assert read(os.path.join(d, "segments")) == before
    # a later strict success replaces the dir (no stale 'discarded')
    assert prepare(root, data, write(tmp_path, "g.class", "Class 5\nA01 1 2\n"), exp).returncode == 0
    assert sorted(os.listdir(d)) == ["class2utt", "class_names", "counts", "segments", "utt2class"]


def test_pairs(tmp_path, data, root):
    path = write(tmp_path, "p.txt", "A01 1 2 B02 3 4 0.9\n\nA01 5 6\tA01 7 8.5\nB02 0 1 A01 0.25 1 -3\n")
    prep = parse_class_file(path, read_reco2dur(data))
    assert prep.fmt == "pairs"
    assert prep.names == ["1", "3", "4"]
    assert prep.starts.tolist() == [0, 2, 4, 6]
    assert prep.file == ["A01", "B02", "A01", "A01", "B02", "A01"]
    assert prep.onset.tolist() == [1, 3, 5, 7, 0, 0.25]
    with pytest.raises(InputError, match="score 'x' is not a number"):
        parse_class_file(write(tmp_path, "q.txt", "A01 1 2 B02 3 4 x\n"), read_reco2dur(data))
    with pytest.raises(InputError) as e:
        parse_class_file(write(tmp_path, "q.txt", "A01 1 2 B02 3 4\nA01 1 2 B02 3\n"), read_reco2dur(data))
    assert e.value.line == 2
    # explicit --format pairs through the script; lenient drops one side of a pair
    exp = str(tmp_path / "exp")
    r = prepare(root, data, write(tmp_path, "r.txt", "A01 1 2 C03 3 4\n"), exp,
                "--format", "pairs", "--lenient", "true")
    assert r.returncode == 0, r.stderr
    assert read(os.path.join(exp, "classes", "segments")) == "c0000000-0000000 A01 1 2\n"


def test_script_usage_and_errors(tmp_path, data, root):
    r = subprocess.run(["steps/prepare_classes.sh"], cwd=root, capture_output=True, text=True)
    assert r.returncode == 1 and "Usage: steps/prepare_classes.sh" in r.stderr
    r = subprocess.run(["steps/prepare_classes.sh", "--help"], cwd=root, capture_output=True, text=True)
    assert r.returncode == 0 and "--lenient" in r.stderr
    bad = write(tmp_path, "b.class", "Class 1\nA01 2 1\n")
    r = prepare(root, data, bad, str(tmp_path / "exp"))
    assert r.returncode == 1
    errs = [x for x in r.stderr.splitlines() if ": error: " in x]
    assert errs == [f"prepare_classes.py: error: {bad}:2: bad fragment 'A01 2 1': onset >= offset; "
                    "use --lenient true to drop it"]
    assert "Traceback" not in r.stderr
    r = prepare(root, str(tmp_path / "nodata"), bad, str(tmp_path / "exp"))
    assert r.returncode == 1 and "nodata: no such directory" in r.stderr


def test_kamper_mandarin_strict(shared, tmp_path):
    """The real ZR2017 Mandarin submission prepares unchanged in strict mode."""
    zr = os.path.join(shared, "data", "zr17")
    dur: dict[str, float] = {}
    with open(os.path.join(zr, "mandarin.phn")) as f:
        for line in f:
            name, _, off, _ = line.split()
            dur[name] = max(dur.get(name, 0.0), float(off))
    data = make_data_dir(str(tmp_path / "data"), dur, spk_chars=3)
    prep = parse_class_file(os.path.join(zr, "kamper_mandarin.class"), read_reco2dur(data))
    c = prep.counts
    assert (c["classes_read"], c["fragments_read"]) == (2987, 28033)
    assert (c["classes_written"], c["fragments_written"]) == (2987, 28033)
    assert c["classes_singleton"] == 806
    assert sum(v for k, v in c.items() if "dropped" in k or "truncated" in k) == 0
    # fragments end at most at the last phone (trailing SIL included) of their file
    last = np.array([dur[f] for f in prep.file])
    assert np.all(prep.offset <= last)
    out = str(tmp_path / "exp" / "classes")
    write_class_dir(prep, out)
    cl = load_classes(out, load_gold(data))
    assert len(cl) == 28033 and len(cl.keys) == 2987


# ---------------------------------------------------------------------------------------------
# --end-tolerance: submissions write 3 decimals where gold ends have 4 (ZR2017: a fragment
# `B02 453.338 453.738` in a file that ends at 453.7375)

END_PHN = ("A01 0 0.1 a\nA01 0.1 0.2375 b\nA01 0.2375 0.3125 c\nA01 0.3125 0.4375 a\n"
           "B02 0 0.0625 SIL\nB02 0.0625 0.1875 c\nB02 0.1875 0.3 a\nB02 0.3 0.4535 b\nB02 0.4535 0.7375 c\n")
END_WRD = "A01 0.1 0.3125 x\nA01 0.3125 0.4375 y\nB02 0.0625 0.3 y\nB02 0.3 0.7375 z\n"
END_CLASSES = ("Class 0\nA01 0.101 0.313\nB02 0.3 0.738\nB02 0.454 0.738\n\n"
               "Class 1\nA01 0.3125 0.438\nB02 0.063 0.3\nA01 0.2 0.44\n\n")


def test_end_tolerance_clips_and_counts(tmp_path, data):
    dur = read_reco2dur(data)      # A01 10, B02 5.5
    path = write(tmp_path, "e.class", "Class 1\nB02 5 5.505\nB02 5.4 5.51\nA01 1 2\n\n")
    prep = parse_class_file(path, dur)
    assert prep.offset.tolist() == [5.5, 5.5, 2.0]          # clipped to reco2dur
    assert prep.counts["fragments_clipped_to_end"] == 2
    assert prep.counts["fragments_truncated_beyond_end"] == 0 and prep.counts["fragments_written"] == 3
    assert any("clipped 2 fragments" in n and "line 2" in n for n in prep.notes)
    with pytest.raises(InputError, match="--end-tolerance 0.01") as e:    # beyond one frame: error
        parse_class_file(write(tmp_path, "f.class", "Class 1\nB02 5 5.5101\n"), dur)
    assert e.value.line == 2
    with pytest.raises(InputError, match="ends after the end"):     # --end-tolerance 0: as before
        parse_class_file(path, dur, end_tolerance=0.0)
    with pytest.raises(InputError, match="ends after the end"):     # wholly past the end: not clipped
        parse_class_file(write(tmp_path, "g.class", "Class 1\nB02 5.502 5.505\n"), dur)
    lenient = parse_class_file(path, dur, lenient=True, end_tolerance=0.0)
    assert lenient.counts["fragments_truncated_beyond_end"] == 2 and lenient.offset.tolist() == [5.5, 5.5, 2.0]


def test_end_tolerance_matches_tdev2(tmp_path):
    """Scores of a submission with 3-decimal ends past 4-decimal file ends equal tdev2's on the
    raw file (tdev2 accepts it; we clip to the file end, which changes no covered phone)."""
    from tde_reference import reference, reference_scores, same
    from termeval.tde.zrc2020.stats import score
    from termeval.tde.zrc2020.testing import write_data_dir
    R = reference()
    paths = {"x.phn": write(tmp_path, "x.phn", END_PHN), "x.wrd": write(tmp_path, "x.wrd", END_WRD),
             "x.class": write(tmp_path, "x.class", END_CLASSES)}
    ref = reference_scores(R, paths)
    data = write_data_dir(paths["x.phn"], paths["x.wrd"], str(tmp_path / "data"))
    prep = parse_class_file(paths["x.class"], read_reco2dur(data))
    assert prep.counts["fragments_clipped_to_end"] == 4
    write_class_dir(prep, str(tmp_path / "exp" / "classes"))
    gold = load_gold(data)
    ours, _ = score(gold, load_classes(str(tmp_path / "exp" / "classes"), gold))
    diff = {k: (ours[k], ref[k]) for k in ref if not same(ours[k], ref[k])}
    assert not diff
    assert ref["boundary_precision"] > 0 and ref["token_precision"] > 0 and ref["ned_pairs"] > 0


# ---------------------------------------------------------------------------------------------
# One class-file tokenizer: the zrc2020 preparation, the zr2015/zr2017 reader and the test
# helper read a messy file (tabs, CRLF, runs of spaces, `Class 3:`, BOM) like its clean form.

CLEAN = "Class 0 [i,j,E,O]\nA01 0.1 0.5\nB02 1.25 2\n\nClass 3\nA01 3.0 3.3\nB02 0 1\n\n"
DIRTY = ("\ufeffClass 0 [i,j,E,O]\r\nA01\t0.1\t0.5\r\nB02   1.25  2\r\n\r\n"
         "class 3:\nA01 3.0 \t3.3\nB02 0 1   \n\n")


def test_one_tokenizer_for_every_benchmark(tmp_path, data):
    from termeval.tde.zr2015.classfile import read_classfile
    from termeval.tde.zrc2020.testing import parse_classes
    clean = write(tmp_path, "clean.class", CLEAN)
    dirty = write(tmp_path, "dirty.class", DIRTY.encode("utf-8"))
    a, b = parse_class_file(clean, read_reco2dur(data)), parse_class_file(dirty, read_reco2dur(data))
    assert (a.names, a.file, a.onset.tolist(), a.offset.tolist()) == (b.names, b.file, b.onset.tolist(),
                                                                      b.offset.tolist())
    assert a.names == ["0", "3"] and len(a) == 4
    index = {"A01": 0, "B02": 1}
    r, s = read_classfile(clean, index), read_classfile(dirty, index)
    assert r.names == s.names == ["0 [i,j,E,O]", "3"]
    for k in ("cls", "file", "onset", "offset"):
        assert getattr(r, k).tolist() == getattr(s, k).tolist()
    assert r.onset.tolist() == a.onset.tolist() and r.offset.tolist() == a.offset.tolist()
    assert parse_classes(clean) == parse_classes(dirty) == [
        ("0", [("A01", "0.1", "0.5"), ("B02", "1.25", "2")]), ("3", [("A01", "3.0", "3.3"), ("B02", "0", "1")])]
    with pytest.raises(InputError, match="not a number") as e:   # zr2015 rule on top: numeric ids
        read_classfile(write(tmp_path, "n.class", "Class abc\nA01 0 1\n\n"), index)
    assert e.value.line == 1
