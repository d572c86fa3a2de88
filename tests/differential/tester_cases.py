"""F4DE's own KWSEval tester command lines (KWSEval/test/KWSEval/res_test*.txt of an F4DE 3.5.0
checkout: 2a-2c, 6a, 6b, 7a-7e, 9) run by F4DE's KWSEval.pl and termeval's utils/KWSEval in twin
directories laid out as the tester's (a `run` directory beside `common`, the inputs given as
`../common/...`): stdout and every file written (alignment.csv of the `-csv` cases) compared.

  python3 tests/differential/tester_cases.py [--record DIR]
needs $F4DE_DIR; `--record` stores the inputs the cases read and F4DE's outputs (what
test_f4de_fixtures.py replays on every run).
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kws_harness as harness  # noqa: E402

CASES = ["2a", "2b", "2c", "6a", "6b", "7a", "7b", "7c", "7d", "7e", "9"]


def tester_argv(f4de_dir: str, case: str) -> list[str]:
    """KWSEval's arguments of a tester case (its [[COMMANDLINE]])."""
    with open(os.path.join(f4de_dir, "KWSEval", "test", "KWSEval", f"res_test{case}.txt"), encoding="utf-8") as f:
        text = f.read()
    return shlex.split(text.split("[[COMMANDLINE]] ", 1)[1].split("\n", 1)[0])[1:]


def inputs_of(argv: list[str]) -> list[str]:
    """The ../common/ files a command line reads."""
    return [x[len("../common/"):] for x in argv if x.startswith("../common/")]


def layout(d: str, common: str) -> str:
    """<d>/common (the inputs) beside <d>/run (where KWSEval runs)."""
    os.makedirs(os.path.join(d, "run"))
    if not os.path.exists(os.path.join(d, "common")):
        shutil.copytree(common, os.path.join(d, "common"))
    return os.path.join(d, "run")


def run_f4de(f4de_dir: str, argv: list[str], run: str) -> None:
    exe = os.path.join(f4de_dir, "KWSEval", "tools", "KWSEval", "KWSEval.pl")
    p = subprocess.run([exe] + argv, cwd=run, capture_output=True)
    _save(run, p.stdout, p.returncode)
    with open(os.path.join(run, "STDERR"), "wb") as f:
        f.write(p.stderr)


def run_termeval(argv: list[str], run: str) -> None:
    out, rc = harness.kwseval_in(run, argv)
    _save(run, out.encode(), rc)


def _save(run: str, out: bytes, rc: int) -> None:
    with open(os.path.join(run, "STDOUT"), "wb") as f:
        f.write(out)
    with open(os.path.join(run, "EXIT"), "w") as f:
        f.write(f"{rc}\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--f4de-dir", default=os.environ.get("F4DE_DIR", ""))
    ap.add_argument("--record", default="")
    a = ap.parse_args(argv)
    if not a.f4de_dir:
        print("tester_cases: F4DE_DIR is needed", file=sys.stderr)
        return 2
    common = os.path.join(a.f4de_dir, "KWSEval", "test", "common")
    base = tempfile.mkdtemp(prefix="kwseval-tester.")
    bad = 0
    try:
        for case in CASES:
            args = tester_argv(a.f4de_dir, case)
            small = os.path.join(base, "common")
            os.makedirs(small, exist_ok=True)
            for name in inputs_of(args):
                shutil.copy(os.path.join(common, name), small)
            runs = {}
            for tool, fn in (("f4de", lambda r: run_f4de(a.f4de_dir, args, r)), ("termeval", lambda r: run_termeval(args, r))):
                run = layout(os.path.join(base, case, tool), small)
                fn(run)
                runs[tool] = harness.files_of(run)
            r = harness.compare_runs(runs["f4de"], runs["termeval"])
            print(f"test{case}: files {r['files_equal']}/{r['files']} equal" + "".join("\n  " + d for d in r["diffs"]))
            bad += bool(r["diffs"])
            if a.record:
                dest = os.path.join(a.record, f"tester{case}")
                harness.record_run(os.path.join(dest, "tester"), runs["f4de"])
                os.makedirs(os.path.join(dest, "common"), exist_ok=True)
                for name in inputs_of(args):
                    shutil.copy(os.path.join(common, name), os.path.join(dest, "common"))
                with open(os.path.join(dest, "argv.json"), "w") as f:
                    json.dump({"tester": args}, f)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
