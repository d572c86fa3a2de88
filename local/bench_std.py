#!/usr/bin/env python3
"""Benchmark python -m termeval.bin.score_std on synthetic STD tasks; prints wall time and peak RSS.

Usage: local/bench_std.py [--cases 100x100k,400x100k,1000x1M] [--keep-dir DIR] [--format kwslist]
                          [--preset nist2006] [--tree DIR,DIR] [--repeat 1]

Cases: <queries>x<detections>. 100x100k and 400x100k use 200 files of 30 s (6000 s, the F4DE
measurement set-up of docs/std.md §8: F4DE took 52.7 s and 470 s); 1000x1M uses 3600 files of
100 s (100 h); 500x200k and 500x1M use 120 files of 600 s (20 h: the STD case of
local/bench_steps.sh, with --preset sws2013 the figures of issue 32; 500x200k+words adds a
word-level reference of the 20 h, 180 k more LEXEME lines). CPU-s and peak RSS are
the scoring process's own; --tree A,B scores every case with each checkout (one row each, same
data): a before/after table on the same machine in one run. Each query has 10 reference occurrences; about 60% of them get a detection near
them, the rest of the detections are random; scores are uniform in [0, 1], YES iff >= 0.5.
The data generation time is not included in the figures.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

from termeval.run.cli import make_parser, run


def generate(d: str, n_q: int, n_det: int, n_files: int, file_dur: float, fmt: str, seed: int = 0,
             words_per_sec: float = 0.0) -> tuple[str, str]:
    """words_per_sec > 0: the RTTM also holds that many other words per second of audio (a
    word-level reference of the whole speech, as a real one; they match no term)."""
    rng = np.random.default_rng(seed)
    kws = os.path.join(d, "kws")
    os.makedirs(kws, exist_ok=True)
    with open(os.path.join(kws, "ecf.xml"), "w") as f:
        f.write(f'<ecf source_signal_duration="{n_files * file_dur:.3f}" version="bench">\n')
        f.writelines(f'<excerpt audio_filename="f{i:05d}.wav" channel="1" tbeg="0.000" dur="{file_dur:.3f}" '
                     'language="multiple" source_type="synthetic"/>\n' for i in range(n_files))
        f.write("</ecf>\n")
    with open(os.path.join(kws, "tlist.xml"), "w") as f:
        f.write('<termlist ecf_filename="ecf.xml" language="multiple" version="bench">\n')
        f.writelines(f'<term termid="q{q:05d}"><termtext>q{q:05d}</termtext></term>\n' for q in range(n_q))
        f.write("</termlist>\n")
    n_ref = 10 * n_q
    rq = np.repeat(np.arange(n_q), 10)
    rf = rng.integers(0, n_files, n_ref)
    rd = rng.uniform(0.4, 1.0, n_ref)
    rb = rng.uniform(0, file_dur - 1.0, n_ref)
    with open(os.path.join(kws, "rttm"), "w") as f:
        f.writelines(f"LEXEME f{a:05d} 1 {b:.3f} {c:.3f} q{q:05d} lex spk <NA>\n"
                     for q, a, b, c in zip(rq.tolist(), rf.tolist(), rb.tolist(), rd.tolist()))
        n_words = int(words_per_sec * n_files * file_dur)
        if n_words:
            wf = np.sort(rng.integers(0, n_files, n_words))
            wb = rng.uniform(0, file_dur - 1.0, n_words)
            wd = rng.uniform(0.15, 0.6, n_words)
            ww = rng.zipf(1.5, n_words) % 20000
            f.writelines(f"LEXEME f{a:05d} 1 {b:.3f} {c:.3f} w{w:05d} lex spk <NA>\n"
                         for a, b, c, w in zip(wf.tolist(), wb.tolist(), wd.tolist(), ww.tolist()))
    # detections: 60% of refs get one near them, the rest random
    near = rng.random(n_ref) < 0.6
    k = int(near.sum())
    dq = np.r_[rq[near], rng.integers(0, n_q, n_det - k)]
    df = np.r_[rf[near], rng.integers(0, n_files, n_det - k)]
    db = np.r_[np.clip(rb[near] + rng.normal(0, 0.2, k), 0, file_dur - 1.0), rng.uniform(0, file_dur - 1.0, n_det - k)]
    dd = rng.uniform(0.3, 0.9, n_det)
    ds = np.r_[rng.uniform(0.3, 1.0, k), rng.uniform(0, 1.0, n_det - k)]
    o = np.argsort(dq, kind="stable")
    dq, df, db, dd, ds = dq[o], df[o], db[o], dd[o], ds[o]
    dets = os.path.join(d, "detections." + ("txt" if fmt == "kaldi" else "xml"))
    starts = np.searchsorted(dq, np.arange(n_q + 1))
    with open(dets, "w") as f:
        if fmt == "kaldi":
            f.writelines(f"q{q:05d} f{a:05d} {int(b * 100)} {int((b + c) * 100)} {s:.6f}\n"
                         for q, a, b, c, s in zip(dq.tolist(), df.tolist(), db.tolist(), dd.tolist(), ds.tolist()))
        else:
            f.write('<kwslist kwlist_filename="tlist.xml" language="multiple" system_id="bench">\n')
            for q in range(n_q):
                s0, s1 = starts[q], starts[q + 1]
                f.write(f'<detected_kwlist kwid="q{q:05d}" search_time="1" oov_count="0">\n')
                f.writelines(f'<kw file="f{a:05d}" channel="1" tbeg="{b:.3f}" dur="{c:.3f}" score="{s:.6f}" '
                             f'decision="{"YES" if s >= 0.5 else "NO"}"/>\n'
                             for a, b, c, s in zip(df[s0:s1].tolist(), db[s0:s1].tolist(), dd[s0:s1].tolist(),
                                                   ds[s0:s1].tolist()))
                f.write("</detected_kwlist>\n")
            f.write("</kwslist>\n")
    return kws, dets


# name: (queries, detections, files, seconds per file, generator seed, other words per second)
CASES = {"100x100k": (100, 100_000, 200, 30.0, 0, 0), "400x100k": (400, 100_000, 200, 30.0, 0, 0),
         "1000x1M": (1000, 1_000_000, 3600, 100.0, 0, 0),
         # the STD case of local/bench_steps.sh / bench_overhead_std.sh (issue 32): 20 h of audio
         "500x200k": (500, 200_000, 120, 600.0, 1, 0), "500x1M": (500, 1_000_000, 120, 600.0, 1, 0),
         # the same with a word-level reference of the 20 h (180 k LEXEME lines)
         "500x200k+words": (500, 200_000, 120, 600.0, 1, 2.5)}


def run_child(cmd: list[str], cwd: str, log: str) -> tuple[int, float, float, str, str]:
    """(exit code, CPU-s user + sys, max RSS MB, stdout, stderr) of one child (os.wait4: its
    own figures, not the maximum over every child so far)."""
    env = dict(os.environ, TERMEVAL_TIMING="1")
    with open(log + ".out", "w") as out, open(log + ".err", "w") as err:
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    with open(log + ".out") as out, open(log + ".err") as err:
        return p.returncode, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, out.read(), err.read()


def main(argv) -> int:
    p = make_parser(__doc__)
    p.add_argument("--cases", default="100x100k,400x100k,1000x1M")
    p.add_argument("--keep-dir", default=None)
    p.add_argument("--format", default="kwslist", choices=["kwslist", "kaldi"])
    p.add_argument("--preset", default="nist2006", help="--preset of score_std (sws2013: issue 32's figures)")
    p.add_argument("--tree", default="", help="comma list of termeval checkouts to score with, one row "
                   "each (e.g. an older commit's, for a before/after table); default: this one")
    p.add_argument("--repeat", type=int, default=1, help="runs per case and tree, the least CPU is printed")
    p.add_argument("--extra", default="", help="extra options for python -m termeval.bin.score_std")
    args = p.parse_args(argv)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    trees = [os.path.abspath(t) for t in args.tree.split(",") if t] or [root]
    base = args.keep_dir or tempfile.mkdtemp(prefix="bench_std.")
    print(f"{'case':>10} {'wall_s':>8} {'cpu_s':>7} {'peak_rss_MB':>12} {'gen_s':>7}  "
          "load / kernel / report CPU-s (TERMEVAL_TIMING)  atwv / mtwv  tree")
    for name in args.cases.split(","):
        n_q, n_det, n_files, fdur, seed, wps = CASES[name]
        d = os.path.join(base, name)
        t0 = time.time()
        kws, dets = generate(d, n_q, n_det, n_files, fdur, args.format, seed=seed, words_per_sec=wps)
        gen = time.time() - t0
        best: dict = {}
        for _ in range(max(1, args.repeat)):
            for tree in trees:      # interleaved: a busy machine slows both alike
                exp = os.path.join(d, "exp")
                shutil.rmtree(exp, ignore_errors=True)
                # from the tree: `python -m` puts the current directory first on the path
                cmd = [sys.executable, "-m", "termeval.bin.score_std", "--preset", args.preset,
                       *args.extra.split(), kws, dets, exp]
                t0 = time.time()
                rc, cpu, rss, out, err = run_child(cmd, tree, os.path.join(d, "score"))
                wall = time.time() - t0
                if rc:
                    print(err, file=sys.stderr)
                    return 1
                if tree not in best or cpu < best[tree][1]:
                    best[tree] = (wall, cpu, rss, out, err)
        for tree in trees:
            wall, cpu, rss, out, err = best[tree]
            vals = dict(line.split()[:2] for line in out.splitlines() if line.strip())
            timing = [line.split() for line in err.splitlines() if line.startswith("termeval-timing:")]
            parts = " / ".join(timing[-1][k] for k in (3, 5, 7)) if timing else "-"
            print(f"{name:>10} {wall:8.2f} {cpu:7.2f} {rss:12.0f} {gen:7.1f}  {parts:>44}  "
                  f"{vals.get('atwv')} / {vals.get('mtwv')}  {tree}")
    if not args.keep_dir:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    run(main)
