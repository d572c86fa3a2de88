"""A job dies with the step that started it.

A step (a shell step: utils/termeval_lib.sh exports it; the Python launcher, termeval/run/
launcher.py, sets it for its jobs) names itself to its processes in TERMEVAL_STEP=`<pid>
<host>`. Every entry point it starts (termeval/run/cli.py `run`) calls `watch_step()`: when
that process is on this host and alive, a daemon thread checks it every POLL seconds and, once
it is gone (killed with kill -9, its process group not, or a zombie), kills this process
(SIGKILL: a job writes nothing more; what it was writing is a temporary the next run removes,
termeval/core/publish.py). A step on another host (queue.pl, slurm.pl), or a pid this process
cannot see (another pid namespace), is not watched: the job is the grid's to stop.

On Linux a launcher also asks the kernel to signal its children when it dies
(`parent_death_signal`: prctl PR_SET_PDEATHSIG, through ctypes; utils/run.pl does the same
for itself and its tasks), so the chain step -> launcher -> job unwinds at once; the poll is
the fallback everywhere (a Kaldi run.pl in between, no prctl).
"""
from __future__ import annotations

import os
import signal
import threading
import time

from termeval.core.publish import hostname, proc_stat, process_alive

ENV = "TERMEVAL_STEP"
POLL = 0.5          # seconds between two looks at the step
PR_SET_PDEATHSIG = 1
_watching = False


def step_env(pid: int | None = None) -> dict[str, str]:
    """The environment entry naming process `pid` (default this one) as the step of the jobs
    it starts."""
    return {ENV: f"{os.getpid() if pid is None else pid} {hostname()}"}


def parent_death_signal(sig: int = signal.SIGTERM) -> bool:
    """Ask the kernel to send `sig` to this process when its parent (the thread that started
    it) exits (Linux prctl; False elsewhere or when it cannot be set). For a child: call it in
    its preexec_fn."""
    try:
        import ctypes    # Linux only, on the job path: not for --help
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _step() -> tuple[int, tuple[str, int] | None] | None:
    """(pid, its /proc state and start time) of the step named in TERMEVAL_STEP when it runs
    on this host and this process sees it alive; None: nothing to watch."""
    fields = os.environ.get(ENV, "").split()
    if len(fields) != 2 or not fields[0].isdigit() or fields[1] != hostname():
        return None
    pid = int(fields[0])
    if pid in (os.getpid(), 0) or not process_alive(pid):
        return None
    return pid, proc_stat(pid)


def _gone(pid: int, stat: tuple[str, int] | None) -> bool:
    if not process_alive(pid):
        return True
    now = proc_stat(pid)
    return stat is not None and now is not None and now[1] != stat[1]     # the pid was reused


def watch_step() -> bool:
    """Start watching the step of TERMEVAL_STEP (see the module doc); whether it is watched."""
    global _watching
    if _watching:
        return True
    step = _step()
    if step is None:
        return False
    pid, stat = step
    if pid == os.getppid():        # started by the step itself: the kernel tells at once
        parent_death_signal(signal.SIGKILL)
        if not process_alive(pid):                # it died before the request took
            os.kill(os.getpid(), signal.SIGKILL)

    def loop() -> None:
        while not _gone(pid, stat):
            time.sleep(POLL)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=loop, name="termeval-watch-step", daemon=True).start()
    _watching = True
    return True
