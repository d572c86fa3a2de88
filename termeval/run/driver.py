"""The one driver under every step: a scoring stage (termeval/core/stage.py: load, identity,
costs, compute, merge, report -> Report) run in one process, as job J of N, or as the merge;
one-shot steps (preparations, exports, comparisons, summaries) through `run_task`.

`run(stage, opts, exp_dir, nj=, job=, merge=, run_id=)`: `opts` is the step's Options
(termeval/core/options.py). One process (the default) holds the exp dir's lock for the whole
run (`exp_lock`, termeval/core/lock.py; nothing is taken when the calling shell step holds it,
TERMEVAL_LOCKED); job J (`--nj N --job J`) computes and saves one shard
`<exp>/jobs/<stage name>.J.npz` (its launcher holds the lock); the merge (`--merge N`) loads,
merges and reports. While a job or the merge loads, `termeval.core.stage.is_share()` is true:
a lazy stage then reads only what every process needs (costs, identity) and `compute` reads
its share (what keeps a job's memory to its share). Shards are written atomically with their
metadata (stage, split, range, identity, run id) and the merge refuses any shard written for
another split, other inputs or another run, so results are the same for any N.

Before anything is written, `check_io` runs the one output guard (termeval/core/guard.py): a run
whose outputs would overwrite or delete one of its inputs, or whose scores/ is a regular file,
is refused. A stage may name its paths itself with `io_paths(opts) -> (inputs, outputs)`; by
default they come from the Options' roles (`opts.paths("input")`). Reports are written into a
temporary directory inside the exp dir and moved into place only when complete (`publish`, on
termeval/core/publish.py); the stage's `outputs` are what the run owns there (replaced whole,
left as they were by a failed run), its `updates` what it merges into (scores/scores.json).

With TERMEVAL_TIMING=1 a one-process run and a run_task print one stderr line `termeval-timing:
<stage> load <s> kernel <s> report <s> page <s>` (process CPU seconds; kernel = compute + merge,
a run_task's write; page = report.html and the TextGrids, termeval/report/), what
local/bench_steps.sh sets a step's end-to-end CPU against; unset, nothing.
"""
from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import sys
import time
import zipfile
from typing import Any, Sequence

import numpy as np

from termeval.core import lock
from termeval.core import plots
from termeval.core import usercache
from termeval.core import publish as publish_
from termeval.core.errors import InputError
from termeval.core.guard import check_outputs, check_placing
from termeval.core.options import ReportOptions
from termeval.core.lock import LOCK_ENV, LOCK_NAME  # noqa: F401  (the shell and tests name them here)
from termeval.core.stage import DEFAULT_OUTPUTS, Shard, Stage, balanced_ranges, running_as  # noqa: F401  (stages import Shard from here too)
from termeval.core.textio import atomic_write
from termeval.core.warn import warn

PROTOCOL = 1
REPORT_PAGE = "report.html"    # what a scoring run may own besides its stage's outputs (termeval/report/page.py)
TEXTGRIDS = "details/textgrids"    # and files of the steps' shared TextGrid dir (termeval/report/write.py)




# ----------------------------------------------------------------------------- the split



# ----------------------------------------------------------------------------- shard files

def shard_path(exp_dir: str, name: str, job: int) -> str:
    return os.path.join(exp_dir, "jobs", f"{name}.{job}.npz")


def save_shard(path: str, meta: dict, shard: Shard) -> None:
    """Write a shard atomically: a job killed mid-way leaves no file a merge would accept."""
    if "meta" in shard.arrays:
        raise ValueError("'meta' is reserved in shard arrays")
    with atomic_write(path, "wb") as f:
        np.savez(f, meta=np.asarray(json.dumps({"guard": meta, "stats": shard.meta})), **shard.arrays)


def load_shard(path: str, expect: dict) -> Shard:
    """The shard at `path` whose guard metadata equals `expect` key by key."""
    if not os.path.isfile(path):
        raise InputError("job output not found (did the job run? see its log)", path)
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            arrays = {k: z[k] for k in z.files if k != "meta"}
        guard, stats = meta["guard"], meta["stats"]
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as e:
        raise InputError(f"unreadable job output ({type(e).__name__}: {e})", path) from None
    for k, v in expect.items():
        if guard.get(k) != v:
            raise InputError(f"job output of another run ({k} = {guard.get(k)!r}, expected {v!r}); "
                             "re-run the step", path)
    return Shard(stats, arrays)


