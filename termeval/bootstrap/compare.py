"""Paired comparison of systems scored on the same data (steps/compare_systems.sh).

Each scored system leaves per-unit statistics in exp/<sys>/units/units.<table>.npz. The
paired tables are the ones whose units are shared by every system on the same data:
  tde_file      recordings, for every zrc2020 metric (classes differ between systems, so a
                class resample is not paired; NED and grouping use the per-file allocation)
  std_term      terms, for ATWV / MTWV / OTWV
  quesst_query  queries, for the QUESST figures
  segmentation_file, segmentation_phone_file, segmentation_syllable_file   recordings, for every segmentation metric
                (cluster metrics from the resampled contingency cells of each system)
  tde15_file    recordings (or speakers) of --benchmark zr2015/zr2017, a fold table
                (termeval.tde.zr2015.units): the cross_/within_ fold means of coverage, token,
                type and boundary. NED and grouping (over discovered classes, which differ
                between systems) and matching (no unit table) are not compared.
Every system is compared with the first one (the baseline): diff = system - baseline.
"""
from __future__ import annotations

import importlib
import json
import os
import sys
from dataclasses import dataclass
from typing import Any

from termeval.bootstrap.engine import UnitStats, bootstrap_ci, check_paired, paired_test
from termeval.bootstrap.forest import forest_plot, p_text
from termeval.bootstrap.units import load_units, units_path
from termeval.core.errors import InputError
from termeval.core.numbers import fmt_value
from termeval.core.scores import to_json_value
from termeval.core.textio import atomic_write
from termeval.core.warn import step_name

PAIRED = ("tde_file", "std_term", "quesst_query", "segmentation_file", "segmentation_phone_file",
          "segmentation_syllable_file", "tde15_file")
# Tables that are not engine.UnitStats: name -> the module (of the benchmark that writes them)
# with load_table, check_paired, bootstrap_ci([table], exact, n, seed, level) and paired_test.
# Named, not imported: bootstrap/ is the generic engine and imports no benchmark.
FOLD_TABLES = {"tde15_file": "termeval.tde.zr2015.units"}


def _handler(table: str) -> Any:
    return importlib.import_module(FOLD_TABLES[table])

NOT_COMPARED = {"tde15_file": "cross_/within_ ned and grouping_* are over discovered classes, which differ "
                              "between systems (not paired); matching_* has no unit table"}
HEADLINE = ("ned", "coverage", "grouping_fscore", "type_fscore", "token_fscore", "boundary_fscore",
            "atwv", "mtwv", "otwv", "act_twv", "max_twv", "ub_twv", "act_cnxe", "min_cnxe",
            "word_boundary_fscore", "word_v_measure", "word_purity",
            "cross_coverage", "cross_token_fscore", "cross_type_fscore", "cross_boundary_fscore",
            "within_coverage", "within_boundary_fscore")


@dataclass
class System:
    name: str
    exp_dir: str
    scores: dict
    tables: dict[str, Any]     # UnitStats, or a FOLD_TABLES table


def load_system(exp_dir: str) -> System:
    path = os.path.join(exp_dir, "scores", "scores.json")
    if not os.path.isfile(path):
        raise InputError("not a scored system (no scores/scores.json)", path)
    try:
        with open(path, encoding="utf-8") as f:
            scores = json.load(f)
    except (ValueError, UnicodeDecodeError, RecursionError) as e:     # truncated, edited, binary
        raise InputError(f"not valid JSON ({type(e).__name__}: {str(e)[:100]}); re-score this system",
                         path) from None
    if not isinstance(scores, dict):
        raise InputError("not a termeval scores.json (no JSON object); re-score this system", path)
    ids = scores.get("data_ids")
    if not isinstance(scores.get("data_id"), (str, type(None))) or not (
            ids is None or (isinstance(ids, dict) and all(isinstance(v, str) for v in ids.values()))):
        raise InputError("data_id/data_ids are not identity strings; re-score this system", path)
    if not scores.get("data_id"):
        raise InputError("no data identity in scores.json: re-score the system with this termeval", path)
    tables = {t: (_handler(t).load_table if t in FOLD_TABLES else load_units)(units_path(exp_dir, t))
              for t in PAIRED if os.path.isfile(units_path(exp_dir, t))}
    if not tables:
        raise InputError(f"no paired per-unit statistics (units/units.{{{','.join(PAIRED)}}}.npz)",
                         os.path.join(exp_dir, "units"))
    return System(os.path.basename(os.path.normpath(exp_dir)), exp_dir, scores, tables)


def _data_ids(s: System) -> dict:
    ids = s.scores.get("data_ids")
    return dict(ids) if isinstance(ids, dict) else {s.scores.get("benchmark"): s.scores.get("data_id")}


