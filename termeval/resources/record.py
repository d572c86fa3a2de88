"""One measured phase (utils/measure_resources.sh, termeval.measure_resources): a command run
under termeval.resources.measure, its figures and the host written as key=value lines to
<exp-dir>/resources/<phase> (added to the phase's earlier runs with --append)."""
from __future__ import annotations

import os
import shlex
from typing import Sequence

from termeval.core.guard import check_outputs
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