def _guard(stage: Stage, ctx: Any, nj: int, job: int, lo: int, hi: int, run_id: str | None) -> dict:
    # a JSON round trip so that tuples/ints compare as they will when read back
    return json.loads(json.dumps({"protocol": PROTOCOL, "stage": stage.name, "identity": stage.identity(ctx),
                                  "run": run_id or "", "nj": nj, "job": job, "lo": lo, "hi": hi}))


# ----------------------------------------------------------------------------- outputs

def exp_lock(exp_dir: str):
    """Hold `<exp>/.termeval.lock` for the block (termeval.core.lock.hold, the one lock): a
    second run on the same exp dir is refused with one line naming the holder; a stale lock is
    taken over; nothing is done when the calling shell step already holds it (TERMEVAL_LOCKED)."""
    return lock.hold(os.path.abspath(exp_dir))


def new_output_dir(exp_dir: str) -> str:
    """A fresh temporary directory inside the exp dir (same filesystem: renames are atomic;
    termeval.core.publish.new_dir, which also removes what dead runs left there)."""
    os.makedirs(exp_dir, exist_ok=True)
    try:
        return publish_.new_dir(os.path.join(os.path.abspath(exp_dir), "out"))
    except OSError as e:
        raise OSError(e.errno, e.strerror, exp_dir) from None


def owned_names(exp_dir: str, out: str, names: Sequence[str]) -> list[str]:
    """`names` with each glob pattern ("details/breakdown_*.tsv") replaced by what it matches
    in the exp dir (earlier runs) and in `out` (this run)."""
    got: list[str] = []
    for name in names:
        if not glob.has_magic(name):
            got.append(name)
            continue
        for base in (exp_dir, out):
            got += [os.path.relpath(p, base) for p in glob.glob(os.path.join(base, name))]
    return list(dict.fromkeys(got))


def _under(root: str, name: str) -> str:
    """root/name as a message shows it (`RESULTS.md`, not `./RESULTS.md`)."""
    return name if root in ("", ".") else os.path.join(root, name)


def publish(exp_dir: str, out: str, names: Sequence[str], step: str = "this step",
            inputs: Sequence[Any] = ()) -> None:
    """Move each owned output `name` (a top-level directory like "scores", a file inside one
    like "scores/std", or a glob pattern) from `out` into the exp dir, replacing the old one
    whole (termeval.core.publish.replace); an owned name the run did not write is removed (it
    belonged to an earlier run). First, for all of them (nothing is moved when one fails), the
    output guard's check_placing: a destination of the other kind (a directory where the run
    wrote a file), a new file directly in an input directory, an output that is or holds one
    of `inputs` is an InputError."""
    owned = owned_names(exp_dir, out, names)
    check_placing(step, [(os.path.join(out, n), _under(exp_dir, n)) for n in owned
                         if os.path.lexists(os.path.join(out, n))], inputs)
    for name in owned:
        new, dest = os.path.join(out, name), os.path.join(exp_dir, name)
        if os.path.lexists(new):
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            publish_.replace(new, dest)
        else:
            publish_.withdraw(dest)
    publish_.remove(out)


def carry(exp_dir: str, out: str, names: Sequence[str]) -> None:
    """Copy the files a run updates rather than replaces (scores/scores.json, which stages
    sharing an exp dir merge into) from the exp dir into `out` before the report."""
    for name in names:
        src = os.path.join(exp_dir, name)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(out, name)), exist_ok=True)
            shutil.copy2(src, os.path.join(out, name))


def discard(out: str) -> None:
    publish_.remove(out)


# ----------------------------------------------------------------------------- the output guard

