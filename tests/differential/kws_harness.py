"""Differential harness: termeval's utils/KWSEval against F4DE 3.5.0's KWSEval.pl.

Each generated case (gen_kws.make_case(seed)) is scored by both tools with the same argv in twin
directories; every file each writes (and its stdout) is compared: text files byte for byte,
CSVs cell for cell, DET data (.dat.1/.dat.2) number for number (as printed), PNGs by name and
presence. F4DE's
gnuplot machinery (.plt command files, .isometriclines, the serialized DET .srl.gz) is not
compared: termeval draws its PNGs with matplotlib and writes none of them.

  python3 tests/differential/kws_harness.py --cases 300 [--first 0] [--record DIR] [--f4de-dir D]
prints one line per difference and the totals (cases, runs, files and cells equal, each
tool's run time). `--record DIR` stores the cases' inputs and F4DE's outputs (what
tests/differential/test_f4de_fixtures.py compares termeval with on every run, F4DE or not).
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import csv
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_kws  # noqa: E402

KALDI = ["-a", "--zGlobalMeasures", "MAP", "--zGlobalMeasures", "MAPpct", "--zGlobalMeasures", "Optimum",
         "--zGlobalMeasures", "Supremum", "-O", "-B", "-q", "Characters:regex=.*", "-q", "NGramOrder:regex=.*",
         "-c", "-o", "-b", "-d", "-f", "out/"]
TESTER = ["-o", "-b", "-c", "-d", "-y", "TXT", "-y", "CSV", "-y", "HTML", "-Y", "BN+CTS:bnews,cts", "-O", "-B",
          "-f", "out/r"]
# files of F4DE's gnuplot drawing, not written by termeval
SKIP = re.compile(r"(\.plt|\.isometriclines|\.srl\.gz|\.srl)$")


Y_GROUPS = ("BN+CTS:bnews,cts", "cts:cts,splitcts", "confmtg", "All:bnews,cts,splitcts,confmtg")


def _group_types(group: str) -> set[str]:
    name, _, types = group.partition(":")
    return set((types or name).split(","))


def random_argv(rng: random.Random, sources: set[str] | None = None, wide_terms: bool = False) -> list[str]:
    """A random combination of the options termeval accepts. Given the case's source types and
    whether it has terms beyond Latin-1, most runs are ones F4DE completes: a `-Y` group mostly
    of source types the ECF has (else F4DE has no group, or with -g dies on it), `-y CSV` mostly
    not with terms beyond Latin-1 (F4DE dies writing them), `-N` seldom a list (which matches
    nothing: F4DE's `TotDur must > 0`) and seldom with -g (F4DE dies filtering an occurrence)."""
    a = []
    for flag in ("-o", "-b", "-c", "-d"):
        if rng.random() < 0.75:
            a.append(flag)
    cond = rng.choice(("q", "Y", "none", "q2"))
    if cond == "q":
        a += ["-q", rng.choice(("Characters:regex=^0[0-9][35]$", "NGramOrder", "NGramOrder:regex=00[12]",
                                "Characters:regex=.*"))]
    elif cond == "q2":
        a += ["-q", "NGramOrder:regex=.*", "-q", "Characters:regex=^00[1-4]$"]
    elif cond == "Y":
        present = [g for g in Y_GROUPS if sources is None or _group_types(g) & sources]
        a += ["-Y", rng.choice(present if present and rng.random() < 0.85 else Y_GROUPS)]
    if cond != "none":
        a += [x for x in ("-O", "-B") if rng.random() < 0.8]
    for t in ("TXT", "CSV", "HTML"):
        if rng.random() < 0.4 and not (t == "CSV" and wide_terms and rng.random() < 0.8):
            a += ["-y", t]
    for g in ("MAP", "MAPpct", "Optimum", "Supremum"):
        if rng.random() < 0.35:
            a += ["-zG", g]
    n_list = rng.random() < 0.1
    extras = [["-g"], ["-inc"], ["-j"], ["-a"], ["--ExcludePNGFileFromTxtTable"], ["-I", "sysA"],
              ["-k", rng.choice(("0.1", "0.2", "1", "0.05"))], ["-K", rng.choice(("1", "2", "0.5"))],
              ["-p", rng.choice(("0.0001", "0.001", "1e-05"))], ["-n", rng.choice(("1", "2", "0.5"))],
              ["-S", rng.choice(("0.5", "0.3", "1"))], ["-F", rng.choice(("0.5", "0.2", "1"))],
              ["-x", "charsplit"], ["-x", "charsplit", "-x", "notASCII"],
              ["-x", "charsplit", "-x", "deleteHyphens"],
              ["-N", "F01/1,F02/1" if n_list else rng.choice(("F0.*/1", "F00.*/.*", "F0[0-2].*/.*"))]]
    for e in extras:
        if rng.random() < 0.18 and not (e[0] == "-N" and "-g" in a and rng.random() < 0.75):
            a += e
    if not any(x in a for x in ("-o", "-b", "-c", "-O", "-B", "-d")):
        a.append("-o")
    a += ["-f", rng.choice(("out/", "out/p", "out/sub/x"))]
    return a


def argvs_of(seed: int) -> dict[str, list[str]]:
    """The option sets a case is run with: Kaldi's, the tester's, two random ones (drawn for
    the case: random_argv)."""
    case = gen_kws.make_case(seed)
    sources = set(re.findall(r'source_type="([^"]*)"', case["ecf.xml"]))
    wide = any(ord(c) > 255 for c in case["kwlist.xml"])
    rng = random.Random(1000003 * seed + 7)
    return {"kaldi": KALDI, "tester": TESTER, "r1": random_argv(rng, sources, wide),
            "r2": random_argv(rng, sources, wide)}


def write_case(seed: int, d: str) -> dict[str, str]:
    os.makedirs(d, exist_ok=True)
    case = gen_kws.make_case(seed)
    for name, text in case.items():
        with open(os.path.join(d, name), "w", encoding="utf-8") as f:
            f.write(text)
    return case


def full_argv(case_dir: str, argv: list[str]) -> list[str]:
    return ["-e", f"{case_dir}/ecf.xml", "-r", f"{case_dir}/rttm", "-t", f"{case_dir}/kwlist.xml",
            "-s", f"{case_dir}/kwslist.xml"] + argv


def _out_dirs(work: str) -> None:
    """The file roots' directories (out/, out/sub/): KWSEval.pl creates none of them."""
    os.makedirs(os.path.join(work, "out", "sub"), exist_ok=True)


# KWSEval.pl insists on PERL_HASH_SEED=0: run it in a perl started with another seed, its %ENV
# showing 0 to that check (hash_variation.py: which outputs follow Perl's hash order)
SEED_WRAPPER = "BEGIN { $ENV{PERL_HASH_SEED} = 0; $0 = shift @ARGV; } do $0; die $@ if $@;"


def run_f4de(f4de_dir: str, case_dir: str, argv: list[str], work: str, seed: str = "") -> float:
    """F4DE's KWSEval.pl in `work` (stdout+stderr kept in work/STDOUT, exit code in work/EXIT);
    `seed`: a PERL_HASH_SEED other than KWSEval's own 0."""
    _out_dirs(work)
    exe = os.path.join(f4de_dir, "KWSEval", "tools", "KWSEval", "KWSEval.pl")
    cmd = [exe] + full_argv(case_dir, argv)
    env = None
    if seed:
        cmd = ["perl", "-e", SEED_WRAPPER] + cmd
        env = dict(os.environ, PERL_HASH_SEED=seed, PERL_PERTURB_KEYS="0")
    t = time.perf_counter()
    p = subprocess.run(cmd, cwd=work, capture_output=True, env=env)
    dt = time.perf_counter() - t
    _save_run(work, p.stdout, p.returncode)
    with open(os.path.join(work, "STDERR"), "wb") as f:
        f.write(p.stderr)
    return dt


def kwseval_in(work: str, argv: list[str]) -> tuple[str, int]:
    """termeval's KWSEval (termeval.bin.kwseval.main) in this process with `work` as its
    current directory: (its stdout, its exit code); a crash is exit 99 with its line on stdout
    (a difference to report)."""
    from termeval.bin import kwseval
    buf = io.StringIO()
    cwd = os.getcwd()
    os.chdir(work)
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
            try:
                rc = kwseval.main(argv)
            except SystemExit as e:
                rc = e.code if isinstance(e.code, int) else 1
            except Exception as e:          # noqa: BLE001 - a crash is a difference to report
                print(f"[termeval crashed: {type(e).__name__}: {e}]")
                rc = 99
    finally:
        os.chdir(cwd)
    return buf.getvalue(), rc


def run_termeval(case_dir: str, argv: list[str], work: str) -> float:
    """termeval's KWSEval on a generated case in `work` (its stdout and exit code saved there);
    returns the time it took."""
    _out_dirs(work)
    t = time.perf_counter()
    out, rc = kwseval_in(work, full_argv(case_dir, argv))
    dt = time.perf_counter() - t
    _save_run(work, out.encode(), rc)
    return dt


def _save_run(work: str, out: bytes, rc: int) -> None:
    with open(os.path.join(work, "STDOUT"), "wb") as f:
        f.write(out)
    with open(os.path.join(work, "EXIT"), "w") as f:
        f.write(f"{rc}\n")


def files_of(work: str) -> dict[str, bytes]:
    """{relative path: content} of what a run wrote (its stdout and exit code included)."""
    out = {}
    for dp, _, fs in os.walk(work):
        for fn in fs:
            p = os.path.join(dp, fn)
            rel = os.path.relpath(p, work)
            if rel == "STDERR" or SKIP.search(rel):
                continue
            with open(p, "rb") as f:
                out[rel] = f.read()
    return out


def _csv_rows(b: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(b.decode("utf-8", "surrogateescape"))))


