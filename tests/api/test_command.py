"""The termeval command (termeval/command.py): step list, --version, errors, --nj N."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from termeval import __version__
from termeval import command

STEPS = ["compare-systems", "convert-segments", "export-text", "export-zr", "kwseval", "measure-resources", "prepare-classes", "prepare-gold",
         "prepare-kws", "score-discophon", "score-quesst", "score-resources", "score-segmentation", "score-std", "score-tde",
         "score-text-segmentation", "score-units", "score-zrc-submission", "summarize-scores", "text-to-times",
         "validate-alignment-dir"]


def test_help_lists_every_step_with_one_line(capsys):
    assert command.main(["--help"]) == 0
    out = capsys.readouterr().out
    listed = [ln.split()[0] for ln in out.splitlines() if ln.startswith("  ")]
    assert listed == STEPS
    assert "  score-std" in out and "spoken term detection" in out
    assert not any(x in out for x in ("tde-stats", "tde-merge", "score-tde-folds"))
    assert command.main([]) == 2 and "usage: termeval" in capsys.readouterr().err


def test_version_and_unknown_step(capsys):
    assert command.main(["--version"]) == 0
    assert capsys.readouterr().out == f"termeval {__version__}\n"
    assert command.main(["score-wer"]) == 2
    assert capsys.readouterr().err == "termeval: error: unknown step 'score-wer' (termeval --help lists the steps)\n"


def test_step_help_and_error_lines(capsys, tmp_path):
    assert command.main(["score-std", "--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: termeval score-std [-h]")
    assert command.main(["score-tde", "--help"]) == 0
    assert "usage: termeval score-tde" in capsys.readouterr().out
    assert command.main(["score-std", "--nj", "0", "a", "b", "c"]) == 2
    assert "termeval score-std: error: argument --nj: must be a positive integer, got '0'" in capsys.readouterr().err
    assert command.main(["prepare-gold", "--format", "zr", str(tmp_path / "x.phn"), str(tmp_path / "x.wrd"),
                         str(tmp_path / "d")]) == 1
    assert capsys.readouterr().err == f"termeval prepare-gold: error: {tmp_path}/x.phn: no such file or directory\n"
    assert not (tmp_path / "d").exists()


def test_python_m_termeval(root):
    env = dict(os.environ, PYTHONPATH=root)
    r = subprocess.run([sys.executable, "-m", "termeval", "--help"], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and "  score-tde" in r.stdout and r.stderr == ""
    r = subprocess.run([sys.executable, "-c", "import sys, termeval; print(sorted(m for m in sys.modules if "
                        "m.split('.')[0] in ('numpy', 'scipy', 'matplotlib', 'sklearn', 'termeval')))"],
                       capture_output=True, text=True, env=env)
    assert r.stdout.split() == ["['termeval']"]          # import termeval loads nothing heavy


def test_nj_runs_local_jobs_with_the_same_scores(example, tmp_path, capsys):
    gold = os.path.join(example, "data/example")
    cls = os.path.join(example, "data/local/example/classes/example.classes")
    assert command.main(["score-tde", gold, cls, str(tmp_path / "one")]) == 0
    assert command.main(["score-tde", "--nj", "2", gold, cls, str(tmp_path / "two")]) == 0
    for name in ("matching", "clustering", "parsing"):
        assert (tmp_path / "one/scores" / name).read_bytes() == (tmp_path / "two/scores" / name).read_bytes()
    assert os.listdir(tmp_path / "one/log") == ["zrc2020.log"]            # one process, logged
    assert "# Ended (code 0)" in (tmp_path / "one/log/zrc2020.log").read_text()
    logs = set(os.listdir(tmp_path / "two/log"))
    assert logs == {"zrc2020.1.log", "zrc2020.2.log", "zrc2020.merge.log"}   # as steps/score_tde.sh
    assert "# Ended (code 0)" in (tmp_path / "two/log/zrc2020.2.log").read_text()
    one = json.loads((tmp_path / "one/scores/scores.json").read_text())
    assert one["ned"] == json.loads((tmp_path / "two/scores/scores.json").read_text())["ned"]
    # the in-process merge dropped gold arrays it had used (lean): a later call in this process
    # parses the gold again and scores every metric as before
    assert command.main(["score-tde", gold, cls, str(tmp_path / "three")]) == 0
    three = json.loads((tmp_path / "three/scores/scores.json").read_text())
    assert {k: three[k] for k in ("ned", "token_fscore", "boundary_fscore", "type_fscore")} == \
        {k: one[k] for k in ("ned", "token_fscore", "boundary_fscore", "type_fscore")}
    assert one["token_fscore"] is not None


def test_cmd_runs_the_jobs_through_the_launcher_with_the_same_scores(example, root, tmp_path, capsys):
    """42.3: the one N-job plan (prepare, N jobs through the launcher, merge) is the command's too."""
    gold = os.path.join(example, "data/example")
    cls = os.path.join(example, "data/local/example/classes/example.classes")
    assert command.main(["score-tde", gold, cls, str(tmp_path / "one")]) == 0
    assert command.main(["score-tde", "--nj", "2", "--cmd", os.path.join(root, "utils/run.pl"),
                         gold, cls, str(tmp_path / "two")]) == 0
    for name in ("matching", "clustering", "parsing"):
        assert (tmp_path / "one/scores" / name).read_bytes() == (tmp_path / "two/scores" / name).read_bytes()
    assert set(os.listdir(tmp_path / "two/log")) == {"zrc2020.1.log", "zrc2020.2.log", "zrc2020.merge.log"}
    assert not (tmp_path / "two/scores/.summary").exists()


def test_a_failed_step_leaves_its_error_line_in_the_log(example, tmp_path, capsys):
    cls = os.path.join(example, "data/local/example/classes/example.classes")
    assert command.main(["score-tde", str(tmp_path / "nodata"), cls, str(tmp_path / "exp")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("termeval score-tde: error: ") and "nodata" in err[0]
    log = (tmp_path / "exp/log/zrc2020.log").read_text().splitlines()
    assert log[-2] == err[0] and log[-1].startswith("# Ended (code 1)")
    assert os.listdir(tmp_path / "exp") == ["log"]                 # nothing else written


def test_every_step_error_line_is_headed_termeval_step(capsys, tmp_path):
    """issue 31: `termeval <step>: error: ...` for every step (some set their own prog), the
    error line first and at most a one-line usage hint after it."""
    for step in STEPS:
        rc = command.main([step, "--no-such-option", str(tmp_path / "x")])
        err = capsys.readouterr().err.splitlines()
        assert rc != 0 and err and err[0].startswith(f"termeval {step}: error: "), (step, err)
        assert len(err) <= 2 and all(l.startswith(f"Usage: termeval {step} [options]") for l in err[1:]), (step, err)
    zrc = tmp_path / "sub"
    zrc.mkdir()
    assert command.main(["score-zrc-submission", str(zrc)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"termeval score-zrc-submission: error: {zrc}/meta.yaml: missing: a zrc submission needs meta.yaml "
        "(score_zrc_submission --init <dir> writes the template to fill in, no network needed)"]


def test_a_reader_that_stops_early_ends_it_quietly():
    """`termeval --help | head -1`: no BrokenPipeError traceback, the shell's 141."""
    import subprocess
    import sys
    p = subprocess.Popen([sys.executable, "-m", "termeval", "--help"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait() in (0, 141) and "Traceback" not in err and "Broken pipe" not in err
