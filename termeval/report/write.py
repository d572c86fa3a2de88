"""What the driver runs after a stage's report when --report or --textgrids asks for it
(termeval/run/driver.py): the stage's section of <exp>/report.html and its TextGrids, written
into the run's temporary output dir `out` and published with the scores (one publish).

The page is fed by what the run already holds: the score files and tables it has just written
into `out` (read back, bounded), its Report (scores.json mapping, warnings) and the stage's
View (termeval/core/stage.py: plots, tables, the timeline's recordings).
"""
from __future__ import annotations

import dataclasses
import fnmatch
import os
from typing import Any, Sequence

from termeval.core.options import ReportOptions, flag_of
from termeval.core.publish import shown
from termeval.core.stage import Report, Stage
from termeval.core.textio import atomic_write
from termeval.report import page, timeline

# options that change no number (jobs, threads, this group): not shown as settings
TEXTGRIDS = "details/textgrids"     # the steps' shared TextGrid dir (termeval/core/stage.py View)
NOT_SETTINGS = {"nj", "job", "merge", "workers", "report", "report_files", "textgrids", "run_id", "exp_dir",
                "print_stage_name", "prepare_only"}


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "(not given)"
    if isinstance(value, (list, tuple)):
        return " ".join(os.fspath(v) if isinstance(v, os.PathLike) else str(v) for v in value)
    return os.fspath(value) if isinstance(value, os.PathLike) else str(value)


def settings_of(opts: Any) -> dict[str, str]:
    """The step's options as the command line names them (positional ones by their name),
    without those that change no number."""
    if not dataclasses.is_dataclass(opts):
        return {}
    out = {}
    for f in dataclasses.fields(opts):
        if f.name in NOT_SETTINGS or not f.metadata.get("cli", True) or f.metadata.get("hidden"):
            continue
        # a path inside a publish temporary (zrc's languages) as the user will find it
        out[f.name if f.metadata.get("positional") else flag_of(f)] = shown(_text(getattr(opts, f.name)))
    return out


def _inside(rel: str, owned: Sequence[str]) -> bool:
    rel = rel.strip("/")
    return any(rel == o or rel.startswith(o.rstrip("/") + "/") or fnmatch.fnmatchcase(rel, o) for o in owned)


def score_files(report: Report, out: str) -> list[str]:
    """The score files this run wrote, in the order scores.json lists its stages."""
    stages = report.scores.get("stages") if isinstance(report.scores, dict) else None
    names = list(stages) if isinstance(stages, dict) else []
    have = sorted(os.listdir(os.path.join(out, "scores"))) if os.path.isdir(os.path.join(out, "scores")) else []
    names += [n for n in have if n not in names]
    # a preparation's counts (benchmark null: scores/prepare) after the scores
    prep = [n for n in names if isinstance(stages, dict) and isinstance(stages.get(n), dict)
            and n in stages and stages[n].get("benchmark") is None]
    names = [n for n in names if n not in prep] + prep
    return [f"scores/{n}" for n in names if n in have and not n.startswith(".") and n != "scores.json"]


def asked(opts: Any) -> tuple[bool, bool, int]:
    """(--report, --textgrids, --report-files) of a step's Options; a step without the group
    (not a ReportOptions) asks for neither."""
    if isinstance(opts, ReportOptions):
        return opts.report, opts.textgrids, opts.report_files
    return False, False, 0


def run(stage: Stage, ctx: Any, merged: Any, report: Report, opts: Any, exp_dir: str, out: str,
        owned: Sequence[str]) -> list[str]:
    """Write report.html (--report true, or an earlier page to update) and the TextGrids
    (--textgrids true) into `out`; returns what the run owns besides the stage's `owned`."""
    want, grids, limit = asked(opts)
    view = stage.view(ctx, merged, report) if (want or grids) else None
    sid = getattr(stage, "name", "") or "stage"
    extra = textgrids(sid, view if grids else None, opts, exp_dir, out, owned)
    old_path = os.path.join(exp_dir, page.PAGE)
    if not want and not os.path.isfile(old_path):
        return extra
    old = ""
    if os.path.isfile(old_path):
        with open(old_path, encoding="utf-8", errors="replace") as f:
            old = f.read()
    title = (view.title if view is not None and view.title else sid)
    files = score_files(report, out) if want else []
    html = _section(sid, title, view, report, opts, limit, out, files) if want else None

    def survives(rel: str) -> bool:
        return os.path.exists(os.path.join(out, rel)) or (
            os.path.exists(os.path.join(exp_dir, rel)) and not _inside(rel, owned))
    parts = page.merge(old, sid, html, title, files, survives)
    if parts:
        with atomic_write(os.path.join(out, page.PAGE)) as f:
            f.write(page.render(exp_dir, parts))
    return extra + [page.PAGE]


def textgrids(sid: str, view: Any, opts: Any, exp_dir: str, out: str, owned: Sequence[str]) -> list[str]:
    """The TextGrids of the run (`view` given: --textgrids true) into `out`: one file per
    recording, its tiers named `<sid>: <tier>`. details/textgrids is shared by the steps of an
    exp dir: unless the stage owns it whole (term discovery owns details/), each file this run
    writes keeps the other steps' tiers of the earlier file, and the earlier files holding tiers
    of this stage that it does not write lose them (--textgrids false drops them); returns the
    files the run owns there (the publish replaces or withdraws each)."""
    rel = view.textgrids if view is not None else TEXTGRIDS
    old_dir = os.path.join(exp_dir, rel)
    whole = _inside(rel, owned)
    shared = not whole and os.path.isdir(old_dir)
    recordings = view.timeline(None) if view is not None and view.timeline is not None else None
    if recordings is None and not (shared and isinstance(opts, ReportOptions) and opts.TEXTGRIDS):
        return []
    from termeval.report import textgrid    # the TextGrid writer: only with --textgrids or earlier TextGrids
    prefix = f"{sid}: "
    names = textgrid.write_all(os.path.join(out, rel), recordings, prefix, old_dir if shared else None) \
        if recordings is not None else []
    if whole:
        return []
    if shared:
        names += textgrid.strip_all(os.path.join(out, rel), old_dir, prefix, set(names))
    return [f"{rel}/{n}" for n in names]


def _section(sid: str, title: str, view: Any, report: Report, opts: Any, limit: int, out: str,
             files: list[str]) -> str:
    data = None
    if view is not None and view.timeline is not None and limit > 0:
        data = timeline.page_data(view.timeline(limit))
    given = view.settings if view is not None and view.settings is not None else opts
    settings = settings_of(given) if dataclasses.is_dataclass(given) else dict(given)
    stages = report.scores.get("stages", {}) if isinstance(report.scores, dict) else {}
    first = stages.get(files[0].split("/", 1)[1], {}) if files and isinstance(stages, dict) else {}
    command = first.get("command", "") if isinstance(first, dict) else ""
    notes = list(view.notes) if view is not None else []
    if data is not None:
        shown = data["recordings"]
        notes.append(f"Timeline: the first {len(shown)} recording{'s' if len(shown) != 1 else ''} "
                     f"(--report-files {limit})"
                     + (f"; {shown[-1]['name']} is cut at {shown[-1]['cut']} s (at most "
                        f"{timeline.PAGE_ITEMS} items in the page)" if shown and "cut" in shown[-1] else "")
                     + ("; --textgrids true writes every recording for Praat." if opts.TEXTGRIDS
                        else "."))
    return page.section(sid, title, out, files, settings, list(report.warnings), view, data, notes, command)