def check_same_data(systems: list[System]) -> None:
    """Refuse systems scored on different data or with different settings; keep only the
    per-unit tables every system has (an exp dir may also hold a segmentation, say)."""
    base = systems[0]
    for s in systems[1:]:
        a, b = _data_ids(base), _data_ids(s)
        common = sorted(k for k in a if k in b)
        if not common:
            raise InputError(f"{s.name} and {base.name} share no scored benchmark "
                             f"({sorted(b)} vs {sorted(a)})", os.path.join(s.exp_dir, "scores", "scores.json"))
        for k in common:
            if a[k] != b[k]:
                raise InputError(f"{s.name} and {base.name} were scored on different data or settings "
                                 f"(data_id of {k}: {b[k]} vs {a[k]})",
                                 os.path.join(s.exp_dir, "scores", "scores.json"))
    shared = set(base.tables).intersection(*(s.tables for s in systems[1:]))
    if not shared:
        raise InputError(f"{systems[1].name} and {base.name} have no per-unit table in common "
                         f"({sorted(systems[1].tables)} vs {sorted(base.tables)})",
                         os.path.join(systems[1].exp_dir, "units"))
    for s in systems:
        s.tables = {t: s.tables[t] for t in sorted(shared)}
    for s in systems[1:]:
        for t in base.tables:
            try:
                (_handler(t).check_paired if t in FOLD_TABLES else check_paired)(s.tables[t], base.tables[t])
            except ValueError as e:
                raise InputError(f"{s.name} and {base.name}: {e}", units_path(s.exp_dir, t)) from None


def distinct_names(systems: list[System]) -> None:
    """Name each system by the shortest path suffix that tells it apart (Kaldi/ESPnet layouts
    end in the same basename: exp/sysA/tde vs exp/sysB/tde -> sysA/tde, sysB/tde)."""
    parts = [os.path.normpath(os.path.abspath(s.exp_dir)).split(os.sep) for s in systems]
    for k in range(1, max(len(p) for p in parts) + 1):
        names = ["/".join(p[-k:]) for p in parts]
        if len(set(names)) == len(names):
            break
    for s, name in zip(systems, names):
        s.name = name


def check_out_dir(exp_dirs: list[str], out_dir: str) -> None:
    """The output dir gets scores/ and plots of its own: it must not be one of the systems (their
    scores/ would be overwritten) nor hold one of them inside its scores/."""
    out = os.path.realpath(out_dir)
    for e in exp_dirs:
        real = os.path.realpath(e)
        if real == out:
            raise InputError(f"the output dir is the system {e}: its scores/ would be overwritten; "
                             "give a new directory, e.g. exp/compare", out_dir)
        if real.startswith(os.path.join(out, "scores") + os.sep):
            raise InputError(f"the system {e} lies inside the output dir's scores/", out_dir)


def compare(systems: list[System], n: int, seed: int, level: float, test: str) -> dict:
    """{"systems": [...], "intervals": {sys: {metric: ci}}, "diffs": {sys: {metric: result}}}."""
    if len(systems) < 2:
        raise InputError("compare needs at least two systems")
    distinct_names(systems)
    names = [s.name for s in systems]
    if len(set(names)) != len(names):
        raise InputError(f"the same exp dir is given twice: {names}")
    check_same_data(systems)
    base = systems[0]
    out: dict = {"systems": names, "baseline": base.name, "n": n, "seed": seed, "level": level,
                 "test": test, "data_id": base.scores["data_id"], "benchmark": base.scores.get("benchmark"),
                 "units": {t: base.tables[t].unit for t in base.tables}, "intervals": {}, "diffs": {}}
    notes = {t: NOT_COMPARED[t] for t in base.tables if t in NOT_COMPARED}
    if notes:
        out["not_compared"] = notes
    for s in systems:
        out["intervals"][s.name] = {}
        for t, us in s.tables.items():
            out["intervals"][s.name].update(_handler(t).bootstrap_ci([us], us.exact, n, seed, level)
                                            if t in FOLD_TABLES else bootstrap_ci(us, n, seed, level))
    for s in systems[1:]:
        out["diffs"][s.name] = {}
        for t in base.tables:
            test_fn = _handler(t).paired_test if t in FOLD_TABLES else paired_test
            out["diffs"][s.name].update(test_fn(s.tables[t], base.tables[t], n, seed, level, test))
    return out


def _f(x, fmt: str | None = None) -> str:
    """A value in the one number format (core.numbers); `fmt` for intervals and p-values."""
    return fmt_value(x) if fmt is None else "-" if x is None else fmt.format(x)


