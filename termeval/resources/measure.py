"""Measuring a command's CPU time and peak memory (utils/measure_resources.sh); the figures
computed from the measurements are in termeval.resources.resources.

Measurement (`measure`, used by utils/measure_resources.sh), Linux:
  * CPU time = user + system time of every process of the command's tree, taken from
    getrusage(RUSAGE_CHILDREN) before and after. The kernel adds a process's times (and
    those of all the descendants it waited for) to its parent when the parent waits for it,
    so the delta covers the command and all its children and grandchildren. Descendants
    orphaned by an early-exiting parent would escape this; the measuring process makes
    itself a "child subreaper" (prctl PR_SET_CHILD_SUBREAPER), so orphans are re-parented to
    it and it reaps them, and their times count too. Processes still running when the
    command exits (orphans, e.g. `worker &`) are waited for by default, as their work is the
    command's work (wall time then runs until the last one ends); with wait_orphans=False
    (for a command that starts a daemon) they are left running, counted in `still_running`,
    and their CPU time is missing.
  * Peak memory: /proc is sampled every `interval` seconds (faster during the first second);
    each sample sums the memory of every live descendant (PSS from /proc/<pid>/smaps_rollup,
    which shares pages between forked workers instead of counting them once per worker;
    RSS from /proc/<pid>/statm is also summed), and the maximum over samples is kept. The
    largest single-process ru_maxrss of the waited-for tree is a floor (it catches a process
    that peaks between two samples). peak_mem_kb = max(peak PSS sum (or RSS sum if PSS is
    unreadable), ru_maxrss). Sampling can miss a short peak of a multi-process tree; lower
    --interval if that matters.
  * Wall time: monotonic clock from start to the command's exit.
  * Host: CPU model (/proc/cpuinfo `model name`), logical core count, usable cores
    (affinity), RAM, hostname.
"""
from __future__ import annotations

import ctypes
import os
import platform
import resource
import signal
import subprocess
import sys
import time

from termeval.core.errors import InputError
from termeval.core.textio import iter_lines

PR_SET_CHILD_SUBREAPER = 36
GB = float(1 << 30)
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024 if hasattr(os, "sysconf") else 4


# ----------------------------------------------------------------------------- host

def host_info() -> dict:
    """CPU model, logical cores, usable cores, memory, hostname, OS (best effort)."""
    model = ""
    try:
        for _, line in iter_lines("/proc/cpuinfo"):
            key, _, val = line.partition(":")
            if key.strip() in ("model name", "Hardware", "cpu model") and val.strip():
                model = val.strip()
                break
    except (OSError, InputError):
        pass
    mem_kb = None
    try:
        for _, line in iter_lines("/proc/meminfo"):
            if line.startswith("MemTotal:"):
                mem_kb = int(line.split()[1])
                break
    except (OSError, InputError, ValueError):
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = os.cpu_count() or 1
    return {"cpu_model": model or platform.processor() or "unknown",
            "cores": os.cpu_count() or 1, "usable_cores": usable,
            "mem_total_gb": round(mem_kb * 1024 / GB, 3) if mem_kb else None,
            "host": platform.node(), "os": f"{platform.system()} {platform.release()}"}


# ----------------------------------------------------------------------------- /proc sampling

def _children_map() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # the command name may contain spaces and ')': parse after the last ')'
        rest = stat[stat.rfind(b")") + 2:].split()
        if len(rest) > 1:
            kids.setdefault(int(rest[1]), []).append(int(name))
    return kids


def descendants(root: int) -> list[int]:
    kids = _children_map()
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        for c in kids.get(p, ()):
            out.append(c)
            todo.append(c)
    return out


