"""Kaldi's egs/babel/s5d/local/kws_score_f4de.sh end to end, with F4DE's KWSEval and with
termeval's utils/KWSEval: each generated case (gen_kws) is laid out as a Kaldi recipe
(data/dev/kws/{ecf.xml,rttm,kwlist.xml}, exp/sys/kws_10/kwslist.xml, local/ and utils/ from
$KALDI_ROOT/egs/babel/s5d) and the script is run twice in twin directories, once with F4DE's
KWSEval.pl as `KWSEval` on PATH, once with termeval's utils/ first on PATH. The script runs
KWSEval with Kaldi's option set, reads TotDur from sum.txt and writes metrics.txt with
kws_oracle_threshold.pl from alignment.csv; every file it leaves in exp/sys/kws_10 and its
stdout are compared (kws_harness.compare_runs). kws_oracle_threshold.pl visits its keywords and
MTWV grid points in Perl's hash order, which Perl randomises per run: both runs set
PERL_HASH_SEED=0 so that its THRESHOLD is reproducible (termeval's oracle port follows that
order with perl_seed0, what test_f4de_fixtures.py uses on the recorded runs).

  python3 tests/differential/kaldi_e2e.py --cases 20 [--first 500] [--record DIR]
needs $F4DE_DIR and $KALDI_ROOT.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen_kws  # noqa: E402
import kws_harness as harness  # noqa: E402

RESULTS = "exp/sys/kws_10"
ARGS = ["data/dev", RESULTS]
# the KWSEval command line the script runs (its stdout echoes the first one)
SCRIPT_ARGV = ["-e", "data/dev/kws/ecf.xml", "-r", "data/dev/kws/rttm", "-t", "data/dev/kws/kwlist.xml", "-a",
               "--zGlobalMeasures", "MAP", "--zGlobalMeasures", "MAPpct", "--zGlobalMeasures", "Optimum",
               "--zGlobalMeasures", "Supremum", "-O", "-B", "-q", "Characters:regex=.*", "-q", "NGramOrder:regex=.*",
               "-s", RESULTS + "//kwslist.xml", "-c", "-o", "-b", "-d", "-f", RESULTS + "/"]


def make_case(seed: int) -> dict[str, str]:
    """A generated case (most have targets in every condition of Kaldi's option set: F4DE's
    KWSEval dies on a condition without targets, gen_kws)."""
    return gen_kws.make_case(seed)


# the script's two echo lines before KWSEval's own output
ECHO = ("local/kws_score_f4de.sh data/dev exp/sys/kws_10\n"
        "KWSEval -e data/dev/kws/ecf.xml -r data/dev/kws/rttm -t data/dev/kws/kwlist.xml "
        "-s exp/sys/kws_10//kwslist.xml -c -o -b -d -f exp/sys/kws_10/\n")


def layout_inputs(root: str, case: dict[str, str]) -> None:
    """data/dev/kws/{ecf.xml,rttm,kwlist.xml} and exp/sys/kws_10/kwslist.xml under `root`."""
    kws = os.path.join(root, "data", "dev", "kws")
    os.makedirs(kws)
    os.makedirs(os.path.join(root, RESULTS))
    for name in ("ecf.xml", "rttm", "kwlist.xml"):
        with open(os.path.join(kws, name), "w", encoding="utf-8") as f:
            f.write(case[name])
    with open(os.path.join(root, RESULTS, "kwslist.xml"), "w", encoding="utf-8") as f:
        f.write(case["kwslist.xml"])


def layout(root: str, case: dict[str, str], s5d: str) -> None:
    """The inputs, and the recipe's local/ and utils/ from s5d."""
    layout_inputs(root, case)
    for name in ("local", "utils"):
        os.symlink(os.path.join(s5d, name), os.path.join(root, name))


def run_script(root: str, first_on_path: str, s5d: str) -> tuple[float, int]:
    env = dict(os.environ, PATH=os.pathsep.join([first_on_path, os.path.join(s5d, "utils"), os.environ["PATH"]]),
               PERL_HASH_SEED="0", PERL_PERTURB_KEYS="0", LC_ALL="C")
    t = time.perf_counter()
    p = subprocess.run(["bash", "local/kws_score_f4de.sh"] + ARGS, cwd=root, capture_output=True, env=env)
    dt = time.perf_counter() - t
    with open(os.path.join(root, "STDOUT"), "wb") as f:
        f.write(p.stdout)
    with open(os.path.join(root, "STDERR"), "wb") as f:
        f.write(p.stderr)
    with open(os.path.join(root, "EXIT"), "w") as f:
        f.write(f"{p.returncode}\n")
    return dt, p.returncode


