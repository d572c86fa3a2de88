"""One measured phase (utils/measure_resources.sh, termeval.measure_resources): a command run
under termeval.resources.measure, its figures and the host written as key=value lines to
<exp-dir>/resources/<phase> (added to the phase's earlier runs with --append)."""
from __future__ import annotations

import os
import shlex
import sys
from typing import Sequence

from termeval.core.errors import InputError
from termeval.core.guard import check_outputs
from termeval.core.warn import step_name, warn
from termeval.resources import measure, resources


def record(opts, cmd: Sequence[str]) -> tuple[dict, dict, str]:
    """Run `cmd` (a MeasureOptions `opts`), write <exp-dir>/resources/<phase>; returns this
    run's measurement (termeval.resources.measure.measure), the values written (with --append:
    merged with the earlier runs) and the file's path. A failing command is measured too
    (its exit_status)."""
    out_path = os.path.join(opts.exp_dir, "resources", opts.phase)
    # before the command runs: a directory where the file goes, a file where a directory goes
    check_outputs("measure_resources", [], [out_path], [opts.exp_dir, os.path.dirname(out_path)], [out_path])
    old = resources.read_kv(out_path) if opts.append and os.path.isfile(out_path) else None
    started = resources.now()
    res = measure.measure(list(cmd), opts.interval, opts.wait_orphans)
    host = measure.host_info()
    values = {"phase": opts.phase, "command": " ".join(shlex.quote(c) for c in cmd),
              "date": started, **res, "runs": 1, **host}
    if old is not None:
        values = resources.merge_runs(old, values)
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    resources.write_kv(out_path, values)
    return res, values, out_path


# ----------------------------------------------------------------------------- the step (termeval/steps)

def run(opts, run_task) -> dict:
    """measure_resources on its MeasureOptions (the command in opts.command): the values
    <exp-dir>/resources/<phase> holds (exit_status among them: a failing command is measured,
    not raised)."""
    if not opts.command:
        raise InputError("no command to run (give it after --)")
    res, values, path = record(opts, opts.command)
    if res["still_running"]:
        warn(None, f"{res['still_running']} process(es) started by the command were still running when it exited; "
                   "their CPU time is not counted")
    return {**values, "this_run": res, "path": path}


def show(opts, res: dict) -> int:
    """The closing line; the command line exits with the command's exit status."""
    r = res["this_run"]
    print(f"{step_name()}: {opts.phase}: exit {r['exit_status']}, cpu {r['cpu_s']:.3f} s, wall "
          f"{r['wall_s']:.3f} s, peak {r['peak_mem_kb'] / 1024:.1f} MiB "
          f"({r['max_processes']} processes at most) -> {res['path']}", file=sys.stderr)
    return r["exit_status"]