def _term_rows(rows: list[list[str]]) -> list[list[str]]:
    """alignment.csv's rows with each term's lines sorted: F4DE writes a term's lines in Perl
    hash orders of memory addresses, which change from one run to the next (hash_variation.py);
    the terms' order, the header and every line are compared as written."""
    out = rows[:1]
    k = 1
    while k < len(rows):
        j = k
        while j < len(rows) and len(rows[j]) > 3 and len(rows[k]) > 3 and rows[j][3] == rows[k][3]:
            j += 1
        j = max(j, k + 1)
        out += sorted(rows[k:j])
        k = j
    return out


def _blocks(rows: list[list[str]]) -> list[list[list[str]]]:
    """alignment.csv's rows (header aside) cut into runs of one term."""
    out: list[list[list[str]]] = []
    for r in rows[1:]:
        if out and len(r) > 3 and len(out[-1][0]) > 3 and out[-1][0][3] == r[3]:
            out[-1].append(r)
        else:
            out.append([r])
    return out


def _time_cgr(row: list[str], ref: tuple) -> float:
    """KWSAlignment::_bipartiteKernel's time congruence of a detection (row) and a reference."""
    sb, se, rb, re_ = float(row[7]), float(row[8]), float(ref[2]), float(ref[3])
    return (min(se, re_) - max(sb, rb)) / max(re_ - rb, 0.00001)


