"""Issue 12: bad inputs give one line naming the culprit (file and line, or the option), exit
status 1 (2 for usage errors), no traceback, nothing written; the Kaldi file readers are one
strict module (termeval.core.kaldi_files)."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from termeval.core import kaldi_files
from termeval.core.datadir import file_starts, load_gold
from termeval.core.errors import InputError
from termeval.gold import read_textgrid_dir, read_zr

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def run(root, module, *args):
    r = subprocess.run([sys.executable, "-m", f"termeval.bin.{module}", *map(str, args)], cwd=root,
                       capture_output=True, text=True)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def one_line_error(r, code=1):
    assert r.returncode == code, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    if code == 2:       # argparse: the error line, then a one-line usage hint
        assert lines[-1].startswith("Usage: ") and lines[-1].endswith("(--help for options)"), r.stderr
        lines = lines[:-1]
    assert len(lines) == 1, r.stderr
    return lines[0]


TG_HEAD = 'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\nxmax = 1\ntiers? <exists>\nsize = 2\nitem []:\n'


def tier(i: int, name: str, size: str, xmax: str = "1") -> str:
    return (f'    item [{i}]:\n        class = "IntervalTier"\n        name = "{name}"\n        xmin = 0\n'
            f'        xmax = 1\n        intervals: size = {size}\n        intervals [1]:\n'
            f'            xmin = 0\n            xmax = {xmax}\n            text = "a"\n')


@pytest.mark.parametrize("size,xmax,line,needle", [
    ("1e400", "1", 14, "OverflowError"),          # int(inf): was a traceback
    ("1", "1e400", 15, "not a finite number"),   # line of 'intervals [1]:'
])
def test_textgrid_huge_numbers(tmp_path, root, size, xmax, line, needle):
    d = tmp_path / "tg"
    d.mkdir()
    (d / "a.TextGrid").write_text(TG_HEAD + tier(1, "phones", size, xmax) + tier(2, "words", "1"))
    with pytest.raises(InputError) as e:
        read_textgrid_dir(str(d))
    assert e.value.line == line and needle in e.value.message
    r = run(root, "prepare_gold", "--format", "textgrid", d, tmp_path / "out")
    assert f"a.TextGrid:{line}:" in one_line_error(r)
    assert not (tmp_path / "out").exists()


def test_nul_byte_in_phn(tmp_path, root):
    phn = tmp_path / "x.phn"
    phn.write_bytes(b"f 0 1 a\nf 1 2 b\x00c\n")
    with pytest.raises(InputError, match="NUL byte") as e:
        read_zr(str(phn))
    assert e.value.line == 2
    wrd = tmp_path / "x.wrd"
    wrd.write_text("f 0 2 w\n")
    r = run(root, "prepare_gold", "--format", "zr", phn, wrd, tmp_path / "out")
    assert "x.phn:2: NUL byte" in one_line_error(r)


@pytest.mark.parametrize("name,text,line,needle", [
    ("reco2dur", "a 1\nb 1e400\n", 2, "not a finite number"),      # too large to convert
    ("reco2dur", "a 1\nb 0\n", 2, "zero duration"),
    ("reco2dur", "a 1\na 2\n", 2, "duplicate id 'a'"),
    ("reco2dur", "a 1 2\n", 1, "expected '<id> <duration>'"),
    ("utt2dur", "a nan\n", 1, "not a finite number"),
    ("segments", "u r 0 1\nu r 1 2\n", 2, "duplicate utterance id"),
    ("segments", "u r 2 1\n", 1, "end is not after its start"),
    ("utt2spk", "u s\nu t\n", 2, "duplicate file id"),
    ("phones.txt", "a 0\nb ²\n", 2, "not a non-negative integer"),
])
def test_kaldi_file_readers(tmp_path, name, text, line, needle):
    p = tmp_path / name
    p.write_text(text)
    reader = {"reco2dur": kaldi_files.read_durations, "utt2dur": kaldi_files.read_durations,
              "segments": kaldi_files.read_segments, "utt2spk": kaldi_files.read_utt2spk,
              "phones.txt": kaldi_files.read_symbol_table}[name]
    with pytest.raises(InputError) as e:
        reader(str(p))
    assert e.value.path == str(p) and e.value.line == line and needle in e.value.message


def test_std_kaldi_delegates(tmp_path):
    from termeval.std.kaldi_refs import read_durations, read_segments
    (tmp_path / "segments").write_text("u1 r 0.5 1\nu2 r 1 -1\n")
    assert read_segments(str(tmp_path / "segments")) == {"u1": ("r", 0.5), "u2": ("r", 1.0)}
    (tmp_path / "utt2dur").write_text("u1 0\nu2 2.5\n")
    assert read_durations(str(tmp_path / "utt2dur")) == {"u1": 0.0, "u2": 2.5}
    (tmp_path / "utt2dur").write_text("u1 1e999\n")
    with pytest.raises(InputError, match="utt2dur:1: duration '1e999' is not a finite number"):
        read_durations(str(tmp_path / "utt2dur"))


def test_load_gold_bad_reco2dur(tmp_path, root):
    data = tmp_path / "data"
    r = run(root, "prepare_gold", "--format", "zr", f"{FIX}/zr/example.phn", f"{FIX}/zr/example.wrd", data)
    assert r.returncode == 0, r.stderr
    g = load_gold(str(data))
    assert g.duration.tolist() == [1.6, 3.35]
    assert g.phones.starts.tolist() == file_starts(g.phones.file, 2).tolist()
    (data / "reco2dur").write_text("s01-rec1 1.6\ns02-rec2 abc\n")
    with pytest.raises(InputError, match="reco2dur:2: duration 'abc' is not a number"):
        load_gold(str(data))
    (data / "reco2dur").write_text("s01-rec1 1.6\ns02-rec2 3.35\n")
    (data / "phones").write_text("s01-rec1 x 1 SIL\n")
    with pytest.raises(InputError, match="phones:1: onset 'x' is not a number"):
        load_gold(str(data))


def test_file_starts():
    assert file_starts(np.array([0, 0, 2, 2, 2]), 4).tolist() == [0, 2, 2, 5, 5]
    assert file_starts(np.zeros(0, np.int64), 2).tolist() == [0, 0, 0]


@pytest.mark.parametrize("module,args,needle", [
    ("score_tde", ["--workers", "0", "d", "c", "e"], "argument --workers: must be a positive integer, got '0'"),
    ("score_tde", ["--workers", "abc", "d", "c", "e"], "argument --workers: expected an integer, got 'abc'"),
    ("score_tde", ["--nj", "1.5", "d", "c", "e"], "argument --nj: expected an integer"),
    ("score_quesst", ["--default-score", "nan", "k", "d", "e"], "argument --default-score: expected a finite number or 'min'"),
    ("score_quesst", ["--p-target", "1", "k", "d", "e"], "argument --p-target: must lie strictly between 0 and 1"),
    ("score_std", ["--tolerance", "-1", "k", "d", "e"], "argument --tolerance: must be >= 0, got '-1'"),
    ("score_std", ["--default-score", "inf", "k", "d", "e"], "argument --default-score: expected a finite number"),
    ("prepare_classes", ["--tolerance", "-1", "d", "c", "e"], "argument --tolerance: must be >= 0"),
    ("prepare_classes", ["--end-tolerance", "nan", "d", "c", "e"], "argument --end-tolerance: expected a finite number"),
    ("prepare_gold", ["--format", "zr", "--time-decimals", "12", "a", "b", "c"], "argument --time-decimals: must be an integer from 0 to 9"),
    ("validate_alignment_dir", ["--boundary-tolerance", "-0.1", "d"], "argument --boundary-tolerance: must be >= 0"),
    ("score_resources", ["--lambda", "2", "k", "e"], "argument --lambda: must lie in [0, 1]"),
    ("score_resources", ["--audio-duration", "0", "k", "e"], "argument --audio-duration: must be > 0"),
    ("score_tde", ["--job", "0", "d", "c", "e"], "argument --job: must be a positive integer"),
    ("score_tde", ["--merge", "-2", "d", "c", "e"], "argument --merge: must be a positive integer"),
    ("score_tde", ["--benchmark", "zr2099", "d", "c", "e"], "argument --benchmark: invalid choice"),
    ("measure_resources", ["--interval", "0", "e", "index", "--", "true"], "argument --interval: must be > 0"),
])
def test_numeric_options_checked_at_parse_time(root, module, args, needle):
    r = run(root, module, *args)
    assert needle in one_line_error(r, code=2)


RESOURCES = "[audio]\nt_omega_s = 3600\nt_query_s = 10\n[index]\ncpu_s = 5\npmu_gb = 1\n[report]\nlambda = 0.1\n"


@pytest.mark.parametrize("text,line,needle", [
    (RESOURCES.replace("lambda = 0.1", "lambda = nan"), 8, "lambda = 'nan' must be a finite"),
    (RESOURCES.replace("lambda = 0.1", "lambda = abc"), 8, "lambda = 'abc' is not a number"),
    (RESOURCES.replace("t_omega_s = 3600", "t_omega_s = 0"), 2, "t_omega_s = '0' must be a finite positive"),
    (RESOURCES.replace("t_query_s = 10", "t_query_s = NaN"), 3, "t_query_s = 'NaN' must be"),
    (RESOURCES.replace("cpu_s = 5", "cpu_s = 5s"), 5, "cpu_s = '5s' is not a number"),
    (RESOURCES.encode().replace(b"3600", b"36\xe900"), 2, "not valid UTF-8"),
    (b"\x00\x01binary\xff", 1, "not valid UTF-8"),
    (b"[audio]\nt_omega_s = 1\x00\n", 2, "NUL byte"),
])
def test_resources_file_errors_name_file_and_line(tmp_path, root, text, line, needle):
    conf = tmp_path / "r.conf"
    conf.write_bytes(text if isinstance(text, bytes) else text.encode())
    (tmp_path / "kws").mkdir()
    r = run(root, "score_resources", "--resources-file", conf, tmp_path / "kws", tmp_path / "exp")
    msg = one_line_error(r)
    assert f"{conf}:{line}: " in msg and needle in msg, msg
    assert not (tmp_path / "exp" / "scores").exists()


def test_long_lines_are_cut(tmp_path):
    p = tmp_path / "x.phn"
    p.write_text("f 0 1 a " + "b " * 5000 + "\n")
    with pytest.raises(InputError) as e:
        read_zr(str(p))
    assert len(str(e.value)) < 300
    long = InputError("got '" + "y" * 10_000 + "' and " + "z" * 10_000, "f", 3)
    s = str(long)
    assert len(s) < 600 and "(10000 characters)" in s and s.startswith("f:3: got 'yyy")
    assert str(InputError("tab\there\x00", "f")) == "f: tab\\x09here\\x00"


def test_quesst_unknown_query_names_detection_file(tmp_path, root):
    kws = tmp_path / "kws"
    kws.mkdir()
    (kws / "documents").write_text("d1\nd2\n")
    (kws / "queries").write_text("q1\n")
    (kws / "targets").write_text("q1 d1\n")
    det = tmp_path / "det.txt"
    det.write_text("q1 d1 1.0\nq9 d2 0.5\n")
    r = run(root, "score_quesst", "--default-score", "-10", kws, det, tmp_path / "exp")
    msg = one_line_error(r)
    assert f"error: {det}: 1 query id(s) of the system output are not in the reference" in msg, msg


def test_message_token_splits_like_the_tokeniser(tmp_path):
    """A non-ASCII space (U+00A0) is part of a field, not a separator, in every message too."""
    from termeval.core import kaldi_files
    p = tmp_path / "reco2dur"
    p.write_bytes("\u00a0 -11.5\nf2 3.25\n".encode("utf-8"))
    with pytest.raises(InputError) as e:
        kaldi_files.read_durations(str(p))
    assert e.value.format() == f"{p}:1: negative duration -11.5 (durations must be > 0)"