def write_compare(out_dir: str, res: dict) -> list[str]:
    """<out-dir>/scores/compare (one line per system and metric), scores/compare.json and the
    RESULTS-style table <out-dir>/RESULTS.compare.md; returns the compare lines."""
    tag = f"ci{100 * res['level']:g}"
    lines = []
    for sys_name, diffs in res["diffs"].items():
        for m, r in diffs.items():
            lines.append(f"{m} {sys_name}-{res['baseline']} {_f(r['diff'])} {tag} {_f(r['lo'], '{:.4f}')} "
                         f"{_f(r['hi'], '{:.4f}')} p {p_text(r, '{:.4g}', '')} [ {r['test']} over {r['units']} "
                         f"{r['unit']}s, n {r['n']}, seed {r['seed']} ]")
    d = os.path.join(out_dir, "scores")
    os.makedirs(d, exist_ok=True)
    with atomic_write(os.path.join(d, "compare")) as f:
        f.write("".join(x + "\n" for x in lines))
    with atomic_write(os.path.join(d, "compare.json")) as f:
        json.dump(to_json_value(res), f, indent=1, allow_nan=False)
        f.write("\n")
    metrics = [m for m in next(iter(res["diffs"].values()))]
    tab = [f"# Paired comparison with {res['baseline']} ({res['test']}, n = {res['n']}, seed {res['seed']}, "
           f"units: {', '.join(f'{k} -> {v}' for k, v in res['units'].items())})", "",
           "| metric | " + " | ".join(res["systems"]) + " | " + " | ".join(
               f"{s} - {res['baseline']} [{tag}] p" for s in res["diffs"]) + " |",
           "|---" * (1 + len(res["systems"]) + len(res["diffs"])) + "|"]
    for m in metrics:
        vals = [_f(res["diffs"][res["systems"][1]][m]["b"])] + [_f(res["diffs"][s][m]["a"]) for s in res["diffs"]]
        ds = [f"{_f(r['diff'], '{:+.4f}')} [{_f(r['lo'], '{:+.4f}')}, {_f(r['hi'], '{:+.4f}')}] "
              f"{p_text(r, '{:.3g}')}" for r in (res["diffs"][s][m] for s in res["diffs"])]
        tab.append(f"| {m} | " + " | ".join(vals) + " | " + " | ".join(ds) + " |")
    for t, v in res.get("not_compared", {}).items():
        tab += ["", f"Not compared ({t}): {v}."]
    with atomic_write(os.path.join(out_dir, "RESULTS.compare.md")) as f:
        f.write("\n".join(tab) + "\n")
    return lines


# ----------------------------------------------------------------------------- the step

OUTPUTS = ("scores/compare", "scores/compare.json", "RESULTS.compare.md")


def run_compare(opts) -> dict:
    """The comparison of opts.systems (CompareOptions), as `compare` returns it (as_json: what
    scores/compare.json holds)."""
    systems, out = opts.systems_and_out()
    if len(systems) < 2:
        raise InputError("need at least two exp dirs and an output dir")
    if opts.bootstrap < 1:
        raise InputError(f"--bootstrap must be >= 1 and --ci in (0, 1), got {opts.bootstrap} and {opts.ci}")
    if out is not None:
        check_out_dir(systems, out)
    return compare([load_system(e) for e in systems], opts.bootstrap, opts.seed, opts.ci, opts.test)


def as_json(res: dict) -> dict:
    """The comparison as scores/compare.json holds it (undefined values None, tuples lists)."""
    return json.loads(json.dumps(to_json_value(res), allow_nan=False))


def task(opts, res: dict) -> tuple[str, tuple[str, ...], Any]:
    """(out_root, owned outputs, write) of the comparison's files for termeval.run.driver.run_task;
    write(tmp) returns the scores/compare lines. The forest plot is drawn afterwards (`plot`)."""
    return opts.out_dir, OUTPUTS, lambda tmp: write_compare(tmp, res)


def plot(opts, res: dict) -> None:
    """<out-dir>/forest.{png,pdf} with --plot true, each replaced whole (core.plots.save_figure),
    after the comparison is in place: a plot that cannot be written takes no result with it."""
    if opts.plot == "true":
        forest_plot(res, HEADLINE, os.path.join(opts.out_dir, "forest"))


def run(opts, run_task, files=task) -> dict:
    """compare_systems on its CompareOptions: the comparison, its files (`files(opts, res)`: the
    (out_root, outputs, write) of `task`, or a caller's with more files) written through the
    driver's `run_task` (with an out_dir), then the forest plot; returns compare.json's mapping.
    A table that could not be compared is one line on stderr."""
    res = run_compare(opts)
    for t, why in res.get("not_compared", {}).items():
        print(f"{step_name()}: not compared ({t}): {why}", file=sys.stderr)
    if opts.out_dir is not None:
        run_task("compare_systems", *files(opts, res), inputs=opts.paths("input"))
        plot(opts, res)
    return as_json(res)


def show(opts, res: dict) -> None:
    """The command line prints scores/compare and where the files are."""
    with open(os.path.join(opts.out_dir, "scores", "compare"), encoding="utf-8") as f:
        sys.stdout.write(f.read())
    print(f"{step_name()}: comparison in {opts.out_dir}/scores/compare, table in "
          f"{opts.out_dir}/RESULTS.compare.md", file=sys.stderr)


def from_command_line(opts):
    """`<exp-dir-A> <exp-dir-B> [...] <out-dir>`: the systems, then the output dir."""
    if len(opts.dirs) < 3:
        raise InputError("need at least two exp dirs and an output dir")
    return opts.replace(systems=tuple(opts.dirs[:-1]), out_dir=opts.dirs[-1], dirs=()).validate()
