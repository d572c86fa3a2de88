#!/usr/bin/env python3
# utils/run.pl -- local job launcher with the interface of Kaldi's run.pl/queue.pl/slurm.pl
# (written in Python; only the standard library, so it works before tools/venv exists).
#
# Usage: run.pl [options] [JOB=1:N] <log-file> <command> [<arg> ...]
#  e.g.: run.pl JOB=1:4 exp/sys/log/zrc2020.JOB.log python -m termeval.bin.score_tde --nj 4 --job JOB data/dev dev.class exp/sys
#        run.pl exp/sys/log/score_tde.log python -m termeval.bin.score_tde data/dev dev.class exp/sys
# Every occurrence of the job name (JOB) in the log path and in the command is replaced by the
# task number. Arguments containing whitespace are quoted again; shell metacharacters meant
# for the job must be escaped (\|, '>'). Each task runs from the current directory as
#   bash -c 'set -o pipefail; <command>'  >> <log> 2>&1
# so a failure anywhere in a job pipeline fails the task. Tasks run in parallel, at most
# --max-jobs-run at a time (default: the number of CPU cores).
# Each log starts with "# <command>" and "# Started at <date>", and ends with
# "# Accounting: time=<s> threads=1" and "# Ended (code <n>) at <date>, elapsed time <s> seconds".
# Exit status 0 only if every task succeeded; otherwise "run.pl: K / N failed, log is in ..."
# on stderr and exit 1. run.pl dies with the process that started it (kill -9 of the step):
# its running tasks get SIGTERM and it exits, so no task runs on without its launcher.
# Options (accepted for compatibility with queue.pl/slurm.pl; only --max-jobs-run has an effect
# here): --max-jobs-run N, --num-threads N, --mem SIZE, --gpu N, --config FILE, -l X, -pe A B.
import datetime
import os
import re
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor


def usage(msg: str = "") -> "None":
    if msg:
        print(f"run.pl: {msg}", file=sys.stderr)
    print("Usage: run.pl [options] [JOB=1:N] <log-file> <command> [<arg> ...]  (see the header of utils/run.pl)",
          file=sys.stderr)
    sys.exit(1)


def quote(arg: str) -> str:
    # Same rule as Kaldi's run.pl: plain words as they are, others single- or double-quoted.
    if re.fullmatch(r"\S+", arg):
        return arg
    if '"' in arg:
        return f"'{arg}'"
    return f'"{arg}"'


def run_task(task: int | None, jobname: str | None, log: str, command: str) -> int:
    if jobname is not None:
        log = log.replace(jobname, str(task))
        command = command.replace(jobname, str(task))
    try:
        return _run_task(log, command)
    except OSError as e:  # the log cannot be written (disk full, read-only): one line, no traceback
        # one write per line: print's text and newline are two writes, which jobs' threads interleave
        sys.stderr.write(f"run.pl: error: cannot write the log {log}: {e.strerror or e}\n")
        return 1


def _run_task(log: str, command: str) -> int:
    logdir = os.path.dirname(log)
    if logdir:
        os.makedirs(logdir, exist_ok=True)
    start = time.time()
    with open(log, "w", encoding="utf-8") as f:
        f.write(f"# {command}\n# Started at {datetime.datetime.now().ctime()}\n#\n")
        f.flush()
        proc = subprocess.Popen(["bash", "-c", "set -o pipefail\n" + command],
                                stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        RUNNING.add(proc)
        try:
            code = proc.wait()
        finally:
            RUNNING.discard(proc)
        if code < 0:  # killed by a signal: report it the shell way
            code = 128 - code
        elapsed = int(round(time.time() - start))
        f.write(f"# Accounting: time={elapsed} threads=1\n")
        f.write(f"# Ended (code {code}) at {datetime.datetime.now().ctime()}, elapsed time {elapsed} seconds\n")
    return code


RUNNING: set = set()      # the tasks' processes now running


def stop(signum: int, frame: object = None) -> None:
    """SIGTERM (the step that started run.pl died, or a kill): the running tasks get SIGTERM
    too, then run.pl ends (128 + signal) -- no task is left running without its launcher."""
    for proc in list(RUNNING):
        try:
            proc.send_signal(signal.SIGTERM)
        except OSError:
            pass
    os._exit(128 + signum)


def die_with_parent() -> None:
    """run.pl ends, stopping its tasks, when the process that started it (the step) dies: on
    Linux the kernel sends SIGTERM (prctl PR_SET_PDEATHSIG); elsewhere a thread sees the parent
    change. A job started by a termeval step also watches that step itself (TERMEVAL_STEP,
    termeval/run/watch.py), through any launcher."""
    parent = os.getppid()
    signal.signal(signal.SIGTERM, stop)
    try:
        import ctypes    # Linux's prctl; absent elsewhere (the poll below then does it)
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM), 0, 0, 0)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass

    def poll() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)
    threading.Thread(target=poll, daemon=True).start()


def main(argv: list[str]) -> int:
    die_with_parent()
    max_jobs = os.cpu_count() or 1
    args = list(argv)
    while args and args[0].startswith("-"):
        opt = args.pop(0)
        if opt in ("-h", "--help"):           # its header on stderr, as every utils/ script's --help
            with open(__file__, encoding="utf-8") as f:
                for line in f.read().split("\n")[1:]:
                    if not line.startswith("#"):
                        break
                    print(line[2:] if line.startswith("# ") else line[1:], file=sys.stderr)
            return 0
        if opt == "-pe":  # old SGE style: -pe smp N
            del args[:2]
            continue
        if "=" in opt and opt.startswith("--"):
            name, value = opt.split("=", 1)
        else:
            if not args:
                usage(f"option {opt} needs a value")
            name, value = opt, args.pop(0)
        if name == "--max-jobs-run":
            try:
                max_jobs = int(value)
            except ValueError:
                usage(f"--max-jobs-run expects an integer, got '{value}'")
            if max_jobs < 1:
                usage("--max-jobs-run must be >= 1")
        # every other option (--mem, --num-threads, --gpu, --config, -l ...) is ignored locally
    jobname, first, last = None, 1, 1
    if args:
        m = re.fullmatch(r"([\w]+)=(\d+):(\d+)", args[0]) or re.fullmatch(r"([\w]+)=(\d+)", args[0])
        if m:
            args.pop(0)
            jobname = m.group(1)
            first = int(m.group(2))
            last = int(m.group(3)) if m.lastindex == 3 else first
            if first < 1 or last < first:
                usage(f"invalid job range {m.group(0)} (must be 1 <= start <= end)")
    if len(args) < 2:
        usage("expected a log file and a command")
    log, command = args[0], " ".join(quote(a) for a in args[1:])
    if jobname is not None and last > first and jobname not in log:
        usage(f"you are running a parallel job (range {first}:{last}) but the log file {log} "
              f"does not contain {jobname}: all tasks would write the same log")
    tasks = list(range(first, last + 1))
    if jobname is None:
        codes = [run_task(None, None, log, command)]
    else:
        with ThreadPoolExecutor(max_workers=min(max_jobs, len(tasks))) as pool:
            codes = list(pool.map(lambda t: run_task(t, jobname, log, command), tasks))
    failed = sum(1 for c in codes if c != 0)
    if failed:
        shown = log.replace(jobname, "*") if jobname is not None and len(tasks) > 1 else \
            (log.replace(jobname, str(first)) if jobname else log)
        print(f"run.pl: {failed} / {len(tasks)} failed, log is in {shown}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
