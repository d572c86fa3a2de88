"""The one launcher of termeval's Python side: run the jobs of a step (`python -m
termeval.bin.<module> <argv>` for each argv) as local processes, at most as many at a time as
there are cores (a `note:` line on stderr when more are asked), or through the user's Kaldi
launcher `cmd` (run.pl, queue.pl, slurm.pl: `$cmd JOB=1:N <log> <command>`).

Used by the one N-job plan (termeval/run/plan.py), which every face runs: the shell steps (their
`$cmd`, the Kaldi way), `termeval <step> --nj N` and zrc submissions (local processes). Its jobs
die with it (TERMEVAL_STEP, termeval/run/watch.py): a launcher killed with kill -9 leaves no job
running.

  cores()                     the cores this process may use
  cap(n, step, what)          min(n, cores()), with a note on stderr when n is more
  run_local(module, argvs, logs=None, step=...)  the jobs as local processes; each job's output
                              goes to its log (run.pl's header and end lines) or, without logs,
                              is kept for the error message; InputError naming the first failed
                              job's error line
  run_cmd(cmd, module, argv, nj, log)  the jobs through a Kaldi launcher (argv's "JOB" is the
                              job number; log a pattern with JOB), each argument quoted as the
                              launcher needs it (quote_for_launcher); a failure is each failed
                              job's own error line (failed_jobs), not only the launcher's
"""
from __future__ import annotations

import dataclasses
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Sequence

from termeval.core.errors import InputError
from termeval.core.options import flag_of
from termeval.core.warn import step_name
from termeval.run.watch import step_env

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # the install root


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
    env["PYTHONPATH"] = ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
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


def quote_for_launcher(arg: str) -> str:
    """`arg` as a Kaldi launcher must receive it to hand it to bash intact: run.pl, queue.pl and
    slurm.pl join their arguments with spaces, double-quoting those with whitespace (single-
    quoting those that also hold a double quote), and run the line with bash."""
    if re.fullmatch(r"[A-Za-z0-9_./:=,+@%-]+", arg):
        return arg
    if not re.search(r"\s", arg):
        return shlex.quote(arg)                  # no whitespace: the launcher passes it as it is
    if not re.search(r'["$`\\]', arg):
        return arg                               # the launcher wraps it in "..."
    if "'" not in arg and '"' in arg:
        return arg                               # the launcher wraps it in '...'
    raise InputError(f"cannot pass this argument through a job launcher (whitespace with quotes, $ or \\): {arg}")


def check_job_path(path: str, name: str = "JOB") -> None:
    """The launchers replace every occurrence of the job name (JOB) in a job's command and log
    path by the job number, so exp/JOBS/x would become exp/1S/x in job 1: refused."""
    if name in path:
        raise InputError(f"{path}: a path given to a job must not contain '{name}': the job launcher replaces every "
                         f"'{name}' in a job's command by the job number ({name}=1:N; exp/{name}S/x would become "
                         "exp/1S/x); rename it or use a symlink")


def run_cmd(cmd: str, module: str, argv: Sequence[str], nj: int | None, log: str, name: str = "JOB",
            python: str | None = None) -> None:
    """Run `python -m termeval.bin.<module> <argv>` through the Kaldi launcher `cmd` ("run.pl",
    "queue.pl --mem 4G", ...): as jobs 1..nj (`cmd JOB=1:nj <log> <command>`, every `name` in
    argv and log replaced by the job number by the launcher), or as one job (nj None:
    `cmd <log> <command>`). `python`: the jobs' interpreter (a shell step's: utils/
    termeval_python.sh, as a Kaldi recipe's jobs run its path.sh; default this one's).
    InputError naming each failed job's own error line (its log's)."""
    for a in argv:
        if nj is not None and a != name:
            check_job_path(a, name)
    if nj is not None:
        check_job_path(os.path.dirname(log), name)
    words = shlex.split(cmd)
    if not words or shutil.which(words[0]) is None:
        first = words[0] if words else ""
        raise InputError(f"--cmd: launcher '{first}' not found (not on PATH and not a file; e.g. --cmd "
                         f"{os.path.join(ROOT, 'utils', 'run.pl')})")
    line = words + ([f"{name}=1:{nj}"] if nj is not None else []) + [
        log, quote_for_launcher(python or sys.executable), "-m", f"termeval.bin.{module}", *(quote_for_launcher(a) for a in argv)]
    os.makedirs(os.path.dirname(os.path.abspath(log)), exist_ok=True)
    r = subprocess.run(line, env=_env())
    if r.returncode != 0:
        logs = [log.replace(name, str(j)) for j in range(1, nj + 1)] if nj is not None else [log]
        lines = failed_jobs(logs) or [f"job failed; no job log was written (is the launcher working? pattern: {log})"]
        for more in lines[:-1]:
            print(f"{step_name()}: error: {more}", file=sys.stderr)
        raise InputError(lines[-1])


_ERROR_LINE = re.compile(r"error:|Error:|Error$|[A-Za-z]+Error|Killed|command not found|No such file")


def failed_jobs(logs: Sequence[str]) -> list[str]:
    """What each failed job's log says: "job killed (out of memory?), exit code 137; log: L",
    or its last error line "<line> (log: L)" (and where its traceback is); Kaldi's run.pl/
    queue.pl end a log with "# Ended (code N)", slurm.pl/queue.pl with "# Finished ... with
    status N"."""
    out = []
    for f in logs:
        try:
            with open(f, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
        except OSError:
            continue
        codes = re.findall(r"^# Ended \(code (\d+)\)|^# Finished .* with status (\d+)", text, re.M)
        code = next((a or b for a, b in reversed(codes)), "")
        if code == "0":
            continue
        if code in ("137", "9"):
            out.append(f"job killed (out of memory?), exit code {code}; log: {f}")
            continue
        body = [ln for ln in text.splitlines() if not ln.startswith("#")]
        line = next((ln for ln in reversed(body) if _ERROR_LINE.search(ln)), "") or \
            next((ln for ln in reversed(body) if ln.strip()), "")
        if line:
            line = re.sub(r"^\S+( \S+)?: error: ", "", line)     # the job's own heading: the step's is added
            out.append(f"{line[:300]} (log: {f})")
            if any(ln.startswith("Traceback") for ln in body):
                out.append(f"internal error, please report it with the traceback in {f}")
    return out
