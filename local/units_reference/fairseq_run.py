#!/usr/bin/env python3
"""Run fairseq's examples/hubert/measure_teacher_quality.py (main_phn_lab, its own readers) on
generated case dirs, in an environment with numpy and tabulate (local/record_units_fixtures.sh,
and the live tests when $FAIRSEQ_DIR is set). Nothing of termeval is imported. The script's
`tabulate` is wrapped to keep the values it prints (full doubles) next to the printed table.

Usage: fairseq_run.py <fairseq-dir> <results.json> <case-dir>...   (each: fs/, options.json)
"""
import contextlib
import importlib.util
import io
import json
import os
import sys


def load(fairseq_dir: str):
    path = os.path.join(fairseq_dir, "examples", "hubert", "measure_teacher_quality.py")
    spec = importlib.util.spec_from_file_location("measure_teacher_quality", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def plain(v):
    if isinstance(v, tuple):
        return [int(x) for x in v]
    if hasattr(v, "dtype") and v.dtype.kind == "f" or isinstance(v, float):
        return float(v)
    return int(v)


def run(mod, case: str) -> dict:
    with open(os.path.join(case, "options.json"), encoding="utf-8") as f:
        opts = json.load(f)
    seen = {}
    real = mod.tabulate

    def keep(rows, headers, **kw):
        seen.update(zip(headers, [plain(v) for v in list(rows)[0]]))
        return real(rows, headers, **kw)
    mod.tabulate = keep
    out = io.StringIO()
    fs = os.path.join(case, "fs")
    try:
        with contextlib.redirect_stdout(out):
            mod.main_phn_lab(None, fs, "km", ["valid"], os.path.join(fs, "phn"), ["valid"], 0, opts["upsample"])
    except Exception as e:  # noqa: BLE001 -- the reference's failure is the result
        return {"error": f"{type(e).__name__}: {str(e)[:300]}"}
    finally:
        mod.tabulate = real
    return {"values": seen, "table": out.getvalue()}


if __name__ == "__main__":
    mod = load(sys.argv[1])
    results = {os.path.basename(os.path.normpath(c)): run(mod, c) for c in sys.argv[3:]}
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump({"cases": results}, f, indent=1)
