"""report.html: one self-contained page per exp dir (inline CSS, JS and SVG; a Content Security
Policy that lets it load nothing), one section per stage that scored into the exp dir.

A section shows, as the stage wrote them: its score files line by line (value, support,
interval), the settings, the warnings, plots drawn as SVG (termeval/report/svg.py; a forest
plot of the intervals with --bootstrap), its details tables (sortable, filterable, the first
rows of each) and the timeline of the first recordings (drawn by the page's script from the
data of termeval/report/timeline.py). Sections are delimited by `<!--te-section:ID-->`
comments: a stage re-run replaces its own section and keeps the others whose score files
survive the run (`merge`).
"""
from __future__ import annotations

import datetime
import glob
import json
import os
import re
from dataclasses import dataclass
from html import escape, unescape
from typing import Any, Iterable, Mapping, Sequence

from termeval.core.publish import shown
from termeval.core.version import __version__
from termeval.report import svg, tables as tables_

PAGE = "report.html"
_HERE = os.path.dirname(os.path.abspath(__file__))
CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; "
       "form-action 'none'; base-uri 'none'")
LINE = re.compile(r"^(\S+) (\S+)(?: \[ (.*) \])?(?: (ci[0-9.]+) (\S+) (\S+))?$")
SECTION = re.compile(r"<!--te-section:([A-Za-z0-9_.-]+)-->\n(.*?)<!--/te-section:\1-->\n", re.S)
MAX_PLOT_ROWS = 100_000      # rows of a table read for a plot (thinned to MAX_POINTS points)
MAX_POINTS = 1500


def asset(name: str) -> str:
    with open(os.path.join(_HERE, name), encoding="utf-8") as f:
        return f.read()