def _tie_swapped(fb: list[list[str]], tb: list[list[str]]) -> bool:
    """Whether two runs of one term differ only in how some detections and references are
    paired, both pairings tying in F4DE's kernel (1 + time congruence + score congruence, summed
    over the pairs): the same references (paired or missed) and detections, as many pairs with
    the same scores and decisions on each file/channel (so the same score congruences and the
    same counts), the same total time congruence (to 1e-9: F4DE's own sums of these doubles
    differ by an ulp). Either one detection paired with another reference, or a reference with
    another detection of the same score and decision. F4DE picks among tying matchings in an
    order of memory addresses, differently from run to run (hash_variation.py;
    docs/std-kaldi-compat.md)."""
    if len(fb) != len(tb) or any(len(r) != 12 for r in fb + tb):
        return False
    refs = lambda b: sorted((r[1], r[2], r[5], r[6]) for r in b if r[5])           # noqa: E731
    dets = lambda b: sorted((r[1], r[2], *r[7:11]) for r in b if r[10])          # noqa: E731
    labels = lambda b: sorted((r[1], r[2], r[9], r[10], r[11]) for r in b)         # noqa: E731
    if refs(fb) != refs(tb) or dets(fb) != dets(tb) or labels(fb) != labels(tb):
        return False
    pairs = lambda b: collections.Counter((tuple(r[1:3]) + tuple(r[7:]), tuple(r[1:3]) + tuple(r[5:7]))  # noqa: E731
                                          for r in b if r[5] and r[10])
    pf, pt = pairs(fb), pairs(tb)
    only_f, only_t = list((pf - pt).elements()), list((pt - pf).elements())
    paired = lambda ps: sorted((d[0], d[1], d[4], d[5]) for d, _ in ps)         # noqa: E731
    if paired(only_f) != paired(only_t):
        return False
    cgr = lambda ps: sum(_time_cgr(["", "", "", "", "", "", "", *d[2:]], r) for d, r in ps)   # noqa: E731
    return abs(cgr(only_f) - cgr(only_t)) <= 1e-9


def _alignment_rows(a: list[list[str]], b: list[list[str]]) -> tuple[list, list]:
    """alignment.csv compared as F4DE's run-to-run variations allow (_term_rows, _tie_swapped):
    the rows of `b` (termeval) made F4DE's where they differ only so."""
    fa, fb = _blocks(a), _blocks(b)
    out_b = b[:1]
    for k, blk in enumerate(fb):
        if k < len(fa) and sorted(fa[k]) != sorted(blk) and _tie_swapped(fa[k], blk):
            blk = fa[k]
        out_b += blk
    return _term_rows(a), _term_rows(out_b)


