"""The summary tables in the formats papers and notebooks take (utils/summarize_scores.sh
--format, termeval.results_table, termeval.load_results): csv and tsv (one row per table and
system, one column per metric, intervals as <metric>_lo/<metric>_hi), latex (a booktabs
tabular per table), json (table -> system -> metrics); md is RESULTS.md (summary.markdown).

Every row names the data dir its system was scored on (`data`: a short name, `data_id`: the
content digest of scores.json) and carries the warnings of its scores (a `warnings` column; a
footnote in md and latex). --percent scales the metrics of summary.is_percent by 100.
Names (systems, data dirs, tables, metrics, warnings) are escaped for each format: a name
never breaks a row (summary.md, tex, csv_field).
"""
from __future__ import annotations

import json

from termeval.results.options import SummarizeOptions, is_percent
from termeval.results.summary import Tables, best_values, data_cell, markdown, number, ordered, scaled, \
    visible_controls


def _value(v, digits: int | None):
    return round(v, digits) if digits is not None and isinstance(v, float) else v


def flat(tables: Tables, opts: SummarizeOptions) -> list[dict]:
    """One flat dict per table and system: table, system, data, data_id, each column's value
    (None where the system has none), <metric>_lo/<metric>_hi after it where a system of the
    table has an interval (None for the others), and warnings (the lines joined by a space;
    '' when none)."""
    out = []
    for title, cols, rows in ordered(tables, opts.metric_list()):
        with_ci = {k for _, vals, _ in rows for k in cols if isinstance(vals.get(k), tuple) and vals[k][1]}
        for system, vals, info in rows:
            row: dict = {"table": title, "system": system, "data": info["data"], "data_id": info["data_id"]}
            for k in cols:
                v, ci = scaled(k, vals.get(k, (None, None)), opts.percent)
                row[k] = _value(v, opts.digits)
                if k in with_ci:
                    row[f"{k}_lo"] = row[f"{k}_hi"] = None
                if ci is not None:
                    row[f"{k}_lo"], row[f"{k}_hi"] = _value(ci[0], opts.digits), _value(ci[1], opts.digits)
            row["warnings"] = " ".join(info["warnings"])
            out.append(row)
    return out


def delimited(rows: list[dict], sep: str) -> str:
    """csv (sep ',') or tsv: the columns of every row, in order of first appearance, '' for none."""
    header: dict = {}
    for r in rows:
        header.update(dict.fromkeys(k for k in r if k != "warnings"))
    names = list(header) + ["warnings"]
    out = [sep.join(csv_field(k, sep) for k in names)]
    for r in rows:
        out.append(sep.join(csv_field("" if r.get(k) is None else repr(r[k]) if isinstance(r[k], float) else str(r[k]), sep)
                            for k in names))
    return "\n".join(out) + "\n"


def as_json(rows: list[dict]) -> str:
    """{table: {system: {data, data_id, metrics..., <metric>_lo/_hi, warnings}}} (the values of flat)."""
    out: dict = {}
    for r in rows:
        entry = {k: v for k, v in r.items() if k not in ("table", "system")}
        out.setdefault(r["table"], {})[r["system"]] = entry
    return json.dumps(out, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                 "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                 # in LaTeX's default (OT1) font encoding these would print as other glyphs
                 "|": r"\textbar{}", "<": r"\textless{}", ">": r"\textgreater{}"}


def tex(text: str) -> str:
    """`text` as LaTeX that prints it as it is (control characters shown as `\\n`, `\\x1f`)."""
    return "".join(LATEX_SPECIAL.get(c, c) for c in visible_controls(str(text)))


def csv_field(text: str, sep: str) -> str:
    """One csv/tsv field: quoted (quotes doubled) when it holds the separator, a quote, a
    newline or a carriage return, so that every reader (the csv module, pandas) sees one field."""
    if any(c in text for c in (sep, '"', "\n", "\r")):
        return '"' + text.replace('"', '""') + '"'
    return text


def _tex_cell(value, places: int, bold: bool) -> str:
    v, ci = value if isinstance(value, tuple) else (value, None)
    if number(v) is None:
        return "--" if v is None else tex(v)
    s = str(v) if isinstance(v, int) else f"{v:.{places}f}"
    s = rf"\textbf{{{s}}}" if bold else s
    return s if ci is None else f"{s} [{ci[0]:.{places}f}, {ci[1]:.{places}f}]"


def latex(tables: Tables, opts: SummarizeOptions) -> str:
    """A booktabs tabular per table (a `% title` comment before it): system, data, the metric
    columns; intervals as `xx.x [lo, hi]`; with bold_best the best of each column in bold;
    the warnings of a system as a numbered note under its table."""
    out = []
    notes = 0
    for title, cols, rows in ordered(tables, opts.metric_list()):
        best = best_values(cols, [v for _, v, _ in rows]) if opts.bold_best else {}
        out += [f"% {visible_controls(title)}", r"\begin{tabular}{ll" + "r" * len(cols) + "}", r"\toprule",
                " & ".join(["system", "data"] + [tex(k) + (r" (\%)" if opts.percent and is_percent(k) else "")
                                                 for k in cols]) + r" \\", r"\midrule"]
        footnotes = []
        for system, vals, info in rows:
            mark = ""
            if info["warnings"]:
                notes += 1
                mark = f"$^{{{notes}}}$"
                footnotes.append(f"$^{{{notes}}}$ {tex(system)}: {tex(' '.join(info['warnings']))}\\par")
            shown = [_tex_cell(scaled(k, vals.get(k), opts.percent), opts.places(k),
                               k in best and number(vals.get(k)) == best[k]) for k in cols]
            out.append(" & ".join([tex(system) + mark, tex(data_cell(info))] + shown) + r" \\")
        out += [r"\bottomrule", r"\end{tabular}"] + footnotes + [""]
    return "\n".join(out) if out else f"% no scored systems (scores/scores.json) under {' '.join(opts.roots)}\n"


def default_out(opts: SummarizeOptions) -> str | None:
    """The file written when --out is not given (None: stdout)."""
    return {"md": "RESULTS.md", "html": "RESULTS.html"}.get(opts.format)


def render(tables: Tables, opts: SummarizeOptions, base: str = ".") -> str:
    """The text of the summary in opts.format (html: its links relative to the directory `base`)."""
    if opts.format == "html":
        from termeval.results import html    # the page's modules: only for --format html
        return html.html(tables, opts, base)
    if opts.format == "md":
        return markdown(tables, opts.roots, opts.places, opts.percent, opts.metric_list(), opts.bold_best)
    if opts.format == "latex":
        return latex(tables, opts)
    rows = flat(tables, opts)
    if opts.format == "json":
        return as_json(rows)
    return delimited(rows, "," if opts.format == "csv" else "\t")
