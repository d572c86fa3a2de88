"""termeval.run.launcher, the one launcher: local processes capped at the core count (a note),
a failed job named by its own error line."""
from __future__ import annotations

import pytest

from termeval.core.errors import InputError
from termeval.run import launcher


def test_cap_notes_more_than_the_cores(capsys, monkeypatch):
    monkeypatch.setattr(launcher, "cores", lambda: 2)
    assert launcher.cap(99999999999, "score_zrc_submission", "jobs (njobs)") == 2
    assert capsys.readouterr().err == ("score_zrc_submission: note: 99999999999 jobs (njobs) asked, 2 cores "
                                       "here: at most 2 at a time\n")
    assert launcher.cap(1) == 1 and capsys.readouterr().err == ""


def test_a_failed_job_is_its_error_line(tmp_path):
    with pytest.raises(InputError) as e:
        launcher.run_local("validate_alignment_dir", [[str(tmp_path)], [str(tmp_path / "b")]])
    assert str(e.value) == f"2 / 2 jobs failed; job 1: {tmp_path}: missing file phones"
    logs = [str(tmp_path / "log" / f"v.{j}.log") for j in (1, 2)]
    with pytest.raises(InputError) as e:
        launcher.run_local("validate_alignment_dir", [[str(tmp_path)], [str(tmp_path)]], logs)
    assert str(e.value) == f"2 / 2 jobs failed; job 1: {tmp_path}: missing file phones (log: {logs[0]})"
    assert open(logs[1]).read().startswith("# ")


def test_jobs_through_a_kaldi_launcher(root, tmp_path):
    import os
    from termeval.gold import prepare_zr
    (tmp_path / "x.phn").write_text("f1 0.0 0.2 a\nf1 0.2 0.4 b\n")
    (tmp_path / "x.wrd").write_text("f1 0.0 0.4 ab\n")
    prepare_zr(str(tmp_path / "x.phn"), str(tmp_path / "x.wrd"), str(tmp_path / "data"))
    log = str(tmp_path / "log" / "v.JOB.log")
    launcher.run_cmd(os.path.join(root, "utils", "run.pl"), "validate_alignment_dir", [str(tmp_path / "data")], 2, log)
    assert sorted(os.listdir(tmp_path / "log")) == ["v.1.log", "v.2.log"]
    # a failed job: its own error line and log (each failed job's line before the last one's)
    with pytest.raises(InputError, match=rf"{tmp_path}: missing file phones \(log: .*v\.2\.log\)$"):
        launcher.run_cmd(os.path.join(root, "utils", "run.pl"), "validate_alignment_dir", [str(tmp_path)], 2, log)


def test_arguments_reach_the_job_through_a_kaldi_launcher_intact(root, tmp_path):
    """run.pl joins its arguments with spaces and runs bash: a path with whitespace, a quote,
    $ or ; arrives as it was given (quote_for_launcher), or the argument is refused."""
    import os
    import sys
    from termeval.gold import prepare_zr
    (tmp_path / "x.phn").write_text("f1 0.0 0.2 a\nf1 0.2 0.4 b\n")
    (tmp_path / "x.wrd").write_text("f1 0.0 0.4 ab\n")
    for name in ("a b", "it's", "x;y", "$HOME", 'say "hi"'):
        prepare_zr(str(tmp_path / "x.phn"), str(tmp_path / "x.wrd"), str(tmp_path / name))
        log = str(tmp_path / "log" / "e.JOB.log")
        launcher.run_cmd(os.path.join(root, "utils", "run.pl"), "validate_alignment_dir", [str(tmp_path / name)], 1,
                         log)
        assert f"{tmp_path / name}: OK" in (tmp_path / "log" / "e.1.log").read_text(), name
    with pytest.raises(InputError, match="cannot pass this argument through a job launcher"):
        launcher.quote_for_launcher("it's \"x\" $y")
    with pytest.raises(InputError, match="must not contain 'JOB'"):
        launcher.run_cmd(sys.executable, "x", ["exp/JOBS/x"], 2, str(tmp_path / "l.JOB.log"))
