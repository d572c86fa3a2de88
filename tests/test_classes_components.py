"""`prepare_classes --pairs-clustering components`: pairs merged into connected components."""
from __future__ import annotations

import os
import subprocess

import pytest

from termeval.bin import prepare_classes
from termeval.core.errors import InputError


def write(tmp_path, pairs: str):
    data = tmp_path / "data"
    data.mkdir()
    (data / "reco2dur").write_text("a 10\nb 10\nc 10\n")
    p = tmp_path / "sys.pairs"
    p.write_text(pairs)
    return str(data), str(p)


PAIRS = ("a 0 1 b 0 1 0.9\n"        # line 1: A-B
         "c 2 3 c 5 6 0.8\n"        # line 2: C-D  (own component)
         "b 0 1 a 4 5 0.7\n"        # line 3: B-E  (joins A's component)
         "a 4 5 a 0 1\n")           # line 4: E-A  (already joined)


def classes_of(exp):
    segs = [l.split() for l in open(os.path.join(exp, "classes", "segments"))]
    out = {}
    for frag, f, a, b in segs:
        out.setdefault(frag.rsplit("-", 1)[0], []).append((f, float(a), float(b)))
    names = dict(l.split() for l in open(os.path.join(exp, "classes", "class_names")))
    return [(names[k], v) for k, v in sorted(out.items())]


def test_components_are_classes(tmp_path):
    data, pairs = write(tmp_path, PAIRS)
    prepare_classes.main(["--pairs-clustering", "components", data, pairs, str(tmp_path / "exp")])
    assert classes_of(str(tmp_path / "exp")) == [
        ("1", [("a", 0, 1), ("b", 0, 1), ("a", 4, 5)]),       # A, B, E: each fragment once
        ("2", [("c", 2, 3), ("c", 5, 6)])]


def test_default_one_class_per_pair(tmp_path):
    data, pairs = write(tmp_path, PAIRS)
    prepare_classes.main([data, pairs, str(tmp_path / "exp")])
    got = classes_of(str(tmp_path / "exp"))
    assert [n for n, _ in got] == ["1", "2", "3", "4"] and all(len(v) == 2 for _, v in got)


def test_components_of_a_class_file_is_an_error(tmp_path):
    data, _ = write(tmp_path, PAIRS)
    cf = tmp_path / "sys.class"
    cf.write_text("Class 1\na 0 1\nb 0 1\n")
    with pytest.raises(InputError, match="--pairs-clustering components"):
        prepare_classes.main(["--pairs-clustering", "components", data, str(cf), str(tmp_path / "exp")])


def test_step_refuses_an_unknown_choice(tmp_path, root):
    data, pairs = write(tmp_path, PAIRS)
    r = subprocess.run([os.path.join(root, "steps/prepare_classes.sh"), "--pairs-clustering", "graph",
                        data, pairs, str(tmp_path / "exp")], capture_output=True, text=True)
    assert r.returncode != 0 and "pairs-clustering" in r.stderr


def test_score_tde_prepares_components(tmp_path):
    from termeval.bin import score_tde
    data, pairs = write(tmp_path, PAIRS)
    for f in ("phones", "words"):
        (tmp_path / "data" / f).write_text("a 0 5 x\na 5 10 y\nb 0 10 x\nc 0 10 y\n")
    (tmp_path / "data" / "utt2spk").write_text("a a\nb b\nc c\n")
    score_tde.main(["--benchmark", "lrec2014", "--folds", "none", "--pairs-clustering", "components",
                    data, pairs, str(tmp_path / "exp")])
    assert [n for n, _ in classes_of(str(tmp_path / "exp"))] == ["1", "2"]


def test_self_pair_is_a_singleton_class_and_counted(tmp_path):
    """A pairs line whose two fragments are identical: a one-fragment class, counted in
    classes_singleton (was 0)."""
    from termeval.classes.components import pairs_to_components
    from termeval.classes.parse import parse_class_file
    data, pairs = write(tmp_path, PAIRS + "c 7 8 c 7 8 0.5\n")
    prep = pairs_to_components(parse_class_file(pairs, {"a": 10.0, "b": 10.0, "c": 10.0}))
    sizes = list(prep.starts[1:] - prep.starts[:-1])
    assert sizes == [3, 2, 1] and prep.counts["classes_singleton"] == 1
    prepare_classes.main(["--pairs-clustering", "components", data, pairs, str(tmp_path / "exp")])
    assert classes_of(str(tmp_path / "exp"))[-1] == ("5", [("c", 7, 8)])
    assert "classes_singleton 1\n" in (tmp_path / "exp" / "scores" / "prepare").read_text() + "\n"
