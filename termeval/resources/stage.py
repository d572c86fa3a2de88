"""Processing load (MediaEval SWS 2013: ISF, SSF, PMU, PL) as a stage of the one job
protocol (termeval.run.driver): one unit, nothing to split. `load` reads the phase figures
(<exp-dir>/resources/{index,search} from utils/measure_resources.sh, and/or --resources-file),
T_audio, T_query and the hosts the phases were measured on; `merge` computes ISF, SSF, PMU and
PL from them (a few divisions: no job would have a share); `report` writes them.
"""
from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any

from termeval.core.errors import InputError
from termeval.core.stage import Report, Shard, Stage, View
from termeval.resources import report, resources
from termeval.resources.options import ResourcesOptions


class ResourcesStage(Stage):
    name = "resources"
    outputs = ("scores/resources", "scores/scores.json", "scores/.summary")
    updates = ("scores/scores.json",)

    def load(self, a: ResourcesOptions) -> SimpleNamespace:
        """Every input of the figures (phases, T_audio, T_query, lambda, unit, hosts)."""
        rf = resources.read_resources_file(a.resources_file) if a.resources_file else {}
        phases = {}
        measured = {ph: os.path.join(a.exp_dir, "resources", ph) for ph in ("index", "search")} \
            if a.exp_dir is not None else {}
        for ph in ("index", "search"):
            path = measured.get(ph, "")
            if ph in rf and (rf[ph].cpu_s is not None or rf[ph].pmu_gb is not None):
                meas = resources.phase_from_measure(path) if os.path.isfile(path) else None
                got = rf[ph]
                if meas is not None:  # fill what the file leaves out from the measurement
                    got = resources.Phase(got.cpu_s if got.cpu_s is not None else meas.cpu_s,
                                          got.wall_s if got.wall_s is not None else meas.wall_s,
                                          got.pmu_gb if got.pmu_gb is not None else meas.pmu_gb,
                                          got.source + " + " + meas.source)
                phases[ph] = got
            elif os.path.isfile(path):
                phases[ph] = resources.phase_from_measure(path)
        if not phases and a.exp_dir is None:
            raise InputError("no exp dir with measured phases (utils/measure_resources.sh) and no --resources-file")
        if not phases:
            raise InputError(f"no measured phases in {a.exp_dir}/resources/ (run utils/measure_resources.sh) "
                             "and no --resources-file")
        t_audio, t_audio_src = _t_audio(a, rf)
        t_query, t_query_src = _t_query(a, rf)
        if "search" in phases and t_query is None:
            raise InputError("no query duration: give --query-durations FILE (e.g. the queries' utt2dur), "
                             "--query-duration SECONDS, t_query_s in --resources-file, "
                             f"{a.reference}/query2dur, or duration attributes in the term list")
        if t_query is not None and not t_query > 0:
            raise InputError(f"the total query duration must be positive, got {t_query}")
        host = {}
        for ph, path in measured.items():
            if os.path.isfile(path):
                kv = resources.read_kv(path)
                host[ph] = {k: kv.get(k) for k in ("cpu_model", "cores", "usable_cores", "mem_total_gb", "host", "os")}
        lam = a.lam if a.lam is not None else float(rf.get("lambda", 0.1))
        unit = a.ssf_unit or rf.get("ssf_unit", "hour")
        return SimpleNamespace(args=a, rf=rf, phases=phases, t_audio=t_audio, t_audio_src=t_audio_src,
                               t_query=t_query, t_query_src=t_query_src, lam=lam, unit=unit, host=host)

    def compute(self, ctx: SimpleNamespace, lo: int, hi: int) -> Shard:
        return Shard()

    def merge(self, ctx: SimpleNamespace, shards: list[Shard]) -> Any:
        """The figures (termeval.resources.resources.compute)."""
        return resources.compute(ctx.phases.get("index"), ctx.phases.get("search"), ctx.t_audio, ctx.t_query,
                                 ctx.lam, ctx.unit)

    def report(self, ctx: SimpleNamespace, merged: Any, out: str) -> Report:
        result, text = report.write(out, ctx, merged)
        return Report(result, text)

    def view(self, ctx: SimpleNamespace, merged: Any, report_: Report) -> View:
        return View("Processing load (ISF, SSF, PMU, PL)")


def _t_audio(a: ResourcesOptions, rf: dict) -> tuple[float, str]:
    """T_audio and where it comes from: --audio-duration, t_omega_s, else the reference."""
    t_omega = rf.get("t_omega_s", "auto")
    if a.audio_duration is not None:
        return a.audio_duration, "--audio-duration"
    if t_omega not in ("", "auto"):
        try:
            return float(t_omega), rf["path"]
        except ValueError:
            raise InputError(f"t_omega_s = '{t_omega}' is neither a number nor auto", rf["path"]) from None
    return resources.audio_duration(a.reference)


def _t_query(a: ResourcesOptions, rf: dict) -> tuple[float | None, str]:
    """T_query and where it comes from (None, "": not found), first of: --query-durations,
    --query-duration, t_query_s, <reference>/query2dur, the term list's durations."""
    tq = rf.get("t_query_s", "")
    if a.query_durations:
        return resources.sum_durations(a.query_durations), a.query_durations
    if a.query_duration is not None:
        return a.query_duration, "--query-duration"
    if tq and tq != "auto":
        if tq.startswith("auto:"):
            return resources.sum_durations(tq[5:]), tq[5:]
        try:
            return float(tq), rf["path"]
        except ValueError:
            raise InputError(f"t_query_s = '{tq}' is not a number or auto:FILE", rf["path"]) from None
    if os.path.isdir(a.reference) and os.path.isfile(os.path.join(a.reference, "query2dur")):
        q2d = os.path.join(a.reference, "query2dur")
        return resources.sum_durations(q2d), q2d
    if os.path.isdir(a.reference):
        got = resources.query_duration_from_termlist(a.reference)
        if got:
            return got
    return None, ""


def stage_of(opts: Any) -> Stage:
    """The stage of the step's options (termeval/steps: Step.stage)."""
    return ResourcesStage()