def outputs(root: str) -> dict[str, bytes]:
    """What a run left: the results directory's files but the system's kwslist.xml, stdout, exit."""
    out = {k: v for k, v in harness.files_of(os.path.join(root, RESULTS)).items()
           if k not in ("kwslist.xml", "STDOUT", "STDERR", "EXIT")}
    for k in ("STDOUT", "EXIT"):
        with open(os.path.join(root, k), "rb") as f:
            out[k] = f.read()
    return out


def f4de_bin(f4de_dir: str, d: str) -> str:
    """A directory with F4DE's KWSEval.pl as `KWSEval` (the name the script calls)."""
    os.makedirs(d, exist_ok=True)
    link = os.path.join(d, "KWSEval")
    if not os.path.lexists(link):
        os.symlink(os.path.join(f4de_dir, "KWSEval", "tools", "KWSEval", "KWSEval.pl"), link)
    return d


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=10)
    ap.add_argument("--first", type=int, default=500)
    ap.add_argument("--f4de-dir", default=os.environ.get("F4DE_DIR", ""))
    ap.add_argument("--kaldi-root", default=os.environ.get("KALDI_ROOT", ""))
    ap.add_argument("--record", default="", help="store the cases and the F4DE run's outputs here")
    ap.add_argument("--keep", default="")
    a = ap.parse_args(argv)
    s5d = os.path.join(a.kaldi_root, "egs", "babel", "s5d")
    if not a.f4de_dir or not os.path.isfile(os.path.join(s5d, "local", "kws_score_f4de.sh")):
        print("kaldi_e2e: F4DE_DIR and KALDI_ROOT are needed", file=sys.stderr)
        return 2
    base = a.keep or tempfile.mkdtemp(prefix="kaldi-e2e.")
    fbin = f4de_bin(a.f4de_dir, os.path.join(base, "f4de-bin"))
    tot = {"cases": 0, "equal": 0, "files": 0, "files_equal": 0, "units": 0, "units_equal": 0, "metrics": 0,
           "crashes": 0, "t_f4de": 0.0, "t_termeval": 0.0}
    for seed in range(a.first, a.first + a.cases):
        case = make_case(seed)
        d = os.path.join(base, f"case{seed}")
        shutil.rmtree(d, ignore_errors=True)
        runs = {}
        for name, first in (("f4de", fbin), ("termeval", os.path.join(ROOT, "utils"))):
            layout(os.path.join(d, name), case, s5d)
            dt, _ = run_script(os.path.join(d, name), first, s5d)
            tot["t_" + name] += dt
            runs[name] = outputs(os.path.join(d, name))
        crash = harness.f4de_crash(os.path.join(d, "f4de"))
        if crash:       # the file it was writing, named as in the results directory
            crash = (crash[0], os.path.relpath(crash[1], RESULTS) if crash[1] else "")
        r = harness.compare_runs(runs["f4de"], runs["termeval"], crash)
        tot["cases"] += 1
        tot["crashes"] += bool(crash)
        tot["equal"] += not r["diffs"]
        tot["metrics"] += "metrics.txt" in runs["f4de"]
        for k in ("files", "files_equal", "units", "units_equal"):
            tot[k] += r[k]
        if r["diffs"]:
            print(f"== case {seed}")
            for x in r["diffs"][:8]:
                print("  " + x)
        if a.record:
            dest = os.path.join(a.record, f"case{seed}")
            harness.record_run(os.path.join(dest, "kaldi_e2e"), runs["f4de"])
            if crash:
                with open(os.path.join(dest, "kaldi_e2e", "CRASH"), "w") as f:
                    json.dump(list(crash), f)
            os.makedirs(os.path.join(dest, "in"), exist_ok=True)
            for name, text in case.items():
                with open(os.path.join(dest, "in", name), "w", encoding="utf-8") as f:
                    f.write(text)
    if not a.keep:
        shutil.rmtree(base, ignore_errors=True)
    print(f"kaldi_e2e: cases {tot['cases']} ({tot['equal']} with every file equal, metrics.txt written by "
          f"F4DE's run in {tot['metrics']}, F4DE crashed in {tot['crashes']})  files {tot['files_equal']}/{tot['files']}"
          f"  cells/lines {tot['units_equal']}/{tot['units']}  F4DE run {tot['t_f4de']:.1f} s  termeval run "
          f"{tot['t_termeval']:.1f} s")
    return 0 if tot["equal"] == tot["cases"] else 1



if __name__ == "__main__":
    sys.exit(main())
