"""Issues 30 §3 and 31: a step never destroys its own inputs, never removes what is not its
output, and never leaves a lock, a temporary or half an output behind.

The output guard (termeval.core.guard, called by the driver for every scoring stage and by
prepare_kws, text_to_times and export_text) refuses, with one line naming both paths and
before anything is written, an output that is or contains an input, and an output directory
that exists as a file; the one lock (termeval.core.lock, the shell's te_lock) takes over an
empty lock left by a run killed or starved of disk space; the one publish (termeval.core.publish)
removes the temporaries of dead runs and gives outputs the user's umask; multi-file outputs
appear whole or not at all on a full disk."""
from __future__ import annotations

import errno
import json
import os
import socket
import stat
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from test_job_paths import step, work  # noqa: E402,F401  (the tiny corpus and step runner)

from termeval.core import lock, publish  # noqa: E402
from termeval.core.errors import InputError  # noqa: E402

DATA_FILES = ("phones", "words", "reco2dur", "utt2spk")


def snapshot(d) -> dict[str, bytes]:
    return {n: (d / n).read_bytes() for n in sorted(os.listdir(d)) if (d / n).is_file()}


def util(root, cwd, name, *args):
    return subprocess.run([os.path.join(root, "utils", name), *args], cwd=cwd, capture_output=True, text=True)


def last_line(r) -> str:
    return r.stderr.strip().splitlines()[-1]


# ----------------------------------------------------------------------------- prepare_kws

@pytest.mark.parametrize("out", ["data", "."])
def test_prepare_kws_into_its_data_dir_or_a_parent_is_refused(root, work, out):
    (work / "kw.txt").write_text("ab\nd\n")
    before = snapshot(work / "data")
    r = step(root, work, "prepare_kws.sh", "--keywords", "kw.txt", "data", out)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    what = "is its input data" if out == "data" else "contains its input data"
    assert last_line(r) == (f"prepare_kws.py: error: {out}: the output of prepare_kws {what}: it would be "
                            + ("overwritten" if out == "data" else "deleted when the output is replaced")
                            + "; choose another output")
    assert snapshot(work / "data") == before and (work / "x.class").is_file()


def test_prepare_kws_inside_the_data_dir_stays_allowed(root, work):
    (work / "kw.txt").write_text("ab\nd\n")
    before = snapshot(work / "data")
    r = step(root, work, "prepare_kws.sh", "--keywords", "kw.txt", "data", "data/kws")
    assert r.returncode == 0, r.stderr
    assert (work / "data" / "kws" / "ecf.xml").is_file()
    assert snapshot(work / "data") == before


# ----------------------------------------------------------------------------- text segmentation

def texts(work):
    (work / "gold.txt").write_text("ab c\nd e\n")
    (work / "seg.txt").write_text("a b c\nde\n")


def test_summary_onto_the_gold_is_refused(root, work):
    texts(work)
    r = step(root, work, "score_text_segmentation.sh", "--summary", "gold.txt", "gold.txt", "seg.txt", "exp/t")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert last_line(r) == ("score_text_segmentation.py: error: gold.txt: the output of text_segmentation is "
                            "its input gold.txt: it would be overwritten; choose another output")
    assert (work / "gold.txt").read_text() == "ab c\nd e\n"
    assert not (work / "exp" / "t" / "scores").exists()


@pytest.mark.parametrize("nj", ["1", "2"])
@pytest.mark.parametrize("name,inp", [("score_tde.sh", "x.class"), ("score_segmentation.sh", "seg.txt")])
def test_the_data_dir_as_exp_dir_is_refused_before_any_job(root, work, name, inp, nj):
    """report.html would be a file among the data dir's files: refused before the jobs and the
    class preparation, which used to write classes/, tde/ and jobs/ there first."""
    before = sorted(os.listdir(work / "data"))
    r = step(root, work, name, "--nj", nj, "data", inp, "data")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "error: data/report.html: the output of " in last_line(r)
    assert last_line(r).endswith(" is a file in its input directory data, whose files it reads: it could "
                                 "overwrite one; choose another output")
    assert sorted(n for n in os.listdir(work / "data") if n != "log") == before      # the refusal's log aside


@pytest.mark.parametrize("where", ["scores", "details"])
def test_an_input_inside_the_outputs_is_refused(root, work, where):
    texts(work)
    (work / "exp" / "t" / where).mkdir(parents=True)
    os.replace(work / "seg.txt", work / "exp" / "t" / where / "seg.txt")
    r = step(root, work, "score_text_segmentation.sh", "gold.txt", f"exp/t/{where}/seg.txt", "exp/t")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert last_line(r) == (f"score_text_segmentation.py: error: exp/t/{where}: the output of text_segmentation "
                            f"contains its input exp/t/{where}/seg.txt: it would be deleted when the output is "
                            "replaced; choose another output")
    assert (work / "exp" / "t" / where / "seg.txt").read_text() == "a b c\nde\n"


