"""The one launcher of termeval's Python side: run the jobs of a step (`python -m
termeval.bin.<module> <argv>` for each argv) as local processes, at most as many at a time as
there are cores (a `note:` line on stderr when more are asked), or through the user's Kaldi
launcher `cmd` (run.pl, queue.pl, slurm.pl: `$cmd JOB=1:N <log> <command>`).

Used by `termeval <step> --nj N` (termeval/run/command.py) and by the zrc submission scorer
(termeval/zrc/score.py). Its jobs die with it (TERMEVAL_STEP, termeval/run/watch.py): a launcher
killed with kill -9 leaves no job running. The shell steps launch through `$cmd` themselves (utils/termeval_lib.sh
te_launch, the Kaldi way) and share this Python side's lock (termeval/core/lock.py).

  cores()                     the cores this process may use
  cap(n, step, what)          min(n, cores()), with a note on stderr when n is more
  run_local(module, argvs, logs=None, step=...)  the jobs as local processes; each job's output
                              goes to its log (run.pl's header and end lines) or, without logs,
                              is kept for the error message; InputError naming the first failed
                              job's error line
  run_cmd(cmd, module, argv, nj, log)  the jobs through a Kaldi launcher (argv's "JOB" is the
                              job number; log a pattern with JOB)
"""
from __future__ import annotations

import dataclasses
import os
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Sequence

from termeval.core.errors import InputError
from termeval.core.options import flag_of
from termeval.run.watch import step_env


def cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def cap(n: int, step: str = "termeval", what: str = "local processes") -> int:
    """At most cores() of `n` (a note on stderr when `n` is more)."""
    c = cores()
    if n > c:
        print(f"{step}: note: {n} {what} asked, {c} core{'s' if c > 1 else ''} here: "
              f"at most {c} at a time", file=sys.stderr)
        return c
    return max(1, n)


def _env() -> dict:
    """The jobs' environment: this process is their step (they die with it, termeval/run/watch.py)
    and termeval's root is on their PYTHONPATH."""
    env = {**os.environ, **step_env()}
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _error_line(text: str) -> str:
    errs = [ln.strip() for ln in text.splitlines() if ": error: " in ln]
    return errs[-1].split(": error: ", 1)[1] if errs else ""


def run_local(module: str, argvs: Sequence[Sequence[str]], logs: Sequence[str] | None = None,
              step: str = "termeval") -> None:
    """Run `python -m termeval.bin.<module> <argv>` for each argv as local processes, at most
    cores() at a time; job j's stdout and stderr go to logs[j] (run.pl's header and end lines)
    or, without logs, are kept for the error. InputError naming the first failed job's error
    line (and log) when a job fails."""
    env = _env()
    if logs is not None:
        for log in logs:
            os.makedirs(os.path.dirname(os.path.abspath(log)), exist_ok=True)

    def one(j: int) -> tuple[int, str]:
        cmd = [sys.executable, "-m", f"termeval.bin.{module}", *argvs[j]]
        if logs is None:
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                               text=True, errors="replace")
            return r.returncode, r.stdout
        with open(logs[j], "w", encoding="utf-8") as f:
            f.write(f"# {' '.join(cmd)}\n# Started at {time.ctime()}\n")
            f.flush()
            rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env).returncode
            f.write(f"# Ended (code {rc}) at {time.ctime()}\n")
        return rc, ""

    if not argvs:
        return
    with ThreadPoolExecutor(max_workers=cap(len(argvs), step, "jobs")) as ex:
        results = list(ex.map(one, range(len(argvs))))
    failed = [j for j, (rc, _) in enumerate(results) if rc != 0]
    if not failed:
        return
    j = failed[0]
    rc, text = results[j]
    where = ""
    if logs is not None:
        with open(logs[j], encoding="utf-8", errors="replace") as f:
            text = f.read()
        where = f" (log: {logs[j]})"
    why = _error_line(text) or ("killed (out of memory?)" if rc in (-9, 137) else
                                "see its log" if logs is not None else
                                (text.strip().splitlines() or [f"exit code {rc}"])[-1][:300])
    raise InputError(f"{len(failed)} / {len(argvs)} jobs failed; job {j + 1}: {why}{where}")


def argv_for(opts: Any) -> list[str]:
    """The command line of a step's Options (what a launched job parses back into the same
    Options): `--flag=value` for every option that differs from its default, then the
    positional arguments in their order. Options not on the command line (cli=False) must be
    at their defaults."""
    options, positionals = [], []
    for f in dataclasses.fields(opts):
        value = getattr(opts, f.name)
        if f.metadata.get("positional"):
            positionals.append(os.fspath(value))
        elif value != f.default:
            if not f.metadata.get("cli", True):
                raise ValueError(f"{f.name} is not on the command line")
            options.append(f"{flag_of(f)}={_text(value)}")
    return options + ["--", *positionals]


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return os.fspath(value) if isinstance(value, os.PathLike) else str(value)


def run_cmd(cmd: str, module: str, argv: Sequence[str], nj: int, log: str, name: str = "JOB") -> None:
    """Run `python -m termeval.bin.<module> <argv>` as jobs 1..nj through the Kaldi launcher
    `cmd` ("run.pl", "queue.pl --mem 4G", ...): `cmd JOB=1:nj <log> <command>`, every `name`
    in argv and log replaced by the job number by the launcher. InputError when it fails."""
    python = shlex.quote(sys.executable)
    line = shlex.split(cmd) + [f"{name}=1:{nj}", log, python, "-m", f"termeval.bin.{module}",
                               *(shlex.quote(a) for a in argv)]
    os.makedirs(os.path.dirname(os.path.abspath(log)), exist_ok=True)
    r = subprocess.run(line, env=_env())
    if r.returncode != 0:
        raise InputError(f"the jobs failed through '{cmd}' (exit code {r.returncode}); logs: {log}")
