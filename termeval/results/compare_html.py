"""<out-dir>/report.html of a paired comparison (steps/compare_systems.sh, termeval.compare_systems):
one section, "compare", in termeval/report/page.py's page: the systems and the baseline, the
settings, the notes (metrics not compared), a forest plot per headline metric (each system's
difference with the baseline and its paired interval, around 0) and the table of every
difference as scores/compare prints it (values, interval, p-value, units). The comparison is
not a Stage (it reads scored exp dirs, not inputs): its one-shot task (`run`, declared in
termeval/steps/results.py; termeval.run.driver.run_task) writes the page with its files,
through the same publish.
"""
from __future__ import annotations

import os
from html import escape
from typing import Any

from termeval.bootstrap import compare
from termeval.bootstrap.forest import forest_rows, p_text
from termeval.core.numbers import fmt_value
from termeval.core.textio import atomic_write
from termeval.report import page, svg, tables
from termeval.report.write import settings_of

SID = "compare"
COLUMNS = ("metric", "system", "baseline", "value", "baseline value", "difference", "lo", "hi", "p", "units")


def _f(x: Any, fmt: str | None = None) -> str:
    """A number as scores/compare prints it (termeval/bootstrap/compare.py write_compare)."""
    return fmt_value(x) if fmt is None else "-" if x is None else fmt.format(x)


def rows(res: dict) -> list[list[str]]:
    """One row per (system, metric), in scores/compare's order, its numbers as that file prints them."""
    out = []
    for name, diffs in res["diffs"].items():
        for m, r in diffs.items():
            out.append([m, name, res["baseline"], _f(r["a"]), _f(r["b"]), _f(r["diff"]),
                        _f(r["lo"], "{:.4f}"), _f(r["hi"], "{:.4f}"), p_text(r, "{:.4g}", ""),
                        f"{r['units']} {r['unit']}s"])
    return out


def section(res: dict, opts: Any) -> str:
    """The HTML of the comparison's section."""
    level = f"{100 * res['level']:g} %"
    title = f"Paired comparison with {res['baseline']}"
    units = ", ".join(f"{k}: {v}" for k, v in res["units"].items())
    parts = [f"<h2>{escape(title)}</h2>",
             f'<p class="te-note">{escape(", ".join(res["systems"][1:]))} against {escape(res["baseline"])}:'
             f" {res['test']} over the shared units ({escape(units)}), {res['n']} resamples, seed {res['seed']},"
             f" {level} intervals.</p>",
             "<h3>Settings</h3>" + page.kv(settings_of(opts))]
    notes = [f"not compared ({t}): {v}" for t, v in res.get("not_compared", {}).items()]
    parts.append('<h3>Warnings</h3><ul class="te-warnings">'
                 + ("".join(f"<li>{escape(w)}</li>" for w in notes) or '<li class="te-none">none</li>') + "</ul>")
    plots = [svg.forest([(f"{s} - {res['baseline']}" + (f"  p {p}" if p != "-" else ""), d, lo, hi)
                         for s, d, lo, hi, p in items], f"{m}: paired difference ({level} interval)", "difference",
                        zero=True)
             for m, items in forest_rows(res, compare.HEADLINE)]
    plots = [p for p in plots if p]
    if plots:
        parts.append('<h3>Plots</h3><div class="te-plots">' + "".join(f"<figure>{p}</figure>" for p in plots)
                     + "</div>")
    got = rows(res)
    parts.append("<h3>Tables</h3>" + page.table(tables.Table("Paired differences (system - baseline)",
                                                             "scores/compare", list(COLUMNS), got, len(got))))
    return page.wrap(SID, title, parts, ["scores/compare"])


def task(opts: Any, res: dict) -> tuple[str, tuple[str, ...], Any]:
    """compare.task's (out_root, owned outputs, write) with report.html among them (--report
    true, or an earlier page whose comparison section --report false drops)."""
    out_root, outputs, write = compare.task(opts, res)
    old_path = os.path.join(out_root, page.PAGE)
    if not opts.report and not os.path.isfile(old_path):
        return out_root, outputs, write

    def write_all(tmp: str) -> Any:
        lines = write(tmp)
        old = ""
        if os.path.isfile(old_path):
            with open(old_path, encoding="utf-8", errors="replace") as f:
                old = f.read()
        parts = page.merge(old, SID, section(res, opts) if opts.report else None,
                           f"Paired comparison with {res['baseline']}", ["scores/compare"],
                           lambda rel: os.path.exists(os.path.join(tmp, rel)) or (
                               os.path.exists(os.path.join(out_root, rel)) and rel not in outputs))
        if parts:
            with atomic_write(os.path.join(tmp, page.PAGE)) as f:
                f.write(page.render(out_root, parts))
        return lines
    return out_root, outputs + (page.PAGE,), write_all


def run(opts: Any, run_task: Any) -> dict:
    """compare_systems' task (termeval/steps/results.py COMPARE_SYSTEMS): the comparison
    (termeval/bootstrap/compare.py run) with report.html among its files."""
    return compare.run(opts, run_task, files=task)