@pytest.mark.parametrize("nj", ["1", "2"])
def test_summary_inside_the_scores_dir_is_written(root, work, nj):
    texts(work)
    r = step(root, work, "score_text_segmentation.sh", "--nj", nj, "--summary", "exp/t/scores/summary.json",
             "gold.txt", "seg.txt", "exp/t")
    assert r.returncode == 0, r.stderr
    got = json.loads((work / "exp" / "t" / "scores" / "summary.json").read_text())
    assert got == json.loads((work / "exp" / "t" / "details" / "text_segmentation" / "summary.json").read_text())
    assert (work / "exp" / "t" / "scores" / "wordseg_eval.txt").is_file()


def test_text_to_times_onto_its_segmented_text_is_refused(root, work):
    r = util(root, work, "export_text.sh", "data", "text")
    assert r.returncode == 0, r.stderr
    (work / "times").mkdir()
    (work / "times" / "classes").write_text("ab\nd e\n")
    r = util(root, work, "text_to_times.sh", "text", "times/classes", "times")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert last_line(r) == ("text_to_times.py: error: times/classes: the output of text_to_times is its input "
                            "times/classes: it would be overwritten; choose another output")
    assert (work / "times" / "classes").read_text() == "ab\nd e\n"
    assert not (work / "times" / "intervals").exists()


# ----------------------------------------------------------------------------- exp dir as a file

@pytest.mark.parametrize("nj", ["1", "2"])
def test_scores_as_a_regular_file_is_refused_not_removed(root, work, nj):
    (work / "exp" / "x").mkdir(parents=True)
    (work / "exp" / "x" / "scores").write_text("my notes\n")
    r = step(root, work, "score_tde.sh", "--nj", nj, "data", "x.class", "exp/x")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "exp/x/scores: exists and is not a directory" in last_line(r)
    assert (work / "exp" / "x" / "scores").read_text() == "my notes\n"


# ----------------------------------------------------------------------------- the lock

def test_an_empty_stale_lock_is_taken_over_by_the_shell(root, work):
    exp = work / "exp" / "x"
    exp.mkdir(parents=True)
    (exp / lock.LOCK_NAME).write_text("")                 # a run starved of disk space left it
    t = time.time() - 60
    os.utime(exp / lock.LOCK_NAME, (t, t))
    r = step(root, work, "score_tde.sh", "data", "x.class", "exp/x")
    assert r.returncode == 0, r.stderr
    assert not (exp / lock.LOCK_NAME).exists() and (exp / "scores" / "scores.json").is_file()


def test_a_young_empty_lock_is_a_run_starting(root, work):
    exp = work / "exp" / "x"
    exp.mkdir(parents=True)
    (exp / lock.LOCK_NAME).write_text("")
    r = step(root, work, "score_tde.sh", "data", "x.class", "exp/x")
    assert r.returncode == 1
    assert last_line(r) == (f"score_tde.sh: error: exp/x is being written by another run (pid ?); "
                            f"if it is not, remove {exp.resolve()}/{lock.LOCK_NAME}")


def test_the_shells_lock_on_a_read_only_file_system_is_one_line(root, work):
    """The shell's te_lock (with --cmd; without, the step's one Python process takes the same
    lock) is the Python lock: its error names the file-system problem (not bash's "No such file
    or directory", not "being written by another run")."""
    ro = work / "sub"
    ro.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(ro)],
                                           capture_output=True).returncode != 0:
        pytest.skip("needs root and mount for a read-only file system (chmod does not stop root)")
    try:
        (ro / "english.txt").write_text("Class 1\nf1 0.1 0.5\nf2 0 0.4\n")
        subprocess.run(["mount", "-o", "remount,ro", str(ro)], check=True)
        r = step(root, work, "score_zrc_submission.sh", "--cmd", os.path.join(root, "utils", "run.pl"), "sub")
        r1 = step(root, work, "score_zrc_submission.sh", "sub")
    finally:
        subprocess.run(["umount", str(ro)], check=True)
    for got, prog in ((r, "score_zrc_submission.sh"), (r1, "score_zrc_submission.py")):
        assert got.returncode == 1 and "No such file or directory" not in got.stderr
        assert last_line(got) == (f"{prog}: error: {ro.resolve()}/{lock.LOCK_NAME}: cannot create "
                                  "the lock file (read-only file system)")