def io_paths(stage: Stage, opts: Any, exp_dir: str | None) -> tuple[list[str], list[str], list[str]]:
    """(inputs, outputs, needed dirs) of a run, for the output guard: the stage's own
    `io_paths(opts)` -> (inputs, outputs) when it has one, else the paths of the Options'
    input/output roles; plus the stage's owned outputs under the exp dir, whose top directories
    (scores, details, units) must be directories, and the directories it `prepares` there
    (classes/, tde/; exp_dir None: none)."""
    owned = list(getattr(stage, "outputs", DEFAULT_OUTPUTS)) if exp_dir is not None else []
    tops = dict.fromkeys(n.split("/")[0] for n in owned)
    dirs = [os.path.join(exp_dir, t) for t in tops                     # type: ignore[arg-type]
            if t in DEFAULT_OUTPUTS or any(n.startswith(t + "/") for n in owned)]
    outs = [os.path.join(exp_dir, n) for n in owned_names(exp_dir, exp_dir, owned)] if owned else []  # type: ignore[arg-type]
    if exp_dir is not None:
        outs.append(os.path.join(exp_dir, REPORT_PAGE))
        # the shared TextGrids a run may rewrite (its tiers replaced or dropped: report/write.py)
        outs += glob.glob(os.path.join(glob.escape(os.path.join(exp_dir, TEXTGRIDS)), "*.TextGrid"))
        # what the stage prepares and replaces besides its outputs (a TDE stage's classes/, tde/)
        outs += [os.path.join(exp_dir, n) for n in getattr(stage, "prepares", ())]
    custom = getattr(stage, "io_paths", None)     # a stage's optional hook (the Stage protocol)
    if callable(custom):
        ins, more = custom(opts)
        return list(ins), outs + list(more), dirs
    ins = opts.paths("input")
    more = [p for p in opts.paths("output") if exp_dir is None or os.path.abspath(p) != os.path.abspath(exp_dir)]
    return ins, outs + more, dirs


def check_io(stage: Stage, opts: Any, exp_dir: str | None) -> tuple[list[str], list[str]]:
    """The output guard (termeval.core.guard.check_outputs) of a run, before anything is
    written; returns the run's (inputs, outputs) (the guard checks them again when the outputs
    are put in place, `publish`; the user cache refuses a directory among them, `usercache`)."""
    ins, outs, dirs = io_paths(stage, opts, exp_dir)
    if exp_dir is not None:
        files = file_outputs(exp_dir, getattr(stage, "outputs", DEFAULT_OUTPUTS))
        if isinstance(opts, ReportOptions) and opts.report:   # a file the run writes, whether it exists or not
            files.append(os.path.join(exp_dir, REPORT_PAGE))
        check_outputs(getattr(stage, "name", "") or "this step", ins, outs + logs_and_shards(stage, exp_dir),
                      [exp_dir, *dirs], files)
        outs = [exp_dir, *outs]
    return list(ins), list(outs)


def logs_and_shards(stage: Stage, exp_dir: str) -> list[str]:
    """What a run writes or removes besides its outputs: its logs (<exp>/log/<name>[.J|.merge].log)
    and its jobs' shards (<exp>/jobs/<name>.J.npz, the stale ones cleared): none may be an input."""
    name = getattr(stage, "name", "") or ""
    if not name:
        return []
    log, jobs = os.path.join(exp_dir, "log"), os.path.join(exp_dir, "jobs")
    return ([os.path.join(log, f"{name}.log")] + glob.glob(os.path.join(glob.escape(log), f"{glob.escape(name)}.*.log"))
            + glob.glob(os.path.join(glob.escape(jobs), f"{glob.escape(name)}.*.npz")))


def file_outputs(root: str, names: Sequence[str]) -> list[str]:
    """The owned outputs that are files by termeval's layout: everything below scores/ and
    units/ (scores/std, scores/scores.json, units/units.std_term.npz, ...). A directory there
    is refused before the run (the output guard), not after it (`publish`)."""
    return [os.path.join(root, n) for n in names
            if n.split("/")[0] in ("scores", "units") and "/" in n and not glob.has_magic(n)]


# ----------------------------------------------------------------------------- running

TIMING_ENV = "TERMEVAL_TIMING"


class _Timing:
    """With TERMEVAL_TIMING=1 only: the process CPU time (time.process_time) of a one-process
    run's parts, printed as one stderr line `termeval-timing: <stage> load <s> kernel <s> report
    <s>` (kernel = compute + merge; a run_task step's write). Unset: nothing measured or printed."""

    def __init__(self, on: bool = True) -> None:
        self.on = on and os.environ.get(TIMING_ENV) == "1"
        self.spent = {"load": 0.0, "kernel": 0.0, "report": 0.0, "page": 0.0}

    @contextlib.contextmanager
    def __call__(self, part: str) -> Any:
        if not self.on:
            yield
            return
        start = time.process_time()
        try:
            yield
        finally:
            self.spent[part] += time.process_time() - start

    def emit(self, name: str) -> None:
        if self.on:
            s = self.spent
            sys.stderr.write(f"termeval-timing: {name} load {s['load']:.3f} kernel {s['kernel']:.3f}"
                             f" report {s['report']:.3f} page {s['page']:.3f}\n")
            sys.stderr.flush()


