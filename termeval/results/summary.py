"""RESULTS.md: one Markdown table per benchmark over every scores/scores.json found below the
exp roots (utils/summarize_scores.sh, termeval.summarize_scores; the rules: termeval/bin/summarize_scores.py).

The system of a scores.json is the path of the directory holding `scores/`, relative to its
exp root (joined to the root when there are several). One table per benchmark, in a fixed
order, with at most ten headline metrics (HEADLINE); a value with its confidence interval
when the system was scored with --bootstrap. A scores.json that is not valid JSON or not a
JSON object is an InputError naming it; a directory that cannot be listed, or a scores.json
without a scored stage, is left out with one warning line.
"""
from __future__ import annotations

import json
import os
import re
import shlex
from typing import Callable, Sequence

from termeval.core.errors import InputError
from termeval.core.guard import Searched
from termeval.core.textio import atomic_write
from termeval.core.version import __version__
from termeval.core.warn import warn as core_warn
from termeval.results.declared import TABLES, headline, is_percent, lower_is_better

TDE_STAGES = {"matching", "clustering", "parsing"}
SKIP_STAGES = {"prepare", "tde15_input"}


# Markdown: the characters a name could use to break a table row or start a link, emphasis,
# code, HTML or an entity; `_` only where it can start or end emphasis (not inside a word).
_MD_SPECIAL = re.compile(r"[\\|`*\[\]<>&~$]|(?<![^\W_])_|_(?![^\W_])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def visible_controls(text: str) -> str:
    """Control characters (newline, tab, ...) as `\\n`, `\\t`, `\\x1f`: a name never breaks a line."""
    return _CONTROL.sub(lambda m: {"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(m.group(), f"\\x{ord(m.group()):02x}")
                        if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", text)


def md(text) -> str:
    """`text` (a system, data, metric or table name, a warning) as Markdown that shows it as it
    is: `sys|v2` stays one cell (`sys\\|v2`), and no character starts markup."""
    return visible_controls(_MD_SPECIAL.sub(lambda m: "\\" + m.group(), str(text)))


def fmt(v, places: int = 4) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return f"{v:.{places}f}"
    return str(v)


def warn(message: str) -> None:
    core_warn("summarize_scores", message)


# below an exp root: the systems' score files (scores.json is read) and their pages (RESULTS.html
# links each system's report.html), never written over
READS = ("scores/*", "report.html")


def inputs(exp_roots: Sequence[str]) -> list[Searched]:
    """The exp roots as the output guard's inputs (termeval.core.guard.Searched): below them
    the systems' scores/ files are what the table is made of (scores.json read) and their
    report.html what RESULTS.html links to, so an output there is refused; another output
    below a root (`--out exp/RESULTS.md exp`) is not."""
    return [Searched(r, READS) for r in exp_roots]


def find_scores(exp_root: str) -> list[str]:
    """Every <dir>/scores/scores.json below exp_root, in C order of their paths (a directory
    that cannot be listed is reported, not silently passed over)."""
    found = []
    def unreadable(e: OSError) -> None:
        warn(f"{e.filename}: cannot read this directory ({e.strerror}); any system below it is left out")
    for dirpath, dirnames, filenames in os.walk(exp_root, onerror=unreadable):
        dirnames.sort()
        if os.path.basename(dirpath) == "scores" and "scores.json" in filenames:
            found.append(os.path.join(dirpath, "scores.json"))
    return sorted(found)


class NoStage(InputError):
    """A valid scores.json without a scored stage: the system is left out with a warning."""


def tables_of(path: str, system: str) -> list[tuple[str, str, dict]]:
    """(table title, family, values) for each scored benchmark of one scores.json; a value is
    (number, (lo, hi) or None). Raises InputError when the file cannot be used."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise InputError(f"not valid JSON ({type(e).__name__}: {str(e)[:100]})", path) from None
    if not isinstance(data, dict):
        raise InputError("not a JSON object", path)
    stages = data.get("stages") if isinstance(data.get("stages"), dict) else {}
    if not any(k not in SKIP_STAGES for k in stages):
        raise NoStage("no scored stage in it (not written by a termeval scoring step?)", path)
    cis = data.get("ci") if isinstance(data.get("ci"), dict) else {}
    out: dict[str, tuple[str, str, dict, dict]] = {}
    for stage, meta in sorted(stages.items()):
        if stage in SKIP_STAGES or not isinstance(meta, dict):
            continue
        bench = str(meta.get("benchmark") or data.get("benchmark") or "unknown")
        if stage in TDE_STAGES:
            family, title = bench, bench
        elif stage == "std":
            family, title = "std", f"std ({bench})"
        elif stage.startswith("discophon_"):     # one table per (language, split)
            family, title = "discophon", stage
        else:
            family, title = stage, stage if bench in (stage, "None") else f"{stage} ({bench})"
        _, _, names, info = out.get(title, (title, family, {}, {"data": None, "data_id": None, "warnings": []}))
        for name in meta.get("metrics", []) if isinstance(meta.get("metrics"), list) else []:
            if isinstance(name, str) and name in data:
                names[name] = (data[name], interval(cis.get(name)))
        info["data"] = info["data"] or data_name(meta.get("command"))
        info["data_id"] = info["data_id"] or data_id(data, bench)
        info["warnings"] += stage_warnings(data, stage)
        out[title] = (title, family, names, info)
    return list(out.values())


def data_name(command) -> str | None:
    """The short name of the data dir a stage was scored on: the first path argument of its
    command line (a termeval step's first positional), its last two components; None when the
    command is not a termeval step's or names no path (a Python API run records its script)."""
    if not isinstance(command, str):
        return None
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if not words or not re.fullmatch(r"(termeval [\w-]+|(score|prepare)_\w+\.(py|sh))", os.path.basename(words[0])):
        return None     # not a termeval step's command line (a Python script using the API)
    for w in words[1:]:
        if not w.startswith("-") and "/" in w and not w.endswith(".py"):
            parts = [x for x in os.path.normpath(w).split("/") if x]
            return "/".join(parts[-2:]) or None
    return None


def data_id(data: dict, bench: str) -> str | None:
    """The content digest of the gold a benchmark was scored on (scores.json data_ids, else data_id)."""
    ids = data.get("data_ids") if isinstance(data.get("data_ids"), dict) else {}
    v = ids.get(bench) or data.get("data_id")
    return v if isinstance(v, str) and v else None


def stage_warnings(data: dict, stage: str) -> list[str]:
    warned = data.get("warnings") if isinstance(data.get("warnings"), dict) else {}
    lines = warned.get(stage)
    return [str(x) for x in lines] if isinstance(lines, list) else []


def data_cell(info: dict) -> str:
    """`data/example@8e5fb26d`: the short name and the first 8 digits of the digest ('-': neither known)."""
    name, digest = info.get("data"), info.get("data_id")
    if name and digest:
        return f"{name}@{digest[:8]}"
    return name or (digest[:8] if digest else "-")


def interval(ci) -> tuple[float, float] | None:
    if isinstance(ci, dict) and all(isinstance(ci.get(k), (int, float)) and not isinstance(ci.get(k), bool)
                                    for k in ("lo", "hi")):
        return float(ci["lo"]), float(ci["hi"])
    return None


def number(value) -> float | int | None:
    """The number of a (value, interval) cell, None when it is not one."""
    v = value[0] if isinstance(value, tuple) else value
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def scaled(metric: str, value, scale: bool):
    """A (value, interval) cell times 100 when `scale` and the metric is a percent one (is_percent)."""
    if not scale or not is_percent(metric) or value is None:
        return value
    v, ci = value if isinstance(value, tuple) else (value, None)
    if number(v) is not None and not isinstance(v, int):
        v = v * 100
    return v, (None if ci is None else (ci[0] * 100, ci[1] * 100))


def best_values(cols: list[str], values: list[dict]) -> dict:
    """The best value of each column of real numbers shown for several systems (counts and
    _std columns have none)."""
    best = {}
    for k in cols:
        nums = [number(v.get(k)) for v in values]
        nums = [x for x in nums if x is not None]
        if len(nums) > 1 and not k.endswith("_std") and all(isinstance(x, float) for x in nums):
            best[k] = min(nums) if lower_is_better(k) else max(nums)
    return best


def cell(value, places: int = 4) -> str:
    """`0.9292` or, with an interval, `0.9292 [0.9273, 0.9309]`."""
    v, ci = value if isinstance(value, tuple) else (value, None)
    return fmt(v, places) if ci is None else f"{fmt(v, places)} [{ci[0]:.{places}f}, {ci[1]:.{places}f}]"


FAMILY_ORDER = list(TABLES)


def table_order(title: str, family: str) -> tuple[int, str]:
    return (FAMILY_ORDER.index(family) if family in FAMILY_ORDER else len(FAMILY_ORDER), title)


def columns(family: str, values: list[dict], metrics: list[str] | None = None) -> list[str]:
    present = set().union(*values) if values else set()
    if metrics is not None:     # --metrics: those the table has, in the order given
        return [k for k in metrics if k in present]
    wanted = headline(family)
    if wanted is None:  # no headline declared: its first ten numeric metrics
        first = {k: (v[0] if isinstance(v, tuple) else v) for k, v in values[0].items()}
        wanted = [k for k in first if isinstance(first[k], (int, float)) or first[k] is None]
    return [k for k in wanted if k in present][:10]


Tables = dict  # title -> (family, [(system, {metric: (value, (lo, hi) or None)}, info), ...])


def collect(exp_roots: list[str]) -> Tables:
    """The tables of every scores/scores.json below the exp roots (title -> (family, rows)).
    Raises InputError for a missing root or a scores.json that cannot be used."""
    tables: Tables = {}
    for root in exp_roots:
        if not os.path.isdir(root):
            raise InputError("no such directory", root)
        found = find_scores(root)
        if not found:
            warn(f"{root}: no scores/scores.json below it (nothing scored there yet, or not an exp dir): "
                 "it adds no row")
        for path in found:
            sys_dir = os.path.dirname(os.path.dirname(path))
            system = os.path.relpath(sys_dir, root)
            if len(exp_roots) > 1 or system == ".":
                system = os.path.normpath(os.path.join(root, system))
            try:
                found = tables_of(path, system)
            except NoStage as e:
                warn(f"{e.format()}; {system} is left out")
                continue
            for title, family, vals, info in found:
                info["dir"] = sys_dir          # where its report.html is (--format html)
                tables.setdefault(title, (family, []))[1].append((system, vals, info))
    return tables


def ordered(tables: Tables, metrics: list[str] | None = None) -> list[tuple[str, list[str], list[tuple]]]:
    """(title, columns, rows) of each table, in the order of RESULTS.md; with `metrics`, only
    those columns, and a table having none of them is left out (a metric no table has is an
    InputError)."""
    if metrics is not None:
        known = {k for _, rows in tables.values() for _, vals, _ in rows for k in vals}
        unknown = [k for k in metrics if k not in known]
        if unknown:
            raise InputError(f"--metrics: no table has {', '.join(unknown)}")
    out = []
    for title in sorted(tables, key=lambda t: table_order(t, tables[t][0])):
        family, rows = tables[title]
        cols = columns(family, [v for _, v, _ in rows], metrics)
        if cols or metrics is None:
            out.append((title, cols, rows))
    return out


def markdown(tables: Tables, exp_roots: list[str], places: Callable[[str], int] = lambda k: 4, scale: bool = False,
             metrics: list[str] | None = None, bold_best: bool = False) -> str:
    """The text of RESULTS.md: a `data` column (data_cell), the warnings of a system's scores
    as a footnote; `scale` (--percent) as `scaled`; `bold_best` the best value of each column
    in bold."""
    out = [f"<!-- generated by utils/summarize_scores.sh (termeval {__version__}); do not edit -->",
           "# Results", ""]
    if not tables:
        out.append(f"No scored systems (scores/scores.json) under {' '.join(map(md, exp_roots))} yet.")
    notes = 0
    for title, cols, rows in ordered(tables, metrics):
        out += [f"## {md(title)}", "", "|system|data|" + "|".join(map(md, cols)) + "|", "|---|---|" + "---|" * len(cols)]
        best = best_values(cols, [v for _, v, _ in rows]) if bold_best else {}
        footnotes = []
        for system, vals, info in rows:
            mark = ""
            if info["warnings"]:
                notes += 1
                mark = f"[^{notes}]"
                footnotes.append(f"[^{notes}]: {md(system)}: " + md(" ".join(info["warnings"])))
            shown = []
            for k in cols:
                text = cell(scaled(k, vals.get(k), scale), places(k))
                shown.append(f"**{text}**" if k in best and number(vals.get(k)) == best[k] else text)
            out.append(f"|{md(system)}{mark}|{md(data_cell(info))}|" + "|".join(shown) + "|")
        out += [""] + (footnotes + [""] if footnotes else [])
    return "\n".join(out) + "\n"


def rows(tables: Tables) -> list[dict]:
    """The rows of the tables as flat dicts, in the order of RESULTS.md: {"table": title,
    "system": system, <column>: value (None where the system has none), and <column>_ci_lo /
    <column>_ci_hi where it has an interval}."""
    out = []
    for title, cols, table in ordered(tables):
        for system, vals, _ in table:
            row: dict = {"table": title, "system": system}
            for k in cols:
                v, ci = vals.get(k, (None, None))
                row[k] = v
                if ci is not None:
                    row[f"{k}_ci_lo"], row[f"{k}_ci_hi"] = ci
            out.append(row)
    return out


def summarize(exp_roots: list[str]) -> str:
    """The text of RESULTS.md over the exp roots."""
    return markdown(collect(exp_roots), exp_roots)


def task(path: str, text: str) -> tuple[str, list[str], Callable[[str], None]]:
    """RESULTS.md at `path` as a one-shot task (termeval.run.driver.run_task: written beside
    its old version and moved into place whole; the caller passes `inputs(exp_roots)` as its
    inputs, so a path that is or holds a root, or is a scores.json read, is refused, and so is a
    directory at `path`). No lock: its directory (the
    recipe's, exp/) is shared with unrelated outputs, and the file is replaced by one rename."""
    out = os.path.normpath(path)
    parent, name = os.path.split(out)
    if name in ("", ".", ".."):
        raise InputError("give the file to write by its name", path)

    def write(tmp: str) -> None:
        with atomic_write(os.path.join(tmp, name)) as f:
            f.write(text)
    return parent or ".", [name], write
