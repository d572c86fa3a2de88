"""Processing-resource figures of MediaEval SWS 2013 (Rodriguez-Fuentes and Penagarikano 2013 §4.3; docs/std.md §5): ISF, SSF, PMU
and PL, from measured phases or a resources file.

Measurement: termeval.resources.measure (`measure`, `host_info`, re-exported here).

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
import datetime
import glob
import math
import os
from dataclasses import dataclass

from termeval.core.errors import InputError
from termeval.core.kaldi_files import read_durations
from termeval.resources.measure import GB
from termeval.core.textio import atomic_write, iter_lines, read_text


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


def _key_line(path: str, key: str, section: str | None = None) -> int | None:
    """Line of `key = ...` (in [section]) of a key=value file, for messages (errors only)."""
    current = None
    try:
        lines = list(iter_lines(path))
    except (OSError, InputError):
        return None
    for n, line in lines:
        s = line.strip()
        if s.startswith("[") and s.endswith("]"):
            current = s[1:-1].strip()
        elif (section is None or current == section) and s.partition("=")[0].partition(":")[0].strip().lower() == key:
            return n
    return None


def _num(kv: dict, key: str, path: str, section: str | None = None, positive: bool = False) -> float | None:
    v = kv.get(key, "")
    if v in ("", None):
        return None
    try:
        x = float(str(v).strip().strip('"'))
    except ValueError:
        raise InputError(f"{key} = '{v}' is not a number", path, _key_line(path, key, section)) from None
    if not math.isfinite(x) or x < 0 or (positive and x == 0):
        raise InputError(f"{key} = '{v}' must be a finite {'positive' if positive else 'non-negative'} number",
                         path, _key_line(path, key, section))
    return x


def _gb(kv: dict, path: str, section: str | None = None) -> float | None:
    g = _num(kv, "pmu_gb", path, section)
    if g is None:
        kb = _num(kv, "peak_mem_kb", path, section)
        g = kb * 1024 / GB if kb is not None else None
    return g


def read_resources_file(path: str) -> dict:
    """The docs/std.md §5.2 file: sections [audio] (t_omega_s, t_query_s), [index] and [search]
    (cpu_s, or wall_s and cores; pmu_gb or peak_mem_kb), [report] (lambda, ssf_unit,
    hardware). Values may be quoted; '#' starts a comment. Returns a plain dict; every value
    is checked here, so that a bad one is reported with this file and its line."""
    cp = configparser.ConfigParser(inline_comment_prefixes=("#", ";"), interpolation=None)
    try:
        cp.read_string(read_text(path), source=path)
    except configparser.Error as e:
        line = getattr(e, "lineno", None)
        raise InputError(f"not a key=value file with [sections]: {str(e).splitlines()[0]}", path, line) from None
    out: dict = {"path": path}
    for ph in ("index", "search"):
        if cp.has_section(ph):
            kv = {k: v.strip().strip('"') for k, v in cp.items(ph)}
            cpu = _num(kv, "cpu_s", path, ph)
            wall = _num(kv, "wall_s", path, ph)
            if cpu is None and wall is not None:
                cores = _num(kv, "cores", path, ph, positive=True)
                cpu = wall * (cores if cores is not None else 1.0)
            out[ph] = Phase(cpu, wall, _gb(kv, path, ph), f"{path} [{ph}]")
    if cp.has_section("audio"):
        for k in ("t_omega_s", "t_query_s"):
            if cp.has_option("audio", k):
                v = cp.get("audio", k).strip().strip('"')
                if v != "auto" and not (k == "t_query_s" and v.startswith("auto:") and len(v) > 5):
                    _num({k: v}, k, path, "audio", positive=True)
                out[k] = v
    if cp.has_section("report"):
        for k in ("lambda", "ssf_unit", "hardware"):
            if cp.has_option("report", k):
                out[k] = cp.get("report", k).strip().strip('"')
        if "lambda" in out:
            lam = _num(out, "lambda", path, "report")
            if lam is not None and lam > 1:
                raise InputError(f"lambda = '{out['lambda']}' must lie in [0, 1]", path,
                                 _key_line(path, "lambda", "report"))
        if out.get("ssf_unit", "hour") not in ("hour", "second"):
            raise InputError(f"ssf_unit = '{out['ssf_unit']}' must be hour or second", path,
                             _key_line(path, "ssf_unit", "report"))
    return out


def sum_durations(path: str) -> float:
    """Sum of the durations of a `<id> <seconds>` file (Kaldi utt2dur / reco2dur style)."""
    total = 0.0
    for d in read_durations(path, positive=False).values():
        total += d  # in file order, as before
    return total


def audio_duration(path: str) -> tuple[float, str]:
    """T_audio in seconds from an ECF file, a directory holding one (kws dir), or a
    reco2dur/utt2dur-style file (or a data dir with reco2dur)."""
    from termeval.std.ecf import read_ecf    # std reader (numpy, XML): not for measure_resources --help
    if os.path.isdir(path):
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
    from termeval.quesst.quesst_io import _find       # quesst/std readers (numpy, XML): not for measure_resources --help
    from termeval.std.termlist import read_termlist   # std reader (numpy, XML): not for measure_resources --help
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
    try:
        total = math.fsum(vals)
    except OverflowError:       # every value finite, their sum beyond float
        total = math.inf
    if not math.isfinite(total):
        raise InputError("the query durations sum beyond a float (durations in the wrong unit?)", tl)
    return (total, tl) if vals else None


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
    if not (t_audio_s > 0 and math.isfinite(t_audio_s)):
        raise InputError(f"the audio duration must be a finite number > 0, got {t_audio_s}")
    if t_query_s is not None and not math.isfinite(t_query_s):
        raise InputError(f"the query duration must be finite, got {t_query_s}")
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
