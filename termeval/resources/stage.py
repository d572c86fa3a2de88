"""Processing load (MediaEval SWS 2013: ISF, SSF, PMU, PL) as a stage of the one job
protocol (termeval.run.driver): one unit, nothing to split; the phase figures are read from
<exp-dir>/resources/{index,search} (utils/measure_resources.sh) and/or --resources-file.
"""
from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any

import numpy as np

from termeval.core.errors import InputError
from termeval.run.driver import Shard
from termeval.resources import resources


class ResourcesStage:
    name = "resources"
    outputs = ("scores/resources", "scores/scores.json", "scores/.summary")
    updates = ("scores/scores.json",)

    def __init__(self) -> None:
        self.text = ""

    def load(self, a: Any) -> SimpleNamespace:
        """Every figure the report needs (phases, T_audio, T_query, lambda, unit)."""
        rf = resources.read_resources_file(a.resources_file) if a.resources_file else {}
        phases = {}
        for ph in ("index", "search"):
            path = os.path.join(a.exp_dir, "resources", ph)
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
        if not phases:
            raise InputError(f"no measured phases in {a.exp_dir}/resources/ (run utils/measure_resources.sh) "
                             "and no --resources-file")

        # T_audio
        t_omega = rf.get("t_omega_s", "auto")
        if a.audio_duration is not None:
            t_audio, t_audio_src = a.audio_duration, "--audio-duration"
        elif t_omega not in ("", "auto"):
            try:
                t_audio, t_audio_src = float(t_omega), rf["path"]
            except ValueError:
                raise InputError(f"t_omega_s = '{t_omega}' is neither a number nor auto", rf["path"]) from None
        else:
            t_audio, t_audio_src = resources.audio_duration(a.reference)

        # T_query
        t_query, t_query_src = None, ""
        tq = rf.get("t_query_s", "")
        if a.query_durations:
            t_query, t_query_src = resources.sum_durations(a.query_durations), a.query_durations
        elif a.query_duration is not None:
            t_query, t_query_src = a.query_duration, "--query-duration"
        elif tq and tq != "auto":
            if tq.startswith("auto:"):
                t_query, t_query_src = resources.sum_durations(tq[5:]), tq[5:]
            else:
                try:
                    t_query, t_query_src = float(tq), rf["path"]
                except ValueError:
                    raise InputError(f"t_query_s = '{tq}' is not a number or auto:FILE", rf["path"]) from None
        elif os.path.isdir(a.reference) and os.path.isfile(os.path.join(a.reference, "query2dur")):
            q2d = os.path.join(a.reference, "query2dur")
            t_query, t_query_src = resources.sum_durations(q2d), q2d
        elif os.path.isdir(a.reference):
            got = resources.query_duration_from_termlist(a.reference)
            if got:
                t_query, t_query_src = got
        if "search" in phases and t_query is None:
            raise InputError("no query duration: give --query-durations FILE (e.g. the queries' utt2dur), "
                             "--query-duration SECONDS, t_query_s in --resources-file, "
                             f"{a.reference}/query2dur, or duration attributes in the term list")
        if t_query is not None and not t_query > 0:
            raise InputError(f"the total query duration must be positive, got {t_query}")

        lam = a.lam if a.lam is not None else float(rf.get("lambda", 0.1))
        unit = a.ssf_unit or rf.get("ssf_unit", "hour")
        f = resources.compute(phases.get("index"), phases.get("search"), t_audio, t_query, lam, unit)
        return SimpleNamespace(args=a, rf=rf, phases=phases, t_audio=t_audio, t_audio_src=t_audio_src,
                               t_query=t_query, t_query_src=t_query_src, lam=lam, unit=unit, figures=f)

    def identity(self, ctx: SimpleNamespace) -> dict:
        return {}

    def costs(self, ctx: SimpleNamespace) -> np.ndarray:
        return np.zeros(1)

    def compute(self, ctx: SimpleNamespace, lo: int, hi: int) -> Shard:
        return Shard()

    def merge(self, ctx: SimpleNamespace, shards: list[Shard]) -> SimpleNamespace:
        return ctx

    def report(self, ctx: SimpleNamespace, merged: Any, out: str) -> dict:
        from termeval.resources import report
        result, self.text = report.write(out, ctx)
        return result

    def summary(self, result: dict) -> str:
        return self.text