def run(stage: Stage, opts: Any, exp_dir: str | None, *, nj: int = 1, job: int | None = None,
        merge: int | None = None, run_id: str | None = None, echo: bool = True,
        keep_summary: bool = True) -> dict | None:
    """Run `stage` on `opts`: one process (job and merge None), job `job` of `nj` (save its
    shard, return None), or the merge of `merge` shards. Returns the scores mapping.
    With exp_dir None (the Python API without exp_dir) nothing is written anywhere. A merge
    keeps its summary in scores/.summary for the step that launched it (keep_summary; the
    plan's in-process merge prints it instead)."""
    if job is not None and merge is not None:
        raise InputError("--job and --merge exclude each other")
    if job is not None and not 1 <= job <= nj:
        raise InputError(f"--job must lie in 1..{nj}, got {job}")
    ins, outs = check_io(stage, opts, exp_dir)
    plots.new_run()                              # a plot skipped without matplotlib: one note per run
    part = "job" if job is not None else "merge" if merge is not None else None
    # the user cache (termeval/core/usercache.py) refuses a cache dir that is, holds or lies in one of them
    with running_as(part), usercache.guarding(getattr(stage, "name", "") or "this step", ins, outs,
                                              getattr(stage, "user_cache", False)):
        if exp_dir is None or job is not None:   # nothing written, or a job: its launcher holds the lock
            return _run(stage, opts, exp_dir, nj, job, merge, run_id, echo, keep_summary, ins)
        with exp_lock(exp_dir):    # the whole run (a stage's load may prepare files, e.g. the classes)
            return _run(stage, opts, exp_dir, nj, job, merge, run_id, echo, keep_summary, ins)


def _run(stage: Stage, opts: Any, exp_dir: str | None, nj: int, job: int | None, merge: int | None,
         run_id: str | None, echo: bool, keep_summary: bool, ins: Sequence[str] = ()) -> dict | None:
    clock = _Timing(job is None and merge is None)     # the one-process path only
    with clock("load"):
        ctx = stage.load(opts)
    if job is not None:
        if exp_dir is None:
            raise InputError("a job needs an exp dir")
        lo, hi = balanced_ranges(stage.costs(ctx), nj)[job - 1]
        save_shard(shard_path(exp_dir, stage.name, job), _guard(stage, ctx, nj, job, lo, hi, run_id),
                   stage.compute(ctx, lo, hi))
        return None
    if merge is not None:
        if exp_dir is None:
            raise InputError("a merge needs an exp dir")
        ranges = balanced_ranges(stage.costs(ctx), merge)
        shards = [load_shard(shard_path(exp_dir, stage.name, j),
                             _guard(stage, ctx, merge, j, lo, hi, run_id))
                  for j, (lo, hi) in enumerate(ranges, 1)]
    else:
        with clock("kernel"):
            shards = [stage.compute(ctx, 0, len(stage.costs(ctx)))]
    with clock("kernel"):
        merged = stage.merge(ctx, shards)
    if exp_dir is None:
        import tempfile    # only for a run that writes nothing (the API without an exp dir)
        with tempfile.TemporaryDirectory(prefix="termeval-") as out, clock("report"):
            report = stage.report(ctx, merged, out)
    else:
        out = new_output_dir(exp_dir)
        try:
            carry(exp_dir, out, getattr(stage, "updates", ()))
            with clock("report"):
                report = stage.report(ctx, merged, out)
            owned = list(getattr(stage, "outputs", DEFAULT_OUTPUTS))
            with clock("page"):
                owned += _page(stage, ctx, merged, report, opts, exp_dir, out, owned)
            if merge is not None and keep_summary:      # under a launcher its stdout goes to the log
                _write_summary(out, report.summary)
            publish(exp_dir, out, owned, getattr(stage, "name", "") or "this step", ins)
        except (InputError, OSError) as e:
            discard(out)
            raise _named_in_exp(e, out, exp_dir) from None
        except BaseException:
            discard(out)
            raise
        if merge is not None:
            remove_shards(exp_dir, stage.name, merge)
    clock.emit(getattr(stage, "name", "") or "stage")
    for w in report.warnings:           # each warning once, whatever the face (scores.json keeps them)
        warn(None, w)
    if echo:
        text = report.summary
        if text:
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
            sys.stdout.flush()
    return dict(report.scores)


