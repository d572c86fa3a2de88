#!/usr/bin/env python3
"""Record what discophon 0.2.0 and fairseq's measure_teacher_quality.py compute on the
generated cases of tests/units/units_cases.py into tests/units/fixtures/{discophon,fairseq}.json
(run by local/record_units_fixtures.sh; the tests compare termeval with them on every run).

Usage: record_units_fixtures.py --discophon-python PY --fairseq-dir DIR --fairseq-python PY [--only discophon|fairseq]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "units"))
import units_cases as cases  # noqa: E402  the generator lives with the tests

FIXTURES = os.path.join(ROOT, "tests", "units", "fixtures")
HARNESS = os.path.join(ROOT, "local", "units_reference")


def lay_out(tmp: str, names, make) -> list[str]:
    dirs = []
    for name in names:
        files, opts = make(name)
        d = os.path.join(tmp, name)
        cases.write(files, d)
        with open(os.path.join(d, "options.json"), "w", encoding="utf-8") as f:
            json.dump(opts, f)
        dirs.append(d)
    return dirs


def record(kind: str, names, make, argv: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        dirs = lay_out(tmp, names, make)
        out = os.path.join(tmp, "results.json")
        subprocess.run(argv[:1] + [os.path.join(HARNESS, f"{kind}_run.py")] + argv[1:] + [out] + dirs, check=True)
        with open(out, encoding="utf-8") as f:
            got = json.load(f)
    for name in names:
        got["cases"][name]["digest"] = cases.digest(make(name)[0])
    path = os.path.join(FIXTURES, f"{kind}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(got, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")
    print(f"{path}: {len(names)} cases, {sum('error' in v for v in got['cases'].values())} refused")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--discophon-python", required=True)
    p.add_argument("--fairseq-dir", required=True)
    p.add_argument("--fairseq-python", required=True)
    p.add_argument("--only", choices=("discophon", "fairseq"))
    a = p.parse_args()
    os.makedirs(FIXTURES, exist_ok=True)
    if a.only in (None, "discophon"):
        record("discophon", list(cases.DISCOPHON) + list(cases.DISCOPHON_ERRORS), cases.discophon_case,
               [a.discophon_python])
    if a.only in (None, "fairseq"):
        record("fairseq", list(cases.FAIRSEQ), cases.fairseq_case, [a.fairseq_python, a.fairseq_dir])


if __name__ == "__main__":
    main()
