"""The one job protocol (termeval/run/driver.py) on a toy stage: split, shards, guard, outputs, lock."""
from __future__ import annotations

import json
import os
import re
import types

import numpy as np
import pytest

from termeval.run import driver as jobs
from termeval.core.errors import InputError
from termeval.core.stage import Report, is_share


class SumStage:
    """Toy benchmark: units are numbers; the statistic is their sum and count."""
    name = "toy"
    outputs = ("scores", "details")

    def __init__(self, fail_report: bool = False):
        self.fail_report = fail_report

    def load(self, args):
        return np.asarray(args.values, np.int64)

    def identity(self, ctx):
        return {"n": int(len(ctx))}

    def costs(self, ctx):
        return np.abs(ctx).astype(float)

    def compute(self, ctx, lo, hi):
        return jobs.Shard({"count": hi - lo}, {"sum": np.asarray([ctx[lo:hi].sum()], np.int64)})

    def merge(self, ctx, shards):
        return sum(s.meta["count"] for s in shards), int(sum(int(s.arrays["sum"][0]) for s in shards))

    def report(self, ctx, merged, out):
        count, total = merged
        os.makedirs(os.path.join(out, "scores"))
        with open(os.path.join(out, "scores", "toy"), "w") as f:
            f.write(f"count {count}\nsum {total}\n")
        if self.fail_report:
            raise InputError("disk full (simulated)")
        return Report({"count": count, "sum": total}, f"toy: sum {total}")


class ToyOptions(types.SimpleNamespace):
    """A toy step's options: its values, no path (Options.paths)."""

    def paths(self, role):
        return [self.path] if role == "input" and getattr(self, "path", None) else []


def args_of(values):
    return ToyOptions(values=values)


def test_balanced_ranges_cover_all_units_contiguously():
    r = jobs.balanced_ranges(np.array([5, 1, 1, 1, 5, 1]), 3)
    assert r[0][0] == 0 and r[-1][1] == 6
    assert all(a[1] == b[0] for a, b in zip(r, r[1:]))
    # cost + 1 per unit: cumulative 6 8 10 12 18 20; cut after the first unit reaching 20/3, 40/3
    assert r == [(0, 2), (2, 5), (5, 6)]
    assert jobs.balanced_ranges(np.array([1.0]), 3) == [(0, 1), (1, 1), (1, 1)]
    assert jobs.balanced_ranges(np.array([]), 2) == [(0, 0), (0, 0)]


def test_jobs_and_merge_equal_one_process(tmp_path, capsys):
    vals = list(range(-7, 30))
    one = jobs.run(SumStage(), args_of(vals), str(tmp_path / "a"))
    assert one == {"count": 37, "sum": sum(vals)}
    for j in (1, 2, 3, 4, 5):
        assert jobs.run(SumStage(), args_of(vals), str(tmp_path / "b"), nj=5, job=j, run_id="r1") is None
    assert len(os.listdir(tmp_path / "b" / "jobs")) == 5
    merged = jobs.run(SumStage(), args_of(vals), str(tmp_path / "b"), merge=5, run_id="r1")
    assert merged == one
    assert not (tmp_path / "b" / "jobs").exists()          # shards removed after the merge
    assert (tmp_path / "a" / "scores" / "toy").read_text() == (tmp_path / "b" / "scores" / "toy").read_text()
    assert (tmp_path / "b" / "scores" / ".summary").read_text() == f"toy: sum {sum(vals)}\n"
    assert not (tmp_path / "a" / "scores" / ".summary").exists()   # one process prints it itself
    assert capsys.readouterr().out.splitlines() == [f"toy: sum {sum(vals)}"] * 2


def test_more_jobs_than_units_empty_shards(tmp_path):
    for j in (1, 2, 3, 4):
        jobs.run(SumStage(), args_of([4, 5]), str(tmp_path), nj=4, job=j)
    assert jobs.run(SumStage(), args_of([4, 5]), str(tmp_path), merge=4, echo=False) == {"count": 2, "sum": 9}


def test_stale_shards_are_refused(tmp_path):
    d = str(tmp_path)
    for j in (1, 2):
        jobs.run(SumStage(), args_of([1, 2, 3]), d, nj=2, job=j, run_id="old")
    with pytest.raises(InputError, match="another run .run = 'old', expected 'new'"):
        jobs.run(SumStage(), args_of([1, 2, 3]), d, merge=2, run_id="new")
    with pytest.raises(InputError, match="another run .identity"):   # other inputs
        jobs.run(SumStage(), args_of([1, 2, 3, 4]), d, merge=2, run_id="old")
    with pytest.raises(InputError, match=r"another run \(nj = 2, expected 3\)"):   # other split
        jobs.run(SumStage(), args_of([1, 2, 3]), d, merge=3, run_id="old")
    os.unlink(jobs.shard_path(d, "toy", 2))
    with pytest.raises(InputError, match="toy.2.npz: job output not found"):
        jobs.run(SumStage(), args_of([1, 2, 3]), d, merge=2, run_id="old")


