#!/usr/bin/env python3
"""Record what a published tool outputs on the generated cases (tests/differential/cases.py),
as a small fixture the tests compare termeval against on every run.

    python -m tests.differential.record <tool> [--python PY] [--count N] [--out FILE]

<tool>: harwath ($HARWATH_DIR, jasonppy/syllable-discovery), sdhubert ($SDHUBERT_DIR,
cheoljun95/sdhubert), sylreg ($SYLREG_DIR, ryota-komatsu/speaker_disentangled_hubert's
src/s5hubert with eval.py; also $SDHUBERT_DIR), discophon ($DISCOPHON_DIR: a directory holding
the discophon package, e.g. the site-packages of a venv with discophon==0.2.0), malan
($MALAN_DIR, s-malan/evaluation), unsupseg ($UNSUPSEG_DIR, felixkreuk/UnsupSeg), vqwordseg
($VQWORDSEG_DIR, kamperh/vqwordseg), wordseg ($WORDSEG_DIR, bootphon/wordseg). --python: the
interpreter with the tool's dependencies (default: this one). Writes
tests/fixtures/differential/<tool>.json: per case its seed, kind, input digest and the tool's
output (or its error). Run from the recipe root; local/record_scorer_fixtures.sh runs them all.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

from tests.differential import cases as gen
from tests.differential import tool_inputs

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures", "differential")
ENV = {"harwath": "HARWATH_DIR", "sdhubert": "SDHUBERT_DIR", "sylreg": "SYLREG_DIR",
       "discophon": "DISCOPHON_DIR", "malan": "MALAN_DIR", "unsupseg": "UNSUPSEG_DIR",
       "vqwordseg": "VQWORDSEG_DIR", "wordseg": "WORDSEG_DIR"}
SOURCES = {"harwath": "jasonppy/syllable-discovery unit_analysis_boundary_only.py",
           "sdhubert": "cheoljun95/sdhubert evaluate_boundary.py, evaluate_purity.py",
           "sylreg": "ryota-komatsu/speaker_disentangled_hubert src/s5hubert/tasks/eval.py (8e12b56)",
           "discophon": "CoML discophon 0.2.0 discophon.evaluate.phone_segmentation",
           "malan": "s-malan/evaluation boundary_word.py",
           "unsupseg": "felixkreuk/UnsupSeg utils.py PrecisionRecallMetric",
           "vqwordseg": "kamperh/vqwordseg eval_segmentation.py",
           "wordseg": "bootphon/wordseg wordseg.evaluate"}
CASES_OF = {**gen.CASES, "sylreg": gen.sdhubert_cases}


def fixture_path(tool: str) -> str:
    return os.path.normpath(os.path.join(FIXTURES, f"{tool}.json"))


def case_digest(tool: str, case: gen.Case, spec_dir: str) -> str:
    """The digest of a case's inputs; vqwordseg's corpus is numpy-generated: its files'."""
    if tool != "vqwordseg":
        return case.digest()
    import hashlib
    h = hashlib.sha1()
    for dirpath, dirs, files in sorted(os.walk(spec_dir)):
        dirs.sort()
        for name in sorted(files):
            p = os.path.join(dirpath, name)
            h.update(os.path.relpath(p, spec_dir).encode())
            with open(p, "rb") as f:
                h.update(f.read())
    return h.hexdigest()[:16]


def commit(path: str) -> str | None:
    r = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() or None if r.returncode == 0 else None


def run_tool(tool: str, checkout: str, jobs: list[dict], python: str, work: str) -> list[dict]:
    """The runner (tests/differential/run_tools.py) on `jobs` with `python`; its results."""
    jp, rp = os.path.join(work, "jobs.json"), os.path.join(work, "results.json")
    with open(jp, "w") as f:
        json.dump(jobs, f)
    extra = [os.environ.get("SDHUBERT_DIR", "")] if tool == "sylreg" else []
    r = subprocess.run([python, os.path.join(HERE, "run_tools.py"), tool, checkout, jp, rp] + extra,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"run_tools.py {tool} failed:\n{r.stderr}")
    with open(rp) as f:
        return json.load(f)


def write_inputs(tool: str, cases: list[gen.Case], work: str) -> tuple[list[dict], dict[int, str]]:
    writer = tool_inputs.WRITERS["sdhubert" if tool == "sylreg" else tool]
    jobs, digests = [], {}
    for c in cases:
        d = os.path.join(work, f"case{c.index:04d}")
        os.makedirs(d, exist_ok=True)
        jobs.append({"case": c.index, "spec": writer(c, d)})
        digests[c.index] = case_digest(tool, c, d)
    return jobs, digests


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tool", choices=sorted(ENV))
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--count", type=int, default=None)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    checkout = os.environ.get(ENV[a.tool])
    if not checkout or not os.path.isdir(checkout):
        raise SystemExit(f"set ${ENV[a.tool]} to the tool's checkout")
    cases = CASES_OF[a.tool]() if a.count is None else CASES_OF[a.tool](a.count)
    with tempfile.TemporaryDirectory() as work:
        jobs, digests = write_inputs(a.tool, cases, work)
        results = run_tool(a.tool, checkout, jobs, a.python, work)
    rows = []
    for c, res in zip(cases, results):
        assert res["case"] == c.index
        rows.append({"case": c.index, "seed": c.seed, "kind": c.kind, "digest": digests[c.index],
                     **{k: res[k] for k in ("out", "error") if k in res}})
    doc = {"tool": a.tool, "source": SOURCES[a.tool], "commit": commit(checkout), "generator": gen.VERSION,
           "recorded_with": "tests/differential/record.py (local/record_scorer_fixtures.sh)", "cases": rows}
    out = a.out or fixture_path(a.tool)
    with open(out, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    bad = sum("error" in r for r in rows)
    print(f"{a.tool}: {len(rows)} cases recorded ({bad} with the tool's error) -> {out}")


if __name__ == "__main__":
    main()
