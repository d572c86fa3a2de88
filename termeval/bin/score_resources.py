#!/usr/bin/env python3
"""Processing-load figures of MediaEval SWS 2013 (Rodriguez-Fuentes and Penagarikano 2013 §4.3, docs/std.md §5): ISF, SSF, PMU and PL.

Usage: python -m termeval.bin.score_resources [options] <kws-data-dir-or-ecf> <exp-dir>
 e.g.: python -m termeval.bin.score_resources --query-durations data/example_std/kws/query2dur data/example_std/kws exp/example_std

Phase figures come from <exp-dir>/resources/{index,search} (utils/measure_resources.sh), or
from --resources-file (docs/std.md §5.2 layout: [audio] t_omega_s/t_query_s, [index]/[search]
cpu_s or wall_s+cores and pmu_gb, [report] lambda/ssf_unit/hardware), which wins where it
gives a value. Command-line options win over both.
T_audio: the ECF's excerpt duration (overlaps merged) of <kws-data-dir-or-ecf> (a kws dir
with ecf.xml or *.ecf.xml, an ECF file, a data dir with reco2dur, or a reco2dur-style file);
t_omega_s in the resources file overrides it unless it says auto.
T_query (all query examples, seed eq. 47), first found of: --query-durations FILE
(`<example-id> <seconds>`, e.g. a query data dir's utt2dur), --query-duration SECONDS,
t_query_s in the resources file (a number or auto:FILE), <kws-data-dir>/query2dur, and a
term list whose every term has a `duration` attribute (terminfo/kwinfo, seconds).

ISF = index CPU / T_audio; SSF = search CPU / (T_query x T_audio), per hour (default) or per
second; PMU in GB (2^30 bytes); PL = lambda*ISF*PMU_i + (1-lambda)*SSF*PMU_s with SSF in the
chosen unit. Written to <exp-dir>/scores/resources and scores.json.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from termeval.cli import make_parser, positive_float, prob, run
from termeval.errors import InputError
from termeval.scores import Metric, write_scores
from termeval.resources import resources


def get_parser() -> argparse.ArgumentParser:
    """The options of this step (its --help)."""
    p = make_parser(__doc__)
    p.add_argument("--lambda", dest="lam", type=prob, default=None, help="default 0.1 (seed)")
    p.add_argument("--ssf-unit", choices=("hour", "second"), default=None, help="default hour (as the seed)")
    p.add_argument("--resources-file", default="", help="docs/std.md §5.2 key=value file")
    p.add_argument("--query-durations", default="", help="`<example-id> <seconds>` file")
    p.add_argument("--query-duration", type=positive_float, default=None, help="T_query in seconds")
    p.add_argument("--audio-duration", type=positive_float, default=None, help="T_audio in seconds (overrides)")
    p.add_argument("reference")
    p.add_argument("exp_dir")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    a = get_parser().parse_args(argv)
    prog = os.path.basename(sys.argv[0])

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
    host = {}
    for ph in ("index", "search"):
        path = os.path.join(a.exp_dir, "resources", ph)
        if os.path.isfile(path):
            kv = resources.read_kv(path)
            host[ph] = {k: kv.get(k) for k in ("cpu_model", "cores", "usable_cores", "mem_total_gb", "host", "os")}
    extra = {"resources": {"ssf_unit": unit, "gb": "2^30 bytes", "hardware": rf.get("hardware"),
                           "measured_on": host, "t_audio_source": t_audio_src,
                           "t_query_source": t_query_src,
                           "phase_sources": {k: v.source for k, v in phases.items()}}}
    path = write_scores(a.exp_dir, "resources", metrics, "sws2013", extra)
    fmt = lambda x, d=6: "-" if x is None else f"{x:.{d}f}"  # noqa: E731
    print(f"ISF = {fmt(f.isf)}  SSF = {'-' if f.ssf is None else format(f.ssf, '.6g')} {per}  PMU_i = {fmt(f.pmu_index_gb, 4)} GB  "
          f"PMU_s = {fmt(f.pmu_search_gb, 4)} GB  PL = {fmt(f.pl)} (lambda {lam:g})")
    print(f"{prog}: wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
