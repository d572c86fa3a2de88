#!/usr/bin/env python3
"""Run discophon's own benchmark (`python -m discophon.benchmark ... --benchmark discovery`) on
generated case dirs, in discophon's environment (local/record_units_fixtures.sh, and the live
tests of tests/units/ when $DISCOPHON_PYTHON or $DISCOPHON_DIR is set). Nothing of termeval is
imported. Only the check of the whole dataset tree is skipped (the cases hold the alignment
files, the only ones the discovery benchmark reads; the check reads no number).

Usage: discophon_run.py <results.json> <case-dir>...   (each case dir: dataset/, predictions/, options.json)
"""
import contextlib
import io
import json
import os
import sys

import discophon
import discophon.benchmark as benchmark

benchmark.validate_dataset_structure = lambda path: None


def run(case: str) -> dict:
    with open(os.path.join(case, "options.json"), encoding="utf-8") as f:
        opts = json.load(f)
    out = os.path.join(case, "discophon_scores.jsonl")
    if os.path.exists(out):
        os.remove(out)           # discophon appends to its output file
    argv = [os.path.join(case, "dataset"), os.path.join(case, "predictions"), out, "--benchmark", "discovery",
            "--kind", opts["kind"], "--step-units", str(opts["step_units"])]
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            benchmark.cli(argv)
    except Exception as e:  # noqa: BLE001 -- the reference's refusal is the result
        return {"error": f"{type(e).__name__}: {str(e)[:300]}"}
    with open(out, encoding="utf-8") as f:
        return {"scores_jsonl": f.read()}


if __name__ == "__main__":
    results = {os.path.basename(os.path.normpath(c)): run(c) for c in sys.argv[2:]}
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        json.dump({"discophon_version": getattr(discophon, "__version__", None) or
                   __import__("importlib.metadata").metadata.version("discophon"), "cases": results}, f, indent=1)
