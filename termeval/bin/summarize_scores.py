#!/usr/bin/env python3
"""Build RESULTS.md: one Markdown table per benchmark over every scores/scores.json found.

Usage: python -m termeval.bin.summarize_scores [--out RESULTS.md] <exp-root> [<exp-root> ...]
 e.g.: python -m termeval.bin.summarize_scores --out RESULTS.md exp

Finds `scores/scores.json` at any depth below each <exp-root> (termeval's `exp/<sys>/`, Kaldi's
`exp/tri3/decode_dev/kws_10/`, ESPnet's `exp/asr_*/decode_*/...`); the system is the path of
the directory holding `scores/`, relative to its <exp-root>. One table per benchmark (zrc2020,
zr2015, zr2017, each STD operating point, quesst, resources, segmentation, ...) with at most
ten headline metrics; every other value stays in the score files. Values have 4 decimals
(counts as integers, '-' where undefined), followed by the confidence interval `[lo, hi]` when
the system was scored with --bootstrap. Tables come in a fixed order: zrc2020, zr2015, zr2017,
std, quesst, resources, segmentation, then any other benchmark. Lower is better for ned and
cnxe; higher is better for everything else. A scores.json that is not valid JSON (a truncated
file) or not a JSON object (a list) is an error: one line naming the file, exit 1, and
RESULTS.md is not written (a table silently missing a system would read as complete). A
directory that cannot be listed, or a scores.json holding no scored stage (prepare_classes'
own), is left out with one warning line on stderr naming it and why.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from termeval.core.version import __version__
from termeval.run.cli import make_parser, run
from termeval.core.errors import InputError
from termeval.core.textio import atomic_write
from termeval.core.warn import warn as core_warn

TDE = ["ned", "coverage", "grouping_fscore", "type_fscore", "token_fscore", "boundary_fscore"]
# Headline metrics per table family, in this order (at most ten).
HEADLINE: dict[str, list[str]] = {
    "zrc2020": TDE + ["grouping_precision", "grouping_recall", "ned_pairs"],
    "zr2015": ["cross_ned", "cross_coverage", "cross_matching_fscore", "cross_grouping_fscore",
               "cross_type_fscore", "cross_token_fscore", "cross_boundary_fscore",
               "within_ned", "within_matching_fscore", "within_grouping_fscore"],
    "std": ["atwv", "mtwv", "mtwv_threshold", "otwv", "p_miss", "p_fa", "cnxe", "cmin_nxe",
            "n_terms", "n_targets"],
    "quesst": ["act_twv", "max_twv", "max_twv_threshold", "act_cnxe", "min_cnxe", "ub_twv", "lb_cnxe"],
    "resources": ["isf", "ssf", "pmu_index", "pmu_search", "pl"],
    "segmentation": ["word_boundary_precision", "word_boundary_recall", "word_boundary_fscore",
                     "word_boundary_os", "word_boundary_rvalue", "word_token_fscore", "word_purity",
                     "word_v_measure", "word_nmi", "word_o2o_accuracy"],
}
HEADLINE["zr2017"] = HEADLINE["zr2015"]
HEADLINE["zr2015-doc"] = TDE + ["matching_fscore", "grouping_precision", "grouping_recall", "ned_std"]
HEADLINE["lrec2014"] = HEADLINE["zr2015-doc"]
HEADLINE["segmentation_phone"] = [k.replace("word_", "phone_", 1) for k in HEADLINE["segmentation"]]
# Table order in RESULTS.md (families not listed come after, by title).
FAMILY_ORDER = ["zrc2020", "zr2015", "zr2017", "zr2015-doc", "lrec2014", "std", "std_operating", "quesst", "quesst_operating",
                "resources", "segmentation", "segmentation_phone"]
TDE_STAGES = {"matching", "clustering", "parsing"}
SKIP_STAGES = {"prepare", "tde15_input"}


def fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return f"{v:.4f}"
    return str(v)


def warn(message: str) -> None:
    core_warn("summarize_scores", message)


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
    out: dict[str, tuple[str, str, dict]] = {}
    for stage, meta in sorted(stages.items()):
        if stage in SKIP_STAGES or not isinstance(meta, dict):
            continue
        bench = str(meta.get("benchmark") or data.get("benchmark") or "unknown")
        if stage in TDE_STAGES:
            family, title = bench, bench
        elif stage == "std":
            family, title = "std", f"std ({bench})"
        else:
            family, title = stage, stage if bench in (stage, "None") else f"{stage} ({bench})"
        names = out.get(title, (title, family, {}))[2]
        for name in meta.get("metrics", []) if isinstance(meta.get("metrics"), list) else []:
            if isinstance(name, str) and name in data:
                names[name] = (data[name], interval(cis.get(name)))
        out[title] = (title, family, names)
    return list(out.values())


def interval(ci) -> tuple[float, float] | None:
    if isinstance(ci, dict) and all(isinstance(ci.get(k), (int, float)) and not isinstance(ci.get(k), bool)
                                    for k in ("lo", "hi")):
        return float(ci["lo"]), float(ci["hi"])
    return None


def cell(value) -> str:
    """`0.9292` or, with an interval, `0.9292 [0.9273, 0.9309]`."""
    v, ci = value if isinstance(value, tuple) else (value, None)
    return fmt(v) if ci is None else f"{fmt(v)} [{ci[0]:.4f}, {ci[1]:.4f}]"


def table_order(title: str, family: str) -> tuple[int, str]:
    return (FAMILY_ORDER.index(family) if family in FAMILY_ORDER else len(FAMILY_ORDER), title)


def columns(family: str, values: list[dict]) -> list[str]:
    present = set().union(*values) if values else set()
    wanted = HEADLINE.get(family)
    if wanted is None:  # an unknown benchmark: its first ten numeric metrics
        first = {k: (v[0] if isinstance(v, tuple) else v) for k, v in values[0].items()}
        wanted = [k for k in first if isinstance(first[k], (int, float)) or first[k] is None]
    return [k for k in wanted if k in present][:10]


def summarize(exp_roots: list[str]) -> str:
    tables: dict[str, tuple[str, list[tuple[str, dict]]]] = {}
    for root in exp_roots:
        if not os.path.isdir(root):
            raise InputError("no such directory", root)
        for path in find_scores(root):
            sys_dir = os.path.dirname(os.path.dirname(path))
            system = os.path.relpath(sys_dir, root)
            if len(exp_roots) > 1 or system == ".":
                system = os.path.normpath(os.path.join(root, system))
            try:
                found = tables_of(path, system)
            except NoStage as e:
                warn(f"{e.format()}; {system} is left out")
                continue
            for title, family, vals in found:
                tables.setdefault(title, (family, []))[1].append((system, vals))
    out = [f"<!-- generated by utils/summarize_scores.sh (termeval {__version__}); do not edit -->",
           "# Results", ""]
    if not tables:
        out.append(f"No scored systems (scores/scores.json) under {' '.join(exp_roots)} yet.")
    for title in sorted(tables, key=lambda t: table_order(t, tables[t][0])):
        family, rows = tables[title]
        cols = columns(family, [v for _, v in rows])
        out += [f"## {title}", "", "|system|" + "|".join(cols) + "|", "|---|" + "---|" * len(cols)]
        for system, vals in rows:
            out.append(f"|{system}|" + "|".join(cell(vals.get(k)) for k in cols) + "|")
        out.append("")
    return "\n".join(out) + "\n"


def write_results(path: str, text: str, inputs: list[str]) -> None:
    """RESULTS.md through termeval.run.driver.run_task: written beside its old version and moved
    into place whole; a path that is, or holds, one of the exp roots is refused. No lock: its
    directory (the recipe's, exp/) is shared with unrelated outputs, and the file is replaced
    by one rename."""
    from termeval.run import driver
    out = os.path.normpath(path)
    parent, name = os.path.split(out)
    if name in ("", ".", ".."):
        raise InputError("give the file to write by its name", path)

    def write(tmp: str) -> None:
        with atomic_write(os.path.join(tmp, name)) as f:
            f.write(text)
    driver.run_task("summarize_scores", parent or ".", [name], write, inputs=inputs, lock=False)


def get_parser() -> argparse.ArgumentParser:
    p = make_parser(__doc__, prog="summarize_scores")
    p.add_argument("--out", "--output", dest="out", default="RESULTS.md",
                   help="the Markdown file to write (default RESULTS.md in the current directory)")
    p.add_argument("--exp-root", dest="legacy_root", default=None, help=argparse.SUPPRESS)
    p.add_argument("exp_roots", nargs="*", help="directories to search (default: exp)")
    return p


def main(argv: list[str] | None = None) -> None:
    def _main(args: list[str]) -> int:
        a = get_parser().parse_args(args)
        roots = a.exp_roots or ([a.legacy_root] if a.legacy_root else ["exp"])
        text = summarize(roots)
        write_results(a.out, text, roots)
        print(f"summarize_scores: wrote {a.out}", file=sys.stderr)
        return 0
    run(_main, argv)


if __name__ == "__main__":
    main()