def compare_file(name: str, ref: bytes, got: bytes) -> tuple[int, int, list[str]]:
    """(units equal, units compared, differences) of one file: CSV cells, DET numbers, text
    lines; PNGs by presence only."""
    if name.endswith(".png"):
        return 1, 1, []
    if name.endswith(".csv"):
        a, b = _csv_rows(ref), _csv_rows(got)
        if name.endswith("alignment.csv"):
            a, b = _alignment_rows(a, b)
        units = [(i, j) for i in range(max(len(a), len(b))) for j in range(max(len(a[i]) if i < len(a) else 0,
                                                                            len(b[i]) if i < len(b) else 0))]
        cell = lambda rows, i, j: rows[i][j] if i < len(rows) and j < len(rows[i]) else None   # noqa: E731
        bad = [f"row {i + 1} col {j + 1}: F4DE {cell(a, i, j)!r} termeval {cell(b, i, j)!r}"
               for i, j in units if cell(a, i, j) != cell(b, i, j)]
        return len(units) - len(bad), len(units), bad
    if ".dat." in name:
        a, b = ref.decode().split("\n"), got.decode().split("\n")
        units = bad_n = 0
        bad = []
        for i in range(max(len(a), len(b))):
            x = a[i].split(" ") if i < len(a) else []
            y = b[i].split(" ") if i < len(b) else []
            for j in range(max(len(x), len(y))):
                units += 1
                u = x[j] if j < len(x) else None
                v = y[j] if j < len(y) else None
                if u != v:
                    bad_n += 1
                    bad.append(f"line {i + 1} field {j + 1}: F4DE {u!r} termeval {v!r}")
        return units - bad_n, units, bad
    a, b = ref.decode("utf-8", "surrogateescape").split("\n"), got.decode("utf-8", "surrogateescape").split("\n")
    bad = [f"line {i + 1}: F4DE {a[i] if i < len(a) else None!r}\n{' ' * (len(str(i + 1)) + 7)}termeval "
           f"{b[i] if i < len(b) else None!r}" for i in range(max(len(a), len(b)))
           if (a[i] if i < len(a) else None) != (b[i] if i < len(b) else None)]
    n = max(len(a), len(b))
    return n - len(bad), n, bad


def normalise(files: dict[str, bytes], case_dir: str) -> dict[str, bytes]:
    """The case directory's path in stdout becomes <CASE> (recorded runs move)."""
    out = dict(files)
    for k in ("STDOUT",):
        if k in out:
            out[k] = out[k].replace(case_dir.encode(), b"<CASE>")
    return out


CRASHES = (("Illegal division by zero", "F4DE divides by zero (a condition or set without targets)"),
           ("Wide character in print", "F4DE writes a non-ASCII term text to a CSV without an encoding"),
           ("Not a HASH reference", "F4DE's segment alignment filters an occurrence as a segment (-g -N)"))


def f4de_crash(work: str) -> tuple[str, str] | None:
    """(why, the file it was writing) when F4DE's run died in Perl (not a KWSEval [ERROR])."""
    try:
        with open(os.path.join(work, "STDERR"), encoding="utf-8", errors="replace") as f:
            err = f.read()
    except FileNotFoundError:
        return None
    for needle, why in CRASHES:
        if needle in err:
            m = re.search(r'MMisc::writeTo\("([^"]+)"', err)
            if m:
                return why, m.group(1)
            m = re.search(r'align(?:Terms|Segments)\([^,]+, "([^"]+)"', err)   # writing alignment.csv
            return why, m.group(1) if m else ""
    return None


def compare_runs(ref: dict[str, bytes], got: dict[str, bytes], crash: tuple[str, str] | None = None) -> dict:
    """Totals and differences of one run's files. When F4DE crashed, its exit code, stdout and
    the file it was writing are not compared and termeval's further files are expected."""
    res = {"files": 0, "files_equal": 0, "units": 0, "units_equal": 0, "diffs": [], "crash": crash}
    if crash:
        ref = {k: v for k, v in ref.items() if k not in ("EXIT", "STDOUT", crash[1])}
        got = {k: v for k, v in got.items() if k in ref}
    for name in sorted(set(ref) | set(got)):
        res["files"] += 1
        if name not in got:
            res["diffs"].append(f"{name}: written by F4DE only")
            continue
        if name not in ref:
            res["diffs"].append(f"{name}: written by termeval only")
            continue
        eq, n, bad = compare_file(name, ref[name], got[name])
        res["units"] += n
        res["units_equal"] += eq
        if bad or (not name.endswith(".png") and ref[name] != got[name] and not name.endswith(".csv")
                   and ".dat." not in name):
            res["diffs"].append(f"{name}: " + ("\n    ".join(bad[:6]) or "differs (bytes)")
                                + (f"\n    ... {len(bad) - 6} more" if len(bad) > 6 else ""))
        else:
            res["files_equal"] += 1
    return res


