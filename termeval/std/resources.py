"""Processing-resource figures of MediaEval SWS 2013 (seed §4.3; std-spec §5): measuring a
command's CPU time and peak memory, and ISF, SSF, PMU and PL.

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

Figures (`compute`), all times in seconds internally:
  ISF = T_index_cpu / T_audio                                  (dimensionless)
  SSF = T_search_cpu / (T_query * T_audio)                     (1/time: per hour by default)
  PMU_i, PMU_s = peak memory of each phase in GB (1 GB = 2^30 bytes, as memory is counted)
  PL  = lambda * ISF * PMU_i + (1 - lambda) * SSF * PMU_s      (SSF in the chosen unit)
T_query is the summed duration of *all* query examples (seed eq. 47). SSF's value depends on
its time unit by a factor 3600: the seed's own example (3 h on 16 cores = 48 CPU-h, 900 s of
queries, 300 h of audio) gives 48 / (0.25 * 300) = 0.64 per hour (1.78e-4 per second), not
the 0.8 it prints; 0.8 would need 60 CPU-hours or 720 s of queries, so the seed's arithmetic
is off by a factor 1.25 whatever the unit.
"""
from __future__ import annotations

import configparser
import ctypes
import datetime
import math
import os
import platform
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

from termeval.errors import InputError
from termeval.textio import atomic_write, iter_lines

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


# ----------------------------------------------------------------------------- key=value files

def write_kv(path: str, values: dict) -> None:
    with atomic_write(path) as f:
        for k, v in values.items():
            if v is None:
                v = ""
            if isinstance(v, float):
                v = repr(v)
            f.write(f"{k}={str(v).replace(chr(10), ' ')}\n")


def read_kv(path: str) -> dict[str, str]:
    """`key=value` (or `key = value`) lines; '#' comments and blank lines ignored."""
    out: dict[str, str] = {}
    for lineno, line in iter_lines(path):
        s = line.strip()
        if not s or s.startswith("#") or s.startswith(";"):
            continue
        if "=" not in s:
            raise InputError("expected key=value", path, lineno)
        k, _, v = s.partition("=")
        out[k.strip()] = v.strip()
    return out


def merge_runs(old: dict[str, str], new: dict) -> dict:
    """Accumulate a further run of the same phase: times add up, peaks take the maximum."""
    out = dict(new)
    for k in ("wall_s", "user_s", "sys_s", "cpu_s"):
        out[k] = round(float(old.get(k, 0) or 0) + float(new[k]), 6)
    for k in ("peak_mem_kb", "peak_rss_tree_kb", "max_rss_single_kb", "max_processes"):
        vals = [int(float(x)) for x in (old.get(k), new.get(k)) if x not in (None, "")]
        out[k] = max(vals) if vals else None
    out["pmu_gb"] = int(out["peak_mem_kb"]) * 1024 / GB
    pss = [int(float(x)) for x in (old.get("peak_pss_tree_kb"), new.get("peak_pss_tree_kb")) if x not in (None, "")]
    out["peak_pss_tree_kb"] = max(pss) if pss else None
    out["samples"] = int(old.get("samples", 0) or 0) + int(new["samples"])
    out["runs"] = int(old.get("runs", 1) or 1) + 1
    prev = int(old.get("exit_status", 0) or 0)
    out["exit_status"] = new["exit_status"] if new["exit_status"] != 0 else prev
    out["command"] = f"{old.get('command', '')} ; {new.get('command', '')}".strip(" ;")
    return out


# ----------------------------------------------------------------------------- figures

@dataclass
class Phase:
    cpu_s: float | None = None
    wall_s: float | None = None
    pmu_gb: float | None = None
    source: str = ""


def phase_from_measure(path: str) -> Phase:
    """A phase from utils/measure_resources.sh's file (refused if the command failed)."""
    kv = read_kv(path)
    if kv.get("exit_status", "0") not in ("0", ""):
        raise InputError(f"the measured command failed (exit status {kv['exit_status']}); "
                         "re-run it before computing the resource figures", path)
    return Phase(_num(kv, "cpu_s", path), _num(kv, "wall_s", path),
                 _gb(kv, path), path)


def _num(kv: dict, key: str, path: str) -> float | None:
    v = kv.get(key, "")
    if v in ("", None):
        return None
    try:
        x = float(str(v).strip().strip('"'))
    except ValueError:
        raise InputError(f"{key} = '{v}' is not a number", path) from None
    if not math.isfinite(x) or x < 0:
        raise InputError(f"{key} = '{v}' must be a finite non-negative number", path)
    return x


def _gb(kv: dict, path: str) -> float | None:
    g = _num(kv, "pmu_gb", path)
    if g is None:
        kb = _num(kv, "peak_mem_kb", path)
        g = kb * 1024 / GB if kb is not None else None
    return g


