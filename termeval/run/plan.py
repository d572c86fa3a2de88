"""The one N-job plan of a scoring step, on its Options: prepare once, N jobs through the one
launcher, merge. Every face runs a scoring step through it: the shell steps (`python -m
termeval.bin --nj N --cmd "$cmd" <step> ...`, termeval/bin/__main__.py), `termeval <step>` and
`python -m termeval.bin.<step>` (termeval/run/cli.py), zrc submissions (termeval/zrc/score.py),
the Python API (one process) and KWSEval (`compute`: the engine's numbers without a report).

  one process (nj 1, no launcher)  driver.run: load, compute, merge, report, publish
  N jobs or a launcher             under the exp dir's lock (nothing taken when the shell step
                                   holds it): the output guard (the logs' places too);
                                   stage.prepare (what the jobs
                                   share, done once: score_tde's classes); stale shards removed;
                                   job J of N (`--nj N --job J --run-id R`: its shard
                                   <exp>/jobs/<stage>.J.npz) as local processes (at most the
                                   cores at a time) or through the Kaldi launcher `cmd`
                                   (`$cmd JOB=1:N <exp>/log/<stage>.JOB.log ...`); then the merge
                                   (`--merge N --run-id R`): in this process, or through the
                                   launcher as one more job, whose warnings and summary are then
                                   shown here

The jobs get the caller's own argument list (`argv`: what the shell step or the command line
passed, so the merge records the command line the user's face gave) or, without one, the
command line of the Options (launcher.argv_for).
"""
from __future__ import annotations

import contextlib
import os
import re
import sys
import time
from typing import Any, Callable, Sequence

from termeval.core.declaration import Step
from termeval.core.errors import InputError
from termeval.core.guard import check_outputs
from termeval.core.stage import running_as
from termeval.core.warn import step_name
from termeval.run import driver, launcher


def run_step(step: Step, opts: Any, *, nj: int = 1, cmd: str | None = None, argv: Sequence[str] | None = None,
             logs: bool = False, echo: bool = True, python: str | None = None) -> dict | None:
    """Score `opts` with `step`'s stage: in this process (nj 1 without a launcher), else as nj
    jobs and a merge (module docstring). logs: one process and local jobs log to
    <exp>/log/<stage>[.J|.merge].log (the `termeval` command; a launcher always does). python:
    the interpreter of the launcher's jobs (launcher.run_cmd). Returns the scores mapping (None
    when the merge ran through a launcher)."""
    return run_stage(step.stage_of(opts), opts, step.name, nj=nj, cmd=cmd, argv=argv, logs=logs, echo=echo,
                     python=python)


def run_stage(stage: Any, opts: Any, module: str, *, nj: int = 1, cmd: str | None = None,
              argv: Sequence[str] | None = None, logs: bool = False, echo: bool = True,
              python: str | None = None) -> dict | None:
    """run_step of a stage whose jobs are `python -m termeval.bin.<module>` (a facade running
    another step's stage: zrc submissions run score_tde's)."""
    exp = opts.exp_dir
    if nj == 1 and cmd is None:
        log = os.path.join(exp, "log", f"{stage.name}.log") if logs and exp else None
        if log is not None:           # the output guard and the log's place, before the log is opened
            driver.check_io(stage, opts, exp)
            _check_logs(stage, opts, [log])
        with _logged(log):
            return driver.run(stage, opts, exp, echo=echo)
    if exp is None:
        raise InputError("jobs need an exp dir")
    base = list(launcher.argv_for(opts) if argv is None else argv)

    def args(extra: list[str]) -> list[str]:
        """The jobs' command line: the options before argv_for's `--` and the positionals."""
        cut = base.index("--") if argv is None else len(base)
        return base[:cut] + extra + base[cut:]
    log_dir = os.path.join(exp, "log")
    run_id = f"{os.getpid()}-{time.time_ns()}"
    with driver.exp_lock(exp), _locked_here(exp):
        driver.check_io(stage, opts, exp)      # the output guard, before anything is written
        _check_logs(stage, opts, [os.path.join(log_dir, f"{stage.name}.{j}.log") for j in ("merge", *range(1, nj + 1))])
        stage.prepare(opts)                     # what the jobs share (score_tde: the classes), done once
        driver.clear_shards(exp, stage.name)    # stale shards of an earlier run
        job = ["--nj", str(nj), "--job", "JOB", "--run-id", run_id]
        merge = ["--merge", str(nj), "--run-id", run_id]
        if cmd is not None:
            launcher.run_cmd(cmd, module, args(job), nj, os.path.join(log_dir, f"{stage.name}.JOB.log"),
                             python=python)
            merge_log = os.path.join(log_dir, f"{stage.name}.merge.log")
            launcher.run_cmd(cmd, module, args(merge), None, merge_log, python=python)
            _show_merge(exp, merge_log, echo)
            return None
        argvs = [args(["--nj", str(nj), "--job", str(j), "--run-id", run_id]) for j in range(1, nj + 1)]
        launcher.run_local(module, argvs, [os.path.join(log_dir, f"{stage.name}.{j}.log") for j in range(1, nj + 1)]
                           if logs else None, step=step_name())
        with _logged(os.path.join(log_dir, f"{stage.name}.merge.log") if logs else None):
            return driver.run(stage, opts, exp, merge=nj, run_id=run_id, echo=echo, keep_summary=False)


