"""The score-file convention every stage uses.

For a system directory `exp/<sys>` and a stage name (`matching`, `clustering`, `parsing`,
`std`, ...), `write_scores` writes

* `exp/<sys>/scores/<stage>`: one metric per line, `<metric> <value> [ <support> ]` (plus
  `ci95 <lo> <hi>` with --bootstrap, termeval.bootstrap), values as
  fractions in the one number format of termeval.core.numbers (6 decimals, at least 6
  significant digits; integers as integers, `-` where undefined), so that
  `grep -H '^ned ' exp/*/scores/*` compares systems the way Kaldi users grep WER files;
* `exp/<sys>/scores/scores.json`: the same metrics at full float precision (null where
  undefined) merged with the other stages' metrics, confidence intervals under `ci`, plus `termeval_version`, `benchmark`,
  `command`, any extra keys the stage adds (counts, folds, ...), and per-stage metadata under
  `stages`.

Both files are written to a temporary file and renamed, so a failed run never leaves a
half-written score file.
"""
from __future__ import annotations

import datetime
import json
import math
import os
import shlex
import sys
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from termeval.core.numbers import fmt_value
from termeval.core.version import __version__
from termeval.core.textio import atomic_write


# The term discovery score files and their metrics, in file order (zrc2020 has no matching
# precision/recall/F; zr2015/zr2017 prefix every name with cross_ / within_).
TDE_STAGES: dict[str, tuple[str, ...]] = {
    "matching": ("matching_precision", "matching_recall", "matching_fscore", "ned", "ned_pairs",
                 "coverage"),
    "clustering": ("grouping_precision", "grouping_recall", "grouping_fscore", "type_precision",
                   "type_recall", "type_fscore"),
    "parsing": ("token_precision", "token_recall", "token_fscore", "boundary_precision",
                "boundary_recall", "boundary_fscore"),
}


@dataclass(frozen=True)
class Metric:
    """One score line: name, value (float, int or None = undefined), optional support text,
    optional confidence interval (termeval.bootstrap: {"lo", "hi", "level", "unit", "n", "seed"})."""
    name: str
    value: float | int | None
    support: str = ""
    ci: Mapping[str, Any] | None = None


def format_value(value: float | int | None) -> str:
    """A score line's value: termeval.core.numbers.fmt_value."""
    return fmt_value(value)


def format_line(m: Metric) -> str:
    if " " in m.name or not m.name:
        raise ValueError(f"metric names are single tokens, got {m.name!r}")
    line = f"{m.name} {format_value(m.value)}"
    if m.support:
        line += f" [ {m.support} ]"
    if m.ci is not None:
        line += " " + format_ci(m.ci)
    return line


def format_ci(ci: Mapping[str, Any]) -> str:
    """`ci95 <lo> <hi>` (4 decimals, `-` where undefined) after the value and support."""
    level = float(ci.get("level", 0.95)) * 100
    tag = f"ci{level:.0f}" if abs(level - round(level)) < 1e-9 else f"ci{level:g}"
    return f"{tag} {_ci_bound(ci.get('lo'))} {_ci_bound(ci.get('hi'))}"


def _ci_bound(x: Any) -> str:
    return "-" if x is None or not math.isfinite(float(x)) else f"{float(x):.4f}"


def to_json_value(value: Any) -> Any:
    """JSON-safe copy: NaN/inf -> null, numpy scalars/arrays -> Python, tuples -> lists."""
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, Mapping):
        return {str(k): to_json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json_value(v) for v in value]
    if hasattr(value, "tolist"):
        return to_json_value(value.tolist())
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    return value


def command_line() -> str:
    return " ".join(shlex.quote(a) for a in [os.path.relpath(sys.argv[0])] + sys.argv[1:])


def write_scores(exp_dir: str, stage: str, metrics: Sequence[Metric], benchmark: str | None,
                 extra: Mapping[str, Any] | None = None, command: str | None = None,
                 warnings: Sequence[str] | None = None, into: dict | None = None) -> str:
    """Write exp_dir/scores/<stage> and merge the metrics into exp_dir/scores/scores.json.

    Returns the path of the stage file. `extra` keys are stored at the top level of
    scores.json (e.g. {"counts": {...}, "folds": {...}}). A stage that is not a scoring
    benchmark (input preparation) passes benchmark=None and leaves the top-level
    `benchmark`/`command` of scores.json as they are. `warnings` (the lines the step printed as
    `<script>: warning: ...`) are kept as scores.json "warnings" -> {stage: [...]}; a stage
    re-run without warnings drops its entry. `into`, if given, is made the mapping scores.json
    now holds (a stage's report returns it without reading the file back).
    """
    scores_dir = os.path.join(exp_dir, "scores")
    os.makedirs(scores_dir, exist_ok=True)
    lines = [format_line(m) for m in metrics]
    names = [m.name for m in metrics]
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate metric names in stage {stage}: {names}")
    json_path = os.path.join(scores_dir, "scores.json")
    data: dict[str, Any] = {}
    if os.path.exists(json_path):
        try:
            with open(json_path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError, RecursionError):
            data = {}  # a broken scores.json from elsewhere is rebuilt, not trusted
        if not isinstance(data, dict):
            data = {}
    command = command if command is not None else command_line()
    data["termeval_version"] = __version__
    if benchmark is not None:
        data["benchmark"] = benchmark
        data["command"] = command
    cis = data.get("ci") if isinstance(data.get("ci"), dict) else {}
    for m in metrics:
        data[m.name] = to_json_value(m.value)
        if m.ci is not None:
            cis[m.name] = to_json_value(m.ci)
        else:
            cis.pop(m.name, None)       # a re-run without --bootstrap leaves no stale interval
    if cis:
        data["ci"] = cis
    else:
        data.pop("ci", None)
    for k, v in (extra or {}).items():
        data[k] = to_json_value(v)
    if benchmark is not None and (extra or {}).get("data_id"):
        # one identity per benchmark: an exp dir scored as zrc2020 and as a segmentation keeps both
        ids = data.get("data_ids") if isinstance(data.get("data_ids"), dict) else {}
        ids[benchmark] = extra["data_id"]
        data["data_ids"] = ids
    warned = data.get("warnings") if isinstance(data.get("warnings"), dict) else {}
    warned.pop(stage, None)
    if warnings:
        warned[stage] = [str(w) for w in warnings]
    if warned:
        data["warnings"] = warned
    else:
        data.pop("warnings", None)
    stages = data.get("stages") if isinstance(data.get("stages"), dict) else {}
    stages[stage] = {"benchmark": benchmark, "command": command, "metrics": names,
                     "date": datetime.datetime.now().isoformat(timespec="seconds")}
    data["stages"] = stages
    stage_path = os.path.join(scores_dir, stage)
    with atomic_write(stage_path) as f:
        f.write("".join(line + "\n" for line in lines))
    with atomic_write(json_path) as f:
        json.dump(data, f, indent=1, ensure_ascii=False, allow_nan=False)
        f.write("\n")
    if into is not None:
        into.clear()
        into.update(json.loads(json.dumps(data)))    # as read back from the file
    return stage_path


def fscore(precision: float | None, recall: float | None) -> float | None:
    """Harmonic mean; 0 when P + R = 0 (the reference tools crash there); None if undefined."""
    if precision is None or recall is None:
        return None
    if math.isnan(precision) or math.isnan(recall):
        return None
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)