def test_the_lock_entry_of_the_shell(root, tmp_path):
    """python -m termeval.run.lock take|release <dir> <pid> (utils/termeval_lib.sh te_lock)."""
    def lk(*a):
        return subprocess.run([sys.executable, "-m", "termeval.run.lock", *a], capture_output=True, text=True,
                              cwd=root)
    holder = subprocess.Popen(["sleep", "30"])
    try:
        assert lk("take", str(tmp_path), str(holder.pid)).returncode == 0
        r = lk("take", str(tmp_path), "1", "exp/x")
        assert r.returncode == 1 and r.stderr == (
            f"exp/x is being written by another run (pid {holder.pid} on {socket.gethostname()}); "
            f"if it is not, remove {tmp_path.resolve()}/{lock.LOCK_NAME}\n")
        assert lk("release", str(tmp_path), str(holder.pid)).returncode == 0
        assert not (tmp_path / lock.LOCK_NAME).exists()
    finally:
        holder.kill()
        holder.wait()


# ----------------------------------------------------------------------------- full disk

def test_export_text_on_a_full_disk_writes_no_file(work, monkeypatch):
    from termeval.bin import export_text
    from termeval.textseg import export

    def full(*a, **k):           # while utt_phones, the last of the three files, is written
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(export, "fast_fmt_times", full)
    with pytest.raises(OSError):
        export_text.main([str(work / "data"), str(work / "text")])
    assert os.listdir(work / "text") == []          # no gold.txt without its utt_phones


def test_text_to_times_on_a_full_disk_leaves_the_old_pair(root, work, monkeypatch):
    from termeval.bin import export_text, text_to_times
    export_text.main([str(work / "data"), str(work / "text")])
    (work / "seg.txt").write_text("ab\nd e\n")
    text_to_times.main([str(work / "text"), str(work / "seg.txt"), str(work / "times")])
    before = snapshot(work / "times")
    (work / "seg2.txt").write_text("a b\nde\n")
    real_open = os.open

    def full_open(path, flags, *a, **k):     # the disk fills up when the class file is written
        if flags & os.O_WRONLY and os.path.basename(str(path)).endswith(".classes"):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real_open(path, flags, *a, **k)
    monkeypatch.setattr("os.open", full_open)
    with pytest.raises(OSError):
        text_to_times.main([str(work / "text"), str(work / "seg2.txt"), str(work / "times")])
    monkeypatch.undo()
    assert snapshot(work / "times") == before and sorted(os.listdir(work / "times")) == ["classes", "intervals"]


def test_scoring_on_a_full_disk_is_one_line(root, work, monkeypatch, capsys):
    """A report that cannot be written: `<step>: error: <the file in the exp dir>: ...`, exit 1,
    no traceback, no temporary, the old scores kept."""
    from termeval.bin import score_segmentation
    from termeval.core import scores as core_scores
    from termeval.run.cli import run
    exp = work / "exp" / "s"
    score_segmentation.main([str(work / "data"), str(work / "seg.txt"), str(exp)])
    before = snapshot(exp / "scores")
    real = core_scores.atomic_write

    def full(path, *a, **k):
        raise OSError(errno.ENOSPC, "No space left on device", path)
    monkeypatch.setattr(core_scores, "atomic_write", full)
    monkeypatch.setattr(sys, "argv", ["score_segmentation.py"])
    with pytest.raises(SystemExit) as e:
        run(score_segmentation.main, [str(work / "data"), str(work / "seg.txt"), str(exp)])
    monkeypatch.setattr(core_scores, "atomic_write", real)
    err = capsys.readouterr().err.strip().splitlines()
    assert e.value.code == 1 and "Traceback" not in "\n".join(err)
    assert err[-1].startswith(f"score_segmentation.py: error: [Errno 28] No space left on device: '{exp}/scores/")
    assert snapshot(exp / "scores") == before
    assert not [n for n in os.listdir(exp) if n.startswith(".")]


def test_run_pl_with_an_unwritable_log_is_one_line(root, tmp_path):
    """utils/run.pl (the default launcher) on a full disk or a bad log path: one line, no traceback."""
    (tmp_path / "file").write_text("x")
    r = subprocess.run([os.path.join(root, "utils", "run.pl"), "JOB=1:2", str(tmp_path / "file" / "x.JOB.log"),
                        "true"], capture_output=True, text=True)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert sorted(ln.rsplit(": ", 1)[0] for ln in lines[:2]) == [
        f"run.pl: error: cannot write the log {tmp_path}/file/x.{j}.log" for j in (1, 2)]
    assert lines[2:] == [f"run.pl: 2 / 2 failed, log is in {tmp_path}/file/x.*.log"]
