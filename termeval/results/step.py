"""summarize_scores as the recipe runs it (termeval/steps): the tables of every scores.json below
the exp roots, rendered in the chosen format, written whole to --out (or shown on stdout)."""
from __future__ import annotations

import os
import sys

from termeval.results import formats, summary


def run(opts, run_task) -> dict:
    """{"rows": the tables' rows (termeval.summarize_scores), "text": the rendered table}; the
    text written to opts.out through the driver's `run_task` unless it is None or "-"."""
    tables = summary.collect(opts.roots)
    base = os.path.dirname(os.path.abspath(opts.out)) if opts.out not in (None, "-") else "."
    text = formats.render(tables, opts, base)      # html: its links relative to the page
    if opts.out not in (None, "-"):
        run_task("summarize_scores", *summary.task(opts.out, text), inputs=summary.inputs(opts.roots),
                 lock=False)
    return {"rows": summary.rows(tables), "text": text}


def show(opts, res: dict) -> None:
    if opts.out in (None, "-"):
        sys.stdout.write(res["text"])
    else:
        print(f"summarize_scores: wrote {opts.out}", file=sys.stderr)


def from_command_line(opts):
    """The command line writes RESULTS.md (--format md) or RESULTS.html (--format html) in the
    current directory without --out (formats.default_out)."""
    return opts.replace(out=formats.default_out(opts)) if opts.out is None else opts
