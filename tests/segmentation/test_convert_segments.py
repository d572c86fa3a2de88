"""utils/convert_segments.sh's readers (termeval.segmentation.convert): s-malan's .list files,
SD-HuBERT's .npy dicts (pickle only with --allow-pickle, numpy parts only), unit sequences;
good input gives the interval file, bad input one line naming the file, exit 1."""
from __future__ import annotations

import numpy as np
import pytest

from termeval.bin import convert_segments
from termeval.run.cli import run


def convert(capsys, *argv) -> tuple[int, str]:
    with pytest.raises(SystemExit) as e:
        run(convert_segments.main, [str(a) for a in argv])
    return e.value.code or 0, capsys.readouterr().err


def test_malan_lists(tmp_path, capsys):
    (tmp_path / "l" / "sub").mkdir(parents=True)
    (tmp_path / "l" / "sub" / "u1.list").write_text("0.5 3\n1.25 7\n2.0 3\n")
    (tmp_path / "l" / "u2.list").write_text("0.3 1\n")
    code, err = convert(capsys, "--from", "malan-list", tmp_path / "l", tmp_path / "out")
    assert code == 0, err
    assert (tmp_path / "out").read_text() == "u1 0 0.5 3\nu1 0.5 1.25 7\nu1 1.25 2.0 3\nu2 0 0.3 1\n"
    (tmp_path / "l" / "u3.list").write_text("0.3\n")            # no labels: 3 columns
    code, err = convert(capsys, "--from", "malan-list", tmp_path / "l" / "u3.list", tmp_path / "out3")
    assert code == 0 and (tmp_path / "out3").read_text() == "u3 0 0.3\n"


@pytest.mark.parametrize("text,message", [
    ("0.5 1\n0.4 2\n", "u.list:2: end 0.4 is not after the previous end 0.5"),
    ("0.5 1\n0.9\n", "u.list:2: either every line has a label or none has"),
    ("abc 1\n", "u.list:1: time 'abc' is not a number"),
    ("0.5 1 2\n", "u.list:1: expected '<end seconds> [<label>]'"),
])
def test_malan_bad(tmp_path, capsys, text, message):
    (tmp_path / "u.list").write_text(text)
    code, err = convert(capsys, "--from", "malan-list", tmp_path, tmp_path / "out")
    assert code == 1 and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out").exists()


def test_units(tmp_path, capsys):
    (tmp_path / "u.txt").write_text("a 5 5 5 7 7 3\nb 1 1 1\nc\n")
    code, err = convert(capsys, "--from", "units", "--frame-shift", "0.1", tmp_path / "u.txt", tmp_path / "out")
    assert code == 0, err
    assert (tmp_path / "out").read_text() == "a 0 0.3 5\na 0.3 0.5 7\na 0.5 0.6 3\nb 0 0.3 1\n"
    (tmp_path / "u.txt").write_text("a 1 2\na 3\n")
    code, err = convert(capsys, "--from", "units", "--frame-shift", "0.02", tmp_path / "u.txt", tmp_path / "o2")
    assert code == 1 and "u.txt:2: utterance 'a' already on line 1" in err
    code, err = convert(capsys, "--from", "units", tmp_path / "u.txt", tmp_path / "o2")
    assert code == 2 and "--from units needs --frame-shift" in err


def save_dict(path, d):
    np.save(path, d, allow_pickle=True)


def test_sdhubert_npy(tmp_path, capsys):
    d = tmp_path / "npy" / "a"
    d.mkdir(parents=True)
    save_dict(d / "u1.npy", {"segments": np.array([[0.0, 0.3], [0.3, 0.72]]), "length": 36,
                             "segment_features": np.array([[0.0, 1.0], [5.0, 5.0]]), "features": np.zeros((36, 2))})
    np.save(tmp_path / "npy" / "u2.npy", np.array([[0.1, 0.2]]))          # a plain array: no pickle
    np.save(tmp_path / "cent.npy", np.array([[4.0, 4.0], [0.0, 0.9]]))
    np.save(tmp_path / "red.npy", np.array([10, 20]))
    code, err = convert(capsys, "--from", "sdhubert-npy", tmp_path / "npy", tmp_path / "out")
    assert code == 1 and "u1.npy: holds a pickled object" in err and "--allow-pickle true" in err
    code, err = convert(capsys, "--from", "sdhubert-npy", "--allow-pickle", "true", tmp_path / "npy", tmp_path / "out")
    assert code == 0 and (tmp_path / "out").read_text() == "u1 0 0.3\nu1 0.3 0.72\nu2 0.1 0.2\n"
    (tmp_path / "npy" / "u2.npy").unlink()
    code, err = convert(capsys, "--from", "sdhubert-npy", "--allow-pickle", "true", "--centroids",
                        tmp_path / "cent.npy", "--reducer", tmp_path / "red.npy", tmp_path / "npy", tmp_path / "out")
    assert code == 0 and (tmp_path / "out").read_text() == "u1 0 0.3 20\nu1 0.3 0.72 10\n"


class Evil:
    def __reduce__(self):
        return (print, ("unpickled",))


def test_sdhubert_bad(tmp_path, capsys):
    np.save(tmp_path / "evil.npy", np.array(Evil(), dtype=object), allow_pickle=True)
    code, err = convert(capsys, "--from", "sdhubert-npy", "--allow-pickle", "true", tmp_path / "evil.npy",
                        tmp_path / "out")
    assert code == 1 and "evil.npy: cannot unpickle (UnpicklingError: global 'builtins.print'" in err
    assert "unpickled" not in capsys.readouterr().out
    (tmp_path / "evil.npy").unlink()
    save_dict(tmp_path / "u.npy", {"segments": np.array([0.1, 0.2])})
    code, err = convert(capsys, "--from", "sdhubert-npy", "--allow-pickle", "true", tmp_path, tmp_path / "out")
    assert code == 1 and "u.npy: 'segments' must be a numeric (n, 2) array, got float64 (2,)" in err
    save_dict(tmp_path / "u.npy", {"segments": np.array([[0.3, 0.2]])})
    code, err = convert(capsys, "--from", "sdhubert-npy", "--allow-pickle", "true", tmp_path, tmp_path / "out")
    assert code == 1 and "segment 0: onset must be >= 0 and not after the offset" in err
    (tmp_path / "u.npy").write_bytes(b"not numpy")
    code, err = convert(capsys, "--from", "sdhubert-npy", tmp_path, tmp_path / "out")
    assert code == 1 and "u.npy: not a .npy file" in err
