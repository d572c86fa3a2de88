"""The API speaks Python (issue 40 item 17): an error names the Python argument (`lenient=True`,
`keywords=FILE`), not the command line's option (`--lenient true`), and an in-memory row by its
index (`classes[0][1]`), not a line of a temporary file; a warning is headed with termeval's
function (`score_tde: warning:`), not the caller's script name (its text is the one every face
prints and scores.json keeps). The command line keeps its words."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

import termeval


def test_errors_name_the_python_argument_and_the_row(example, tmp_path):
    gold = os.path.join(example, "data/example")
    file = open(os.path.join(gold, "reco2dur"), encoding="utf-8").readline().split()[0]
    classes = [[(file, 0.0, 0.3), (file, 0.5, 9999.0)]]          # beyond the file's end
    with pytest.raises(termeval.InputError) as e:
        termeval.score_tde(gold, classes)
    msg = str(e.value)
    assert msg.startswith("classes[0][1]: ") and "use lenient=True to" in msg and "--lenient" not in msg
    assert termeval.score_tde(gold, classes, lenient=True)["classes_read"] == 1
    with pytest.raises(termeval.InputError) as e:
        termeval.prepare_kws(gold, tmp_path / "kws")
    assert str(e.value) == "give exactly one of keywords=FILE and kwlist=XML"
    with pytest.raises(termeval.InputError) as e:
        termeval.score_tde(gold, classes, benchmark="zr2015-doc", bootstrap=10)
    assert str(e.value) == "bootstrap: not available with benchmark='zr2015-doc'"


def test_the_command_line_keeps_its_words(example, tmp_path, root):
    gold = os.path.join(example, "data/example")
    r = subprocess.run([sys.executable, "-m", "termeval", "prepare-kws", gold, str(tmp_path / "kws")],
                       capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=root))
    assert r.stderr.splitlines()[-1] == ("termeval prepare-kws: error: give exactly one of --keywords FILE and "
                                         "--kwlist XML")
    r = subprocess.run([os.path.join(root, "steps", "score_tde.sh"), "--benchmark", "zr2015-doc", "--bootstrap", "10",
                        gold, "x.class", str(tmp_path / "e")], capture_output=True, text=True)
    assert r.stderr.splitlines()[-1] == "score_tde.sh: error: --bootstrap: not available with --benchmark zr2015-doc"


def test_warnings_are_headed_by_the_function(example, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["/home/me/my_notebook_script.py"])
    gold = os.path.join(example, "data/example")
    termeval.score_segmentation(gold, os.path.join(example, "data/local/example/classes/example.classes"),
                                tolerance=0.15)
    err = capsys.readouterr().err
    # the heading is the function's; the warning itself is the one every face prints and
    # scores.json keeps (tests/api/test_face_warnings.py)
    assert "score_segmentation: warning: --tolerance 0.15 s is larger" in err
    assert "my_notebook_script" not in err
