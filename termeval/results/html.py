"""`utils/summarize_scores.sh --format html`: every system of RESULTS.md in one self-contained
page (termeval/report/page.py's style, script and Content Security Policy): one table per
benchmark, the best value of each column marked, each interval drawn as a bar under its value
(on the column's scale), each system linking to its report.html when it has one. Tables sort by
a click on a column and filter by their search box."""
from __future__ import annotations

import os
from html import escape

from termeval.core.version import __version__
from termeval.report import page
from termeval.results.options import SummarizeOptions, is_percent
from termeval.results.summary import Tables, best_values, cell, data_cell, number, ordered, scaled

BAR_W, BAR_H = 90, 8


def _bar(v, ci, lo: float, hi: float) -> str:
    """The interval [ci] and the value as a small inline SVG on the column's scale [lo, hi]."""
    if ci is None or number(v) is None or not hi > lo:
        return ""
    x = lambda t: 2 + (t - lo) / (hi - lo) * (BAR_W - 4)       # noqa: E731
    return (f'<svg class="te-cibar" width="{BAR_W}" height="{BAR_H}" viewBox="0 0 {BAR_W} {BAR_H}" '
            f'xmlns="http://www.w3.org/2000/svg"><title>[{ci[0]:g}, {ci[1]:g}]</title>'
            f'<line x1="{x(ci[0]):.1f}" x2="{x(ci[1]):.1f}" y1="4" y2="4" stroke="#1f6feb" stroke-width="2"/>'
            f'<circle cx="{x(v):.1f}" cy="4" r="2.5" fill="#0b3d91"/></svg>')


def _scale(cols: list[str], rows: list, percent: bool) -> dict[str, tuple[float, float]]:
    """The range of each column's values and interval ends (the bars' common scale)."""
    out = {}
    for k in cols:
        xs: list[float] = []
        for _, vals, _ in rows:
            v, ci = scaled(k, vals.get(k, (None, None)), percent)
            if number(v) is not None:
                xs.append(float(v))
            if ci is not None:
                xs += [float(c) for c in ci if number(c) is not None]
        if xs:
            out[k] = (min(xs), max(xs))
    return out


def _link(info: dict, base: str) -> str | None:
    d = info.get("dir")
    if not d or not os.path.isfile(os.path.join(d, page.PAGE)):
        return None
    return os.path.relpath(os.path.join(d, page.PAGE), base).replace(os.sep, "/")


def html(tables: Tables, opts: SummarizeOptions, base: str) -> str:
    """The page; links are relative to `base` (the directory of the written file)."""
    parts = []
    notes = 0
    for title, cols, rows in ordered(tables, opts.metric_list()):
        best = best_values(cols, [v for _, v, _ in rows])
        scale = _scale(cols, rows, opts.percent)
        head = "".join(f"<th>{escape(k)}{' (%)' if opts.percent and is_percent(k) else ''}</th>" for k in cols)
        body, foot = [], []
        for system, vals, info in rows:
            mark = ""
            if info["warnings"]:
                notes += 1
                mark = f'<sup><a href="#note-{notes}">{notes}</a></sup>'
                foot.append(f'<li id="note-{notes}">{escape(system)}: {escape(" ".join(info["warnings"]))}</li>')
            link = _link(info, base)
            name = f'<a href="{escape(link)}">{escape(system)}</a>' if link else escape(system)
            cells = []
            for k in cols:
                v, ci = scaled(k, vals.get(k, (None, None)), opts.percent)
                text = cell((v, ci), opts.places(k))
                is_best = k in best and number(vals.get(k)) == best[k]
                bar = _bar(v, ci, *scale[k]) if k in scale else ""
                cells.append(f'<td class="{"te-best" if is_best else ""}" data-metric="{escape(k)}">'
                             f"{escape(text)}{'<br>' + bar if bar else ''}</td>")
            body.append(f"<tr><td>{name}{mark}</td><td>{escape(data_cell(info))}</td>{''.join(cells)}</tr>")
        parts.append(f"<h2>{escape(title)}</h2>"
                     '<input class="te-filter" type="search" placeholder="filter systems" '
                     f'aria-label="filter {escape(title)}"><div class="te-scroll">'
                     f'<table class="te-data te-results" data-table="{escape(title)}"><thead><tr><th>system</th>'
                     f"<th>data</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
                     + (f'<ol class="te-notes">{"".join(foot)}</ol>' if foot else ""))
    if not parts:
        parts.append(f"<p>No scored systems (scores/scores.json) under {escape(' '.join(opts.roots))} yet.</p>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{page.CSP}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>termeval results</title><style>{page.asset('report.css')}</style></head>\n<body>"
            f'<header><h1>Results</h1><p class="te-meta">every scores/scores.json under '
            f"{escape(' '.join(opts.roots))} &middot; the best value of each column marked (lower is better for "
            "NED, Cnxe, C_Det, C_Norm and the calibration loss) &middot; a bar under a value: its interval "
            f"&middot; termeval {escape(__version__)}</p></header>\n<main>" + "\n".join(parts)
            + f"</main>\n<script>{page.asset('report.js')}</script></body></html>\n")