def test_truncated_shard_is_one_error(tmp_path):
    d = str(tmp_path)
    jobs.run(SumStage(), args_of([1, 2]), d, nj=1, job=1)
    p = jobs.shard_path(d, "toy", 1)
    data = open(p, "rb").read()
    open(p, "wb").write(data[: len(data) // 2])
    with pytest.raises(InputError, match="unreadable job output"):
        jobs.run(SumStage(), args_of([1, 2]), d, merge=1)


def test_a_run_owns_its_outputs_and_a_failed_run_leaves_the_old_ones(tmp_path):
    d = tmp_path / "exp"
    jobs.run(SumStage(), args_of([1, 2]), str(d), echo=False)
    (d / "details").mkdir()
    (d / "details" / "stale.tsv").write_text("from an earlier run\n")
    (d / "classes").mkdir()                      # not owned by the stage: kept
    jobs.run(SumStage(), args_of([5]), str(d), echo=False)
    assert (d / "scores" / "toy").read_text() == "count 1\nsum 5\n"
    assert not (d / "details").exists()          # owned, not written by this run: removed
    assert (d / "classes").is_dir()
    with pytest.raises(InputError, match="disk full"):
        jobs.run(SumStage(fail_report=True), args_of([7, 7]), str(d))
    assert (d / "scores" / "toy").read_text() == "count 1\nsum 5\n"
    assert sorted(os.listdir(d)) == ["classes", "scores"]   # no temp dir, no lock left


def test_no_exp_dir_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert jobs.run(SumStage(), args_of([3]), None, echo=False) == {"count": 1, "sum": 3}
    assert os.listdir(tmp_path) == []


def test_one_run_per_exp_dir(tmp_path, monkeypatch):
    d = tmp_path / "exp"
    d.mkdir()
    # a live process of this host holds it: refused, naming the pid
    (d / jobs.LOCK_NAME).write_text(f"{os.getppid()} {__import__('socket').gethostname()}\n")
    with pytest.raises(InputError, match=rf"is being written by another run \(pid {os.getppid()}\)"):
        jobs.run(SumStage(), args_of([1]), str(d))
    # held by the calling shell step (TERMEVAL_LOCKED): runs
    monkeypatch.setenv(jobs.LOCK_ENV, str(d.resolve()))
    assert jobs.run(SumStage(), args_of([1]), str(d), echo=False)["sum"] == 1
    monkeypatch.delenv(jobs.LOCK_ENV)
    # a stale lock (dead pid) is taken over and released
    (d / jobs.LOCK_NAME).write_text(f"999999999 {__import__('socket').gethostname()}\n")
    assert jobs.run(SumStage(), args_of([2]), str(d), echo=False)["sum"] == 2
    assert not (d / jobs.LOCK_NAME).exists()


def test_lock_held_by_the_shell_through_a_symlinked_path(tmp_path, monkeypatch):
    """te_lock exports the physical path (pwd -P); the step's Python may be given a symlink."""
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    (real / jobs.LOCK_NAME).write_text(f"{os.getppid()} {__import__('socket').gethostname()}\n")
    monkeypatch.setenv(jobs.LOCK_ENV, str(real.resolve()))
    assert jobs.run(SumStage(), args_of([4]), str(tmp_path / "link" / "exp" / ".."), echo=False)["sum"] == 4
    assert (real / jobs.LOCK_NAME).exists()          # the shell's lock is left to the shell


class LazyLineStage:
    """Toy lazy stage: units are the lines of a file of numbers; a job's `load` reads the
    number of lines only (a header line), `compute` reads its lines (recorded in `read`)."""
    name = "lazy"
    outputs = ("scores",)

    def __init__(self):
        self.read: list[int] = []

    def load(self, args):
        with open(args.path) as f:
            n = int(f.readline())
            values = [int(x) for x in f] if not is_share() else None
        if values is not None:
            self.read.extend(range(n))
        return {"path": args.path, "n": n, "values": values}

    def identity(self, ctx):
        return {"n": ctx["n"]}

    def costs(self, ctx):
        return np.ones(ctx["n"])

    def compute(self, ctx, lo, hi):
        vals = ctx["values"]
        if vals is None:                      # a job: its own lines only
            with open(ctx["path"]) as f:
                lines = f.read().splitlines()[1 + lo:1 + hi]
            self.read.extend(range(lo, hi))
            vals = [0] * lo + [int(x) for x in lines]
        return jobs.Shard({"count": hi - lo}, {"sum": np.asarray([sum(vals[lo:hi])], np.int64)})

    merge = SumStage.merge

    def report(self, ctx, merged, out):
        os.makedirs(os.path.join(out, "scores"))
        with open(os.path.join(out, "scores", "lazy"), "w") as f:
            f.write(f"count {merged[0]}\nsum {merged[1]}\n")
        return Report({"count": merged[0], "sum": merged[1]}, f"toy: sum {merged[1]}")


def test_lazy_stage_jobs_read_their_share_only(tmp_path):
    vals = [4, -2, 9]
    src = tmp_path / "values"
    src.write_text(f"{len(vals)}\n" + "".join(f"{v}\n" for v in vals))
    one = LazyLineStage()
    args = ToyOptions(path=str(src))
    assert jobs.run(one, args, str(tmp_path / "a"), echo=False) == {"count": 3, "sum": 11}
    assert one.read == [0, 1, 2]
    nj = 5                                     # more jobs than lines: two empty shares
    ranges = jobs.balanced_ranges(np.ones(3), nj)
    for j in range(1, nj + 1):
        st = LazyLineStage()
        a = ToyOptions(path=str(src))
        assert jobs.run(st, a, str(tmp_path / "b"), nj=nj, job=j, run_id="r") is None
        assert st.read == list(range(*ranges[j - 1]))
    st = LazyLineStage()
    m = ToyOptions(path=str(src))
    assert jobs.run(st, m, str(tmp_path / "b"), merge=nj, run_id="r", echo=False) == {"count": 3, "sum": 11}
    assert st.read == []                      # the merge reads shards, no line
    assert (tmp_path / "a" / "scores" / "lazy").read_bytes() == (tmp_path / "b" / "scores" / "lazy").read_bytes()


# ----------------------------------------------------------------------------- the output guard

def test_the_guard_reads_the_options_roles_and_stage_paths(tmp_path):
    """driver.io_paths: a stage's own io_paths(opts), else the Options' roles (paths());
    outputs = the owned ones under the exp dir."""
    exp = tmp_path / "exp"
    (exp / "scores").mkdir(parents=True)
    gold = exp / "scores" / "gold.txt"
    gold.write_text("x\n")

    class Opts(types.SimpleNamespace):
        def paths(self, role):
            return [str(gold)] if role == "input" else [str(exp)]
    with pytest.raises(InputError, match=r"exp/scores: the output of toy contains its input .*gold.txt"):
        jobs.run(SumStage(), Opts(values=[1]), str(exp))
    assert gold.read_text() == "x\n"

    class Own(SumStage):            # its own inputs: `gold` is not one of them
        def io_paths(self, args):
            return [args.reads], [str(tmp_path / "summary.json")]
    jobs.check_io(Own(), ToyOptions(values=[1], gold=str(gold), reads=str(tmp_path / "a")), str(exp))
    with pytest.raises(InputError, match="summary.json: the output of toy is its input"):
        jobs.check_io(Own(), ToyOptions(reads=str(tmp_path / "summary.json")), str(exp))


def test_an_exp_dir_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "exp").write_text("x\n")
    with pytest.raises(InputError, match="exp: exists and is not a directory"):
        jobs.run(SumStage(), args_of([1]), str(tmp_path / "exp"))
    assert (tmp_path / "exp").read_text() == "x\n"


TIMING_LINE = r"termeval-timing: (\S+) load \d+\.\d{3} kernel \d+\.\d{3} report \d+\.\d{3} page \d+\.\d{3}"


def test_timing_line_only_with_the_variable(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(jobs.TIMING_ENV, raising=False)
    jobs.run(SumStage(), args_of([1, 2]), str(tmp_path / "a"))
    jobs.run_task("task", str(tmp_path / "t"), ["x"], lambda out: os.makedirs(os.path.join(out, "x")))
    err = capsys.readouterr().err
    assert "termeval-timing" not in err
    assert sorted(os.listdir(tmp_path / "a")) == ["scores"]           # no timing file either
    monkeypatch.setenv(jobs.TIMING_ENV, "1")
    jobs.run(SumStage(), args_of([1, 2]), str(tmp_path / "b"))
    jobs.run_task("task", str(tmp_path / "u"), ["x"], lambda out: os.makedirs(os.path.join(out, "x")))
    lines = [line for line in capsys.readouterr().err.splitlines() if "termeval-timing" in line]
    assert [re.fullmatch(TIMING_LINE, line).group(1) for line in lines] == ["toy", "task"]
    for j in (1, 2):   # jobs and the merge do not print it
        jobs.run(SumStage(), args_of([1, 2]), str(tmp_path / "c"), nj=2, job=j, run_id="r")
    jobs.run(SumStage(), args_of([1, 2]), str(tmp_path / "c"), merge=2, run_id="r")
    assert "termeval-timing" not in capsys.readouterr().err
