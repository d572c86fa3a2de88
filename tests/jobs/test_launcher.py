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
    with pytest.raises(InputError, match="the jobs failed through"):
        launcher.run_cmd(os.path.join(root, "utils", "run.pl"), "validate_alignment_dir", [str(tmp_path)], 2, log)