def prepare(step: Step, opts: Any) -> None:
    """What the jobs of a run share, made now (`--prepare-only`), after the output guard."""
    stage = step.stage_of(opts)
    driver.check_io(stage, opts, opts.exp_dir)
    stage.prepare(opts)


def compute(step: Step, opts: Any, adjust: Callable[[Any], None] | None = None) -> tuple[Any, Any]:
    """(context, merged statistics) of the whole run in this process, without a report: for a
    face that writes its own files from the engine's numbers (KWSEval). `adjust(ctx)` may set
    what that face adds to the loaded context (KWSEval's conditions)."""
    stage = step.stage_of(opts)
    with running_as(None):
        ctx = stage.load(opts)
        if adjust is not None:
            adjust(ctx)
        return ctx, stage.merge(ctx, [stage.compute(ctx, 0, len(stage.costs(ctx)))])


def _check_logs(stage: Any, opts: Any, logs: Sequence[str]) -> None:
    """The run's logs can be written in place: a directory there is refused, not replaced, and
    so is a log that is, or lies directly in, one of the inputs (it would be overwritten)."""
    check_outputs(stage.name, opts.paths("input"), [], [], logs)


@contextlib.contextmanager
def _locked_here(exp: str):
    """The exp dir's lock is held by this process (or the shell step): the in-process merge's
    driver takes it no second time."""
    saved = os.environ.get(driver.LOCK_ENV)
    if saved is None:
        os.environ[driver.LOCK_ENV] = os.path.abspath(exp)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(driver.LOCK_ENV, None)


def _show_merge(exp: str, merge_log: str, echo: bool) -> None:
    """A merge that ran through a launcher: its warning lines (in its log) on stderr, as one
    process shows them (headed by the step's entry point, as one process heads them), and its
    summary (scores/.summary) on stdout, then removed."""
    with contextlib.suppress(OSError), open(merge_log, encoding="utf-8", errors="replace") as f:
        for line in f:
            if re.match(r"\S.*?: warning: ", line):
                sys.stderr.write(line)
    summary = os.path.join(exp, driver.SUMMARY)
    if os.path.isfile(summary):
        if echo:
            with open(summary, encoding="utf-8") as f:
                sys.stdout.write(f.read())
            sys.stdout.flush()
        os.unlink(summary)


class _Tee:
    def __init__(self, *streams: Any) -> None:
        self.streams = streams

    def write(self, text: str) -> int:
        for s in self.streams:
            s.write(text)
        return len(text)

    def flush(self) -> None:
        for s in self.streams:
            s.flush()

    def isatty(self) -> bool:
        return False


@contextlib.contextmanager
def _logged(log: str | None):
    """The block's stderr also written to `log` (run.pl's header and end lines, the error
    line), as a launched job's log reads; nothing without a log."""
    if log is None:
        yield
        return
    os.makedirs(os.path.dirname(log), exist_ok=True)
    with open(log, "w", encoding="utf-8") as f:
        f.write(f"# {' '.join(sys.argv)}\n# Started at {time.ctime()}\n")
        rc = 1
        try:
            with contextlib.redirect_stderr(_Tee(sys.stderr, f)):
                yield
            rc = 0
        except InputError as e:
            f.write(f"{step_name()}: error: {e.format()}\n")
            raise
        finally:
            f.write(f"# Ended (code {rc}) at {time.ctime()}\n")