def json_script(data: Any, cls: str) -> str:
    """Data for the page's script: JSON in a non-executed script element (`<` escaped, so no
    text in it can close the element)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" class="{cls}">{text}</script>'


# ----------------------------------------------------------------------------- score lines

@dataclass
class Line:
    name: str
    value: str
    support: str
    ci: tuple[str, str, str] | None       # (tag, lo, hi) as printed
    tab: bool = False                     # a tool's `name<TAB>value` line (wordseg-eval's)

    @property
    def number(self) -> float | None:
        return _num(self.value)


def _num(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def read_lines(path: str) -> list[Line]:
    out = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            raw = raw.rstrip("\n")
            m = LINE.match(raw)
            if m:
                out.append(Line(m[1], m[2], m[3] or "", (m[4], m[5], m[6]) if m[4] else None))
            elif raw.count("\t") == 1:
                out.append(Line(*raw.split("\t"), "", None, True))
            elif raw:
                out.append(Line(raw, "", "", None))
    return out


def _score_table(rel: str, lines: list[Line]) -> str:
    """A score file's lines: metric, value, support, interval (the last column only when a line
    has one)."""
    with_ci = any(x.ci for x in lines)
    rows = []
    for x in lines:
        ci = f'<td class="te-ci">{escape(" ".join(x.ci) if x.ci else "")}</td>' if with_ci else ""
        rows.append(f'<tr class="te-line{" te-tab" if x.tab else ""}"><td class="te-name">{escape(x.name)}</td>'
                    f'<td class="te-value">{escape(x.value)}</td>'
                    f'<td class="te-support">{escape(x.support)}</td>{ci}</tr>')
    head = "<th>metric</th><th>value</th><th>support</th>" + ("<th>interval</th>" if with_ci else "")
    return (f'<table class="te-score" data-file="{escape(rel)}"><caption>{escape(rel)}</caption>'
            f'<thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>')


def _forest(scores: dict[str, list[Line]]) -> str:
    rows = []
    for lines in scores.values():
        for x in lines:
            if x.ci and x.number is not None:
                rows.append((x.name, x.number, _num(x.ci[1]), _num(x.ci[2])))
    if not rows:
        return ""
    tag = next(x.ci[0] for ls in scores.values() for x in ls if x.ci)
    return svg.forest(rows, f"Scores with their {tag[2:]} % intervals", "value")


# ----------------------------------------------------------------------------- plots and tables

def _plot(out: str, spec: Mapping[str, Any]) -> str:
    """One plot of a spec: {"kind": "bars"|"lines"|"det", "table": rel path, "title", ...}
    (bars: "label" column, "values" columns; lines: "x" column, "y" columns; det: "x" P_FA,
    "y" P_miss columns, probit axes), or of data the stage gives without a table: bars
    {"labels", "series": {name: values}}, heatmap {"values" (rows x columns in [0, 1]), "rows",
    "columns", "xlabel", "ylabel"}."""
    if "table" not in spec:
        if spec["kind"] == "heatmap":
            return svg.heatmap(spec["values"], spec["rows"], spec["columns"], spec["title"], spec.get("xlabel", ""),
                               spec.get("ylabel", ""))
        return svg.bars(spec["labels"], spec["series"], spec["title"], spec.get("ylabel", ""))
    t = tables_.read(out, spec["table"], "", MAX_PLOT_ROWS)
    if t is None or not t.rows:
        return ""
    kind = spec["kind"]
    if kind == "bars":
        k = t.columns.index(spec["label"]) if spec.get("label") in t.columns else 0
        return svg.bars(tables_.labels(t, k), {c: tables_.column(t, c) for c in spec["values"] if c in t.columns},
                        spec["title"], spec.get("ylabel", ""))
    xs = tables_.column(t, spec["x"])
    ys = [spec["y"]] if isinstance(spec["y"], str) else list(spec["y"])
    step = max(1, len(xs) // MAX_POINTS)
    series = [{"name": c, "x": xs[::step], "y": tables_.column(t, c)[::step]} for c in ys if c in t.columns]
    scale = "probit" if kind == "det" else "linear"
    return svg.lines(series, spec["title"], spec.get("xlabel", spec["x"]), spec.get("ylabel", ""), scale, scale,
                     spec.get("marks", ()))


def table(t: tables_.Table) -> str:
    """A table of the page: sortable, filterable, its first rows (t.rows)."""
    head = "".join(f"<th>{escape(c)}</th>" for c in t.columns)
    # the rows joined by two separators no table holds, escaped at once, then the separators made tags
    text = escape("\x1e".join("\x1f".join(row) for row in t.rows))
    body = ("<tr><td>" + text.replace("\x1f", "</td><td>").replace("\x1e", "</td></tr><tr><td>") + "</td></tr>"
            if t.rows else "")
    shown = (f"{len(t.rows)} rows" if t.total <= len(t.rows)
             else f"the first {len(t.rows)} of {t.total} rows (the file has them all)")
    return (f'<details class="te-table" open><summary>{escape(t.title)} <span class="te-src">'
            f'{escape(t.source)}: {shown}</span></summary>'
            f'<input class="te-filter" type="search" placeholder="filter rows" aria-label="filter {escape(t.title)}">'
            f'<div class="te-scroll"><table class="te-data" data-source="{escape(t.source)}"><thead><tr>{head}</tr>'
            f"</thead><tbody>{body}</tbody></table></div></details>")


# ----------------------------------------------------------------------------- one section

def section(sid: str, title: str, out: str, score_files: Sequence[str], settings: Mapping[str, str],
            warnings: Sequence[str], view: Any = None, timeline: dict | None = None,
            notes: Sequence[str] = (), command: str = "") -> str:
    """The HTML of one stage's section (score files read from `out`, the run's output dir)."""
    scores = {rel: read_lines(os.path.join(out, rel)) for rel in score_files if os.path.isfile(os.path.join(out, rel))}
    parts = [f'<h2>{escape(title)}</h2>']
    parts += [f'<p class="te-note">{escape(n)}</p>' for n in notes]
    if command:
        parts.append(f'<p class="te-cmd"><code>{escape(command)}</code></p>')
    parts.append('<h3>Scores</h3><div class="te-scores">' + "".join(_score_table(r, ls) for r, ls in scores.items())
                 + "</div>")
    parts.append("<h3>Settings</h3>" + kv(settings))
    parts.append(f'<h3>Warnings</h3><ul class="te-warnings">'
                 + ("".join(f"<li>{escape(w)}</li>" for w in warnings) or '<li class="te-none">none</li>') + "</ul>")
    plots = [_forest(scores)] + [_plot(out, p) for p in (view.plots if view else ())]
    plots = [p for p in plots if p]
    if plots:
        parts.append('<h3>Plots</h3><div class="te-plots">' + "".join(f"<figure>{p}</figure>" for p in plots) + "</div>")
    tabs = [tables_.read(out, spec[1], spec[0], *spec[2:]) for spec in _expand(out, view.tables if view else ())]
    tabs = [t for t in tabs if t is not None]
    if tabs:
        parts.append("<h3>Tables</h3>" + "".join(table(t) for t in tabs))
    if timeline is not None:
        parts.append('<h3>Timeline</h3><div class="te-timeline">' + json_script(timeline, "te-tl-data") + "</div>")
    return wrap(sid, title, parts, list(scores))


def wrap(sid: str, title: str, parts: Sequence[str], score_files: Sequence[str]) -> str:
    """A section of the page from its HTML parts: delimited for `parse` and `merge`, which keep it
    while its `score_files` survive a later run in the exp dir."""
    attrs = f'data-scores="{escape(" ".join(score_files))}" data-title="{escape(title)}"'
    return (f"<!--te-section:{sid}-->\n<section class=\"te-section\" id=\"sec-{escape(sid)}\" {attrs}>"
            + "\n".join(parts) + "</section>\n<!--/te-section:" + sid + "-->\n")


def _expand(out: str, specs: Sequence[tuple]) -> list[tuple]:
    """(title, rel[, max rows]) with each glob pattern replaced by the files it matches in `out`
    (titled "<title>: <file name>")."""
    got = []
    for title, rel, *rest in specs:
        if not glob.has_magic(rel):
            got.append((title, rel, *rest))
            continue
        for path in sorted(glob.glob(os.path.join(glob.escape(out), rel))):
            got.append((f"{title}: {os.path.basename(path)}", os.path.relpath(path, out), *rest))
    return got


def kv(items: Mapping[str, str]) -> str:
    rows = "".join(f"<tr><th>{escape(k)}</th><td>{escape(str(v))}</td></tr>" for k, v in items.items())
    return f'<table class="te-kv"><tbody>{rows}</tbody></table>'


# ----------------------------------------------------------------------------- the page

@dataclass
class Part:
    sid: str
    html: str
    scores: list[str]
    title: str


def parse(text: str) -> list[Part]:
    """The sections of a page written by `render` (none of a page that is not one)."""
    out = []
    for m in SECTION.finditer(text):
        body = m.group(0)
        sc = re.search(r'data-scores="([^"]*)"', body)
        ti = re.search(r'data-title="([^"]*)"', body)
        out.append(Part(m.group(1), body, sc.group(1).split() if sc else [],
                        unescape(ti.group(1)) if ti else m.group(1)))
    return out


def render(exp_dir: str, parts: Iterable[Part]) -> str:
    parts = list(parts)
    nav = "".join(f'<li><a href="#sec-{escape(p.sid)}">{escape(p.title)}</a></li>' for p in parts)
    where = shown(os.path.abspath(exp_dir))      # where the page will be, never a publish temporary
    name = os.path.basename(os.path.normpath(where))
    when = datetime.datetime.now().isoformat(timespec="seconds")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>termeval report: {escape(name)}</title><style>{asset('report.css')}</style></head>\n<body>"
            f'<header><h1>termeval report: {escape(name)}</h1><p class="te-meta">{escape(where)}'
            f" &middot; updated {when} &middot; termeval {escape(__version__)}</p>"
            f'<nav><ul>{nav}</ul></nav></header>\n<main>\n' + "".join(p.html for p in parts)
            + f"</main>\n<script>{asset('report.js')}</script></body></html>\n")


def merge(old: str, sid: str, new_html: str | None, title: str, score_files: list[str],
          survives) -> list[Part]:
    """The sections of the updated page: the old ones whose score files all survive the run
    (`survives(rel)`), this stage's new one in the place of its old one (else last); without
    `new_html` (--report false) this stage's section is dropped."""
    parts = [p for p in parse(old) if p.sid != sid and p.scores and all(survives(r) for r in p.scores)]
    if new_html is not None:
        mine = Part(sid, new_html, score_files, title)
        old_ids = [p.sid for p in parse(old)]
        if sid in old_ids:
            before = set(old_ids[:old_ids.index(sid)])
            at = sum(1 for p in parts if p.sid in before)
            parts.insert(at, mine)
        else:
            parts.append(mine)
    return parts