def read_resources_file(path: str) -> dict:
    """The std-spec §5.2 file: sections [audio] (t_omega_s, t_query_s), [index] and [search]
    (cpu_s, or wall_s and cores; pmu_gb or peak_mem_kb), [report] (lambda, ssf_unit,
    hardware). Values may be quoted; '#' starts a comment. Returns a plain dict."""
    cp = configparser.ConfigParser(inline_comment_prefixes=("#", ";"), interpolation=None)
    try:
        cp.read_string(open(path, encoding="utf-8").read(), source=path)
    except configparser.Error as e:
        raise InputError(f"not a key=value file with [sections]: {str(e).splitlines()[0]}", path) from None
    out: dict = {"path": path}
    for ph in ("index", "search"):
        if cp.has_section(ph):
            kv = {k: v.strip().strip('"') for k, v in cp.items(ph)}
            cpu = _num(kv, "cpu_s", path)
            wall = _num(kv, "wall_s", path)
            if cpu is None and wall is not None:
                cores = _num(kv, "cores", path)
                cpu = wall * (cores if cores is not None else 1.0)
            out[ph] = Phase(cpu, wall, _gb(kv, path), f"{path} [{ph}]")
    if cp.has_section("audio"):
        for k in ("t_omega_s", "t_query_s"):
            if cp.has_option("audio", k):
                out[k] = cp.get("audio", k).strip().strip('"')
    if cp.has_section("report"):
        for k in ("lambda", "ssf_unit", "hardware"):
            if cp.has_option("report", k):
                out[k] = cp.get("report", k).strip().strip('"')
    return out


def sum_durations(path: str) -> float:
    """Sum of the second column of `<id> <seconds>` lines (Kaldi utt2dur / reco2dur style)."""
    from termeval.textio import parse_float
    total = 0.0
    n = 0
    for lineno, line in iter_lines(path):
        f = line.split()
        if not f:
            continue
        if len(f) < 2:
            raise InputError("expected '<id> <duration-in-seconds>'", path, lineno)
        d = parse_float(f[1], path, lineno, "duration")
        if d < 0:
            raise InputError(f"negative duration {f[1]}", path, lineno)
        total += d
        n += 1
    if n == 0:
        raise InputError("no durations in the file", path)
    return total


def audio_duration(path: str) -> tuple[float, str]:
    """T_audio in seconds from an ECF file, a directory holding one (kws dir), or a
    reco2dur/utt2dur-style file (or a data dir with reco2dur)."""
    from termeval.std.ecf import read_ecf
    if os.path.isdir(path):
        import glob
        for cand in [os.path.join(path, "ecf.xml")] + sorted(glob.glob(os.path.join(path, "*.ecf.xml"))):
            if os.path.isfile(cand):
                return read_ecf(cand).total_duration("union"), cand
        for n in ("reco2dur", "utt2dur"):
            cand = os.path.join(path, n)
            if os.path.isfile(cand):
                return sum_durations(cand), cand
        raise InputError("no ecf.xml, *.ecf.xml, reco2dur or utt2dur here", path)
    if not os.path.isfile(path):
        raise InputError("no such file or directory", path)
    with open(path, "rb") as f:
        head = f.read(512).lstrip()
    if head.startswith(b"<") or head.startswith(b"\xef\xbb\xbf<"):
        return read_ecf(path).total_duration("union"), path
    return sum_durations(path), path


def query_duration_from_termlist(kws_dir: str) -> tuple[float, str] | None:
    """T_query from a term list whose every term carries a `duration` (or `dur`) attribute
    in seconds (terminfo/kwinfo attr), summed over terms. None if absent."""
    from termeval.std.quesst_io import _find
    from termeval.std.termlist import read_termlist
    tl = _find(kws_dir, ("tlist.xml", "kwlist.xml"), (".tlist.xml", ".kwlist.xml"))
    if tl is None:
        return None
    terms = read_termlist(tl)
    vals = []
    for tid, a in zip(terms.ids, terms.attrs):
        low = {k.lower(): v for k, v in a.items()}
        v = low.get("duration", low.get("dur"))
        if v is None:
            return None
        try:
            x = float(v)
        except ValueError:
            raise InputError(f"term '{tid}': duration '{v}' is not a number", tl) from None
        if not math.isfinite(x) or x < 0:
            raise InputError(f"term '{tid}': bad duration '{v}'", tl)
        vals.append(x)
    return (math.fsum(vals), tl) if vals else None


@dataclass
class Figures:
    isf: float | None
    ssf_per_second: float | None
    ssf_per_hour: float | None
    ssf: float | None
    ssf_unit: str
    pmu_index_gb: float | None
    pmu_search_gb: float | None
    pl: float | None
    lam: float


def compute(index: Phase | None, search: Phase | None, t_audio_s: float, t_query_s: float | None,
            lam: float = 0.1, ssf_unit: str = "hour") -> Figures:
    """ISF, SSF (per second and per hour), PMU per phase and PL (see the module doc)."""
    if not 0.0 <= lam <= 1.0:
        raise InputError(f"lambda must lie in [0, 1], got {lam}")
    if ssf_unit not in ("hour", "second"):
        raise InputError(f"ssf unit must be 'hour' or 'second', got '{ssf_unit}'")
    if not t_audio_s > 0:
        raise InputError(f"the audio duration must be positive, got {t_audio_s}")
    isf = index.cpu_s / t_audio_s if index and index.cpu_s is not None else None
    ssf_s = ssf_h = None
    if search and search.cpu_s is not None and t_query_s:
        ssf_s = search.cpu_s / (t_query_s * t_audio_s)
        ssf_h = ssf_s * 3600.0  # cpu_h / (T_Q,h * T_audio,h) = cpu_s*3600 / (T_Q,s * T_audio,s)
    ssf = ssf_h if ssf_unit == "hour" else ssf_s
    pmu_i = index.pmu_gb if index else None
    pmu_s = search.pmu_gb if search else None
    pl = None
    if None not in (isf, ssf, pmu_i, pmu_s):
        pl = lam * isf * pmu_i + (1.0 - lam) * ssf * pmu_s
    return Figures(isf, ssf_s, ssf_h, ssf, ssf_unit, pmu_i, pmu_s, pl, lam)


def now() -> str:
    return datetime.datetime.now().isoformat(timespec="seconds")
