"""Re-record tests/differential/f4de_kwseval.tar.xz (what test_f4de_fixtures.py replays): F4DE 3.5.0's
outputs on a representative set of generated cases (chosen to cover every option of the random
option sets at least twice), on F4DE's own tester cases, and of Kaldi's kws_score_f4de.sh end to
end. Needs $F4DE_DIR (a built F4DE 3.5.0) and $KALDI_ROOT (a Kaldi checkout).

  python3 tests/differential/record_fixtures.py [--pool-first 1000] [--pool 300] [--cases 17] [--also 1005,1011,...]
                                               [--kaldi-first 2011] [--kaldi 6]
"""
from __future__ import annotations

import argparse
import collections
import os
import shutil
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_kws  # noqa: E402
import kws_harness as harness  # noqa: E402
import kaldi_e2e  # noqa: E402
import tester_cases  # noqa: E402

ARCHIVE = os.path.join(HERE, "f4de_kwseval.tar.xz")


def features(seed: int) -> set[str]:
    """What a case exercises: the options of its random sets, Latin-1 and wider terms."""
    out = set()
    for name in ("r1", "r2"):
        argv = harness.argvs_of(seed)[name]
        for i, x in enumerate(argv):
            if x.startswith("-") and x != "-f":
                val = argv[i + 1] if x in ("-y", "-zG", "-x", "-Y") and i + 1 < len(argv) else ""
                out.add(f"{x} {val}".strip())
    kwlist = gen_kws.make_case(seed)["kwlist.xml"]
    if any(127 < ord(c) < 256 for c in kwlist):
        out.add("Latin-1 terms")
    if any(ord(c) > 255 for c in kwlist):
        out.add("wide terms")
    return out


def choose(first: int, pool: int, n: int) -> list[int]:
    """Greedily the seeds (of first .. first + pool - 1) covering the most features not yet seen twice."""
    feats = {s: features(s) for s in range(first, first + pool)}
    seen: collections.Counter = collections.Counter()
    out: list[int] = []
    while len(out) < n:
        best = max((s for s in feats if s not in out), key=lambda s: (sum(seen[f] < 2 for f in feats[s]), -s))
        out.append(best)
        seen.update(feats[best])
    return sorted(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pool-first", type=int, default=1000, help="first seed of the pool to choose from")
    ap.add_argument("--pool", type=int, default=300)
    ap.add_argument("--cases", type=int, default=17, help="generated cases chosen for their options")
    ap.add_argument("--also", default="1005,1011,1014,1020,1056,1099,1146",
                    help="generated cases recorded too: each shows a documented difference or death")
    ap.add_argument("--kaldi-first", type=int, default=2011,
                    help="first seed of the Kaldi end-to-end cases (2016: F4DE dies, no metrics.txt)")
    ap.add_argument("--kaldi", type=int, default=6)
    a = ap.parse_args(argv)
    f4de, kaldi = os.environ.get("F4DE_DIR", ""), os.environ.get("KALDI_ROOT", "")
    if not f4de or not kaldi:
        print("record_fixtures: F4DE_DIR and KALDI_ROOT are needed", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="kwseval-record.")
    rec = os.path.join(tmp, "f4de_kwseval")
    try:
        also = [int(x) for x in a.also.split(",") if x]
        seeds = sorted(set(choose(a.pool_first, a.pool, a.cases)) | set(also))
        print("generated cases:", " ".join(map(str, seeds)))
        for s in seeds:
            rc = harness.main(["--cases", "1", "--first", str(s), "--record", rec, "--f4de-dir", f4de])
            if rc:
                print(f"case {s}: termeval differs from F4DE (recorded anyway)")
        tester_cases.main(["--record", rec, "--f4de-dir", f4de])
        kaldi_e2e.main(["--cases", str(a.kaldi), "--first", str(a.kaldi_first), "--record", rec, "--f4de-dir", f4de,
                        "--kaldi-root", kaldi])
        with tarfile.open(ARCHIVE + ".tmp", "w:xz", preset=9) as t:
            t.add(rec, arcname="f4de_kwseval", filter=_strip)
        os.replace(ARCHIVE + ".tmp", ARCHIVE)
        print(f"{ARCHIVE}: {os.path.getsize(ARCHIVE)} bytes")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def _strip(ti: tarfile.TarInfo) -> tarfile.TarInfo:
    """Reproducible members: no owner, no time."""
    ti.uid = ti.gid = 0
    ti.uname = ti.gname = ""
    ti.mtime = 0
    return ti


if __name__ == "__main__":
    sys.exit(main())
