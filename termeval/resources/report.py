"""What a processing-load run writes (termeval.resources.stage): scores/resources and the
metrics merged into scores/scores.json, into the directory `out` laid out as an exp dir.
"""
from __future__ import annotations

from termeval.core.scores import Metric, write_scores


def write(out: str, ctx, f) -> tuple[dict, str]:
    """The score files of the figures `f` (resources.compute); returns the scores mapping
    and the ISF/SSF/PMU/PL line for stdout."""
    rf, phases = ctx.rf, ctx.phases
    t_audio, t_query, lam, unit = ctx.t_audio, ctx.t_query, ctx.lam, ctx.unit
    t_audio_src, t_query_src = ctx.t_audio_src, ctx.t_query_src
    ix, se = phases.get("index"), phases.get("search")
    per = f"per {unit}"
    metrics = [
        Metric("isf", f.isf, "index CPU / audio duration"),
        Metric("ssf", f.ssf, f"{per}: search CPU / (query duration x audio duration)"),
        Metric("ssf_per_hour", f.ssf_per_hour), Metric("ssf_per_second", f.ssf_per_second),
        Metric("pmu_index_gb", f.pmu_index_gb), Metric("pmu_search_gb", f.pmu_search_gb),
        Metric("pl", f.pl, f"lambda {lam:g}, SSF {per}, PMU in GB"),
        Metric("lambda", lam),
        Metric("t_audio_s", t_audio), Metric("t_query_s", t_query),
        Metric("index_cpu_s", ix.cpu_s if ix else None), Metric("index_wall_s", ix.wall_s if ix else None),
        Metric("search_cpu_s", se.cpu_s if se else None), Metric("search_wall_s", se.wall_s if se else None),
    ]
    extra = {"resources": {"ssf_unit": unit, "gb": "2^30 bytes", "hardware": rf.get("hardware"),
                           "measured_on": ctx.host, "t_audio_source": t_audio_src,
                           "t_query_source": t_query_src,
                           "phase_sources": {k: v.source for k, v in phases.items()}}}
    result: dict = {}
    write_scores(out, "resources", metrics, "sws2013", extra, into=result)
    fmt = lambda x, d=6: "-" if x is None else f"{x:.{d}f}"  # noqa: E731
    text = (f"ISF = {fmt(f.isf)}  SSF = {'-' if f.ssf is None else format(f.ssf, '.6g')} {per}  "
            f"PMU_i = {fmt(f.pmu_index_gb, 4)} GB  PMU_s = {fmt(f.pmu_search_gb, 4)} GB  PL = {fmt(f.pl)} (lambda {lam:g})\n")
    return result, text
