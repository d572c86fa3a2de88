"""Which of F4DE KWSEval's outputs follow Perl's hash order: each generated case is scored by
F4DE twice as KWSEval.pl runs itself (PERL_HASH_SEED=0) and once under each other seed given
(KWSEval.pl refuses another seed: kws_harness.SEED_WRAPPER starts perl with it and shows 0 to that
check), and every file is compared with the first run's: identical, the same lines in another
order, or different.

  python3 tests/differential/hash_variation.py --cases 20 [--seeds deadbeef,12345678]

prints, per kind of file, how many runs differ in each way. KWSEval.pl's own order may only be
permuted by termeval where it changes between two runs with the same seed (memory addresses);
what changes only with the seed is Perl's hash order under seed 0, which termeval reproduces
(termeval/std/perlhash.py).
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kws_harness as harness  # noqa: E402


def kind(name: str) -> str:
    """A file's kind: its name without the file root (`out/p.bsum.txt` -> `bsum.txt`)."""
    base = os.path.basename(name)
    m = re.search(r"(alignment\.csv|(cond\.)?b?sum\.(txt|csv|html)|dat\.[12])$", base)
    return m.group(1) if m else base


def how(a: bytes | None, b: bytes | None) -> str:
    if a == b:
        return "same"
    if a is None or b is None:
        return "present in one run only"
    if sorted(a.split(b"\n")) == sorted(b.split(b"\n")):
        return "same lines, another order"
    return "different"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=10)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seeds", default="deadbeef,12345678")
    ap.add_argument("--sets", default="kaldi,tester,r1,r2")
    ap.add_argument("--f4de-dir", default=os.environ.get("F4DE_DIR", ""))
    a = ap.parse_args(argv)
    if not a.f4de_dir:
        print("hash_variation: F4DE_DIR (a built F4DE 3.5.0) is needed", file=sys.stderr)
        return 2
    runs = [("seed 0, again", "")] + [(f"seed {s}", s) for s in a.seeds.split(",") if s]
    table: dict = collections.defaultdict(collections.Counter)
    base = tempfile.mkdtemp(prefix="kwseval-hash.")
    try:
        for seed in range(a.first, a.first + a.cases):
            case = os.path.join(base, f"case{seed}")
            harness.write_case(seed, os.path.join(case, "in"))
            for name, argv_ in harness.argvs_of(seed).items():
                if name not in a.sets.split(","):
                    continue
                ref_dir = os.path.join(case, f"{name}.0")
                harness.run_f4de(a.f4de_dir, os.path.join(case, "in"), argv_, ref_dir)
                ref = harness.files_of(ref_dir)
                for label, s in runs:
                    d = os.path.join(case, f"{name}.{s or 'again'}")
                    harness.run_f4de(a.f4de_dir, os.path.join(case, "in"), argv_, d, seed=s)
                    got = harness.files_of(d)
                    for f in sorted(set(ref) | set(got)):
                        if f.endswith(".png") or f == "STDERR":
                            continue
                        table[(kind(f), label)][how(ref.get(f), got.get(f))] += 1
    finally:
        shutil.rmtree(base, ignore_errors=True)
    cols = ["same", "same lines, another order", "different", "present in one run only"]
    print(f"{'file':<16} {'run':<16} " + " ".join(f"{c:>26}" for c in cols))
    for (k, label), c in sorted(table.items()):
        print(f"{k:<16} {label:<16} " + " ".join(f"{c[x]:>26}" for x in cols))
    return 0


if __name__ == "__main__":
    sys.exit(main())