def record_run(dest: str, files: dict[str, bytes]) -> None:
    """F4DE's files of one run under `dest` (PNGs as empty markers: presence is what counts)."""
    for name, data in files.items():
        p = os.path.join(dest, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(b"" if name.endswith(".png") else data)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=20)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--sets", default="kaldi,tester,r1,r2", help="option sets to run (comma list)")
    ap.add_argument("--f4de-dir", default=os.environ.get("F4DE_DIR", ""))
    ap.add_argument("--record", default="", help="store the cases and F4DE's outputs in this directory")
    ap.add_argument("--keep", default="", help="keep the twin directories here")
    ap.add_argument("--reuse", action="store_true",
                    help="with --keep: F4DE's outputs already in the twin directories are not recomputed")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args(argv)
    if not a.f4de_dir or not os.path.isfile(os.path.join(a.f4de_dir, "KWSEval/tools/KWSEval/KWSEval.pl")):
        print("harness: F4DE_DIR (a built F4DE 3.5.0) is needed", file=sys.stderr)
        return 2
    tot = {"cases": 0, "runs": 0, "runs_equal": 0, "files": 0, "files_equal": 0, "units": 0, "units_equal": 0,
           "crashes": 0, "t_f4de": 0.0, "t_termeval": 0.0}
    base = a.keep or tempfile.mkdtemp(prefix="kwseval-diff.")
    for seed in range(a.first, a.first + a.cases):
        case_dir = os.path.join(base, f"case{seed}")
        write_case(seed, os.path.join(case_dir, "in"))
        tot["cases"] += 1
        for name, argv_ in argvs_of(seed).items():
            if name not in a.sets.split(","):
                continue
            wf, wt = (os.path.join(case_dir, f"{name}.{t}") for t in ("f4de", "termeval"))
            reuse = a.reuse and os.path.isfile(os.path.join(wf, "EXIT"))
            for w in (wt,) if reuse else (wf, wt):
                shutil.rmtree(w, ignore_errors=True)
            if not reuse:
                tot["t_f4de"] += run_f4de(a.f4de_dir, os.path.join(case_dir, "in"), argv_, wf)
            tot["t_termeval"] += run_termeval(os.path.join(case_dir, "in"), argv_, wt)
            ref = normalise(files_of(wf), os.path.join(case_dir, "in"))
            got = normalise(files_of(wt), os.path.join(case_dir, "in"))
            r = compare_runs(ref, got, f4de_crash(wf))
            tot["runs"] += 1
            tot["crashes"] += bool(r["crash"])
            tot["runs_equal"] += not r["diffs"]
            for k in ("files", "files_equal", "units", "units_equal"):
                tot[k] += r[k]
            if r["diffs"]:
                print(f"== case {seed} {name}: {' '.join(argv_)}")
                for d in r["diffs"][: None if a.verbose else 8]:
                    print("  " + d)
            if a.record:
                dest = os.path.join(a.record, f"case{seed}")
                record_run(os.path.join(dest, name), ref)
                if r["crash"]:
                    with open(os.path.join(dest, name, "CRASH"), "w") as f:
                        json.dump(list(r["crash"]), f)
                if not os.path.isdir(os.path.join(dest, "in")):
                    shutil.copytree(os.path.join(case_dir, "in"), os.path.join(dest, "in"))
                with open(os.path.join(dest, "argv.json"), "w") as f:
                    json.dump(argvs_of(seed), f)
    if not a.keep:
        shutil.rmtree(base, ignore_errors=True)
    print(f"cases {tot['cases']}  runs {tot['runs_equal']}/{tot['runs']} equal  files {tot['files_equal']}/"
          f"{tot['files']} equal  cells/lines/points {tot['units_equal']}/{tot['units']} equal  "
          f"(F4DE crashed in {tot['crashes']} runs: their other files compared)  F4DE {tot['t_f4de']:.1f} s  termeval {tot['t_termeval']:.1f} s")
    return 0 if tot["runs_equal"] == tot["runs"] else 1


if __name__ == "__main__":
    sys.exit(main())