def _mem_kb(pid: int) -> tuple[int, int | None]:
    """(RSS kB, PSS kB or None) of one process; (0, 0) if it is gone."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            rss = int(f.read().split()[1]) * PAGE_KB
    except (OSError, ValueError, IndexError):
        return 0, 0
    pss = None
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    pss = int(line.split()[1])
                    break
    except (OSError, ValueError):
        pss = None
    return rss, pss


HAVE_PSS = os.path.exists("/proc/self/smaps_rollup")


def sample_tree(root: int) -> tuple[int, int | None, int]:
    """(sum RSS kB, sum PSS kB or None without smaps_rollup, number of processes) below root.

    A process whose smaps_rollup cannot be read (it just exited) counts with its RSS."""
    rss_sum, pss_sum, n = 0, 0, 0
    for pid in descendants(root):
        rss, pss = _mem_kb(pid)
        if rss == 0 and pss == 0:
            continue
        n += 1
        rss_sum += rss
        pss_sum += rss if pss is None else pss
    return rss_sum, (pss_sum if HAVE_PSS else None), n


# ----------------------------------------------------------------------------- measuring

def _set_subreaper() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _maxrss_kb(ru) -> int:
    # Linux reports ru_maxrss in KiB, macOS in bytes
    return int(ru.ru_maxrss // 1024) if sys.platform == "darwin" else int(ru.ru_maxrss)


def measure(cmd: list[str], interval: float = 0.1, wait_orphans: bool = True) -> dict:
    """Run `cmd` (no shell), wait for it, and return the figures (see the module doc).

    The returned dict has `exit_status` (shell convention: 128+N when killed by signal N).
    SIGINT/SIGTERM/SIGHUP received while waiting are passed on to the command.
    """
    if not cmd:
        raise InputError("no command given (put it after --)")
    subreaper = _set_subreaper()
    me = os.getpid()
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    try:
        proc = subprocess.Popen(cmd)
    except FileNotFoundError:
        raise InputError(f"command not found: {cmd[0]}") from None
    except PermissionError:
        raise InputError(f"command not executable: {cmd[0]}") from None

    def forward(sig, _frame):
        try:
            proc.send_signal(sig)
        except OSError:
            pass
    old = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    peak_rss = peak_pss = 0
    pss_ok = True
    max_procs = 0
    samples = 0
    status = None
    wall = 0.0
    announced = False
    try:
        while True:
            # reap whatever ended (the command, or orphans re-parented to us)
            while True:
                try:
                    pid, st, _ = os.wait4(-1, os.WNOHANG)
                except ChildProcessError:
                    pid = 0
                if pid == 0:
                    break
                if pid == proc.pid:
                    status = st
                    proc.returncode = os.waitstatus_to_exitcode(st)
            rss, pss, n = sample_tree(me)
            if status is not None:
                if n == 0 or not (wait_orphans and subreaper):
                    wall = time.monotonic() - t0
                    break
                if not announced:
                    print(f"measure_resources: the command exited, waiting for the {n} process(es) "
                          "it left running (their work counts; --wait-orphans false to not wait)",
                          file=sys.stderr)
                    announced = True
            samples += 1
            peak_rss = max(peak_rss, rss)
            if pss is None:
                pss_ok = False
            else:
                peak_pss = max(peak_pss, pss)
            max_procs = max(max_procs, n)
            elapsed = time.monotonic() - t0
            time.sleep(min(interval, 0.01 if elapsed < 1.0 else interval))
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    still = len(descendants(me)) if subreaper else 0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    user = ru1.ru_utime - ru0.ru_utime
    system = ru1.ru_stime - ru0.ru_stime
    maxrss = _maxrss_kb(ru1)
    tree_peak = peak_pss if (pss_ok and peak_pss > 0) else peak_rss
    peak = max(tree_peak, maxrss)
    code = os.waitstatus_to_exitcode(status)
    exit_status = code if code >= 0 else 128 - code
    out = {
        "exit_status": exit_status,
        "wall_s": round(wall, 6),
        "user_s": round(user, 6),
        "sys_s": round(system, 6),
        "cpu_s": round(user + system, 6),
        "peak_mem_kb": int(peak),
        "pmu_gb": peak * 1024 / GB,
        "peak_pss_tree_kb": int(peak_pss) if pss_ok else None,
        "peak_rss_tree_kb": int(peak_rss),
        "max_rss_single_kb": maxrss,
        "max_processes": max_procs,
        "samples": samples,
        "interval_s": interval,
        "still_running": still,
        "subreaper": subreaper,
        "pmu_method": ("max(sampled PSS sum over the tree, largest ru_maxrss)" if pss_ok else
                       "max(sampled RSS sum over the tree, largest ru_maxrss)"),
        "cpu_method": "getrusage(RUSAGE_CHILDREN) delta: user+sys of all waited-for descendants",
    }
    return out