def _page(stage: Stage, ctx: Any, merged: Any, report: Any, opts: Any, exp_dir: str, out: str,
          owned: list[str]) -> list[str]:
    """The stage's section of <exp>/report.html and its TextGrids, written into `out`
    (termeval/report/write.py) when --report true or --textgrids true asks for them, or when an
    earlier page holds a section of this stage to drop (--report false) or earlier TextGrids may
    hold its tiers; returns what the run owns besides the stage's outputs. Nothing is imported
    otherwise."""
    if not (isinstance(opts, ReportOptions) and (opts.report or opts.textgrids)
            or os.path.isfile(os.path.join(exp_dir, REPORT_PAGE)) or os.path.isdir(os.path.join(exp_dir, TEXTGRIDS))):
        return []
    from termeval.report import write    # the report's writers: only when a page or TextGrids are written
    return write.run(stage, ctx, merged, report, opts, exp_dir, out, owned_names(exp_dir, out, owned))


def run_task(name: str, out_root: str, outputs: Sequence[str], write: Any, *,
             inputs: Sequence[str] = (), lock: bool = True) -> Any:
    """A one-shot step (preparation, export, conversion, comparison, summary) through the
    driver: `write(tmp)` lays its files out under a fresh temporary directory inside `out_root`
    (as they will stand under out_root) and returns its result; then each owned name of
    `outputs` is moved into place whole (publish), under out_root's lock. A failed write leaves
    out_root as it was. `inputs`: the run's input paths (termeval.core.guard: plain paths, or
    Searched roots), which no output may be, hold or (a file) lie directly in; out_root must be
    a directory (or not exist yet). The guard runs again, with the kinds of the new outputs
    known, before anything is moved into place (`publish`)."""
    check_outputs(name, inputs, [_under(out_root, o) for o in outputs], [out_root], file_outputs(out_root, outputs))
    plots.new_run()                              # a plot skipped without matplotlib: one note per run
    ctx = exp_lock(out_root) if lock else contextlib.nullcontext()
    with ctx:
        out = new_output_dir(out_root)
        try:
            clock = _Timing()
            with clock("kernel"):
                result = write(out)
            publish(out_root, out, outputs, name, inputs)
            clock.emit(name)
        except BaseException:
            discard(out)
            raise
    return result


def _named_in_exp(e: Exception, out: str, exp_dir: str) -> Exception:
    """`e` naming the output's place in the exp dir, not in the temporary one (`out`) the run
    was writing: "<exp>/details/x.png: cannot write this plot", not "<exp>/.termeval-tmp.../"."""
    def moved(path: Any) -> Any:
        if isinstance(path, str) and (path == out or path.startswith(out + os.sep)):
            return os.path.join(exp_dir, os.path.relpath(path, out))
        return path
    if isinstance(e, InputError):
        new = InputError(e.message.replace(out + os.sep, os.path.join(exp_dir, "")), moved(e.path), e.line)
    elif e.filename is not None and e.errno is not None:
        new = OSError(e.errno, e.strerror, moved(e.filename))
    else:
        return e
    return new


SUMMARY = os.path.join("scores", ".summary")   # what a launched run's shell step prints


def _write_summary(out: str, text: str) -> None:
    """The stdout summary of a merge, kept with the scores: the step whose merge ran under a
    launcher (its stdout went to the log) prints this file and removes it
    (utils/termeval_lib.sh te_run_stage)."""
    if text and os.path.isdir(os.path.join(out, "scores")):
        with atomic_write(os.path.join(out, SUMMARY)) as f:
            f.write(text if text.endswith("\n") else text + "\n")


def clear_shards(exp_dir: str, name: str) -> None:
    """Remove every shard `<exp>/jobs/<name>.*.npz` (stale ones of an earlier run), as a step
    does before launching its jobs (utils/termeval_lib.sh te_run_stage: the same glob)."""
    for path in glob.glob(os.path.join(glob.escape(os.path.join(exp_dir, "jobs")), f"{glob.escape(name)}.*.npz")):
        with contextlib.suppress(FileNotFoundError, IsADirectoryError):
            os.unlink(path)


def remove_shards(exp_dir: str, name: str, nj: int) -> None:
    for j in range(1, nj + 1):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(shard_path(exp_dir, name, j))
    with contextlib.suppress(OSError):
        os.rmdir(os.path.join(exp_dir, "jobs"))

