#!/usr/bin/env python3
"""Time and peak memory of reading a prepared data dir (data.load_gold -> textio.read_table).

usage: local/bench_load_gold.py <data-dir> [--slow]
  --slow   tokenise with the str.split path only (the reference the fast path must equal)
Prints: wall s, CPU s, peak RSS MB (ru_maxrss of this process), and a digest of the result.
"""
import argparse
import hashlib
import resource
import sys
import time


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("data_dir")
    p.add_argument("--slow", action="store_true", help="the str.split path only")
    a = p.parse_args()
    import numpy as np
    from termeval.core import datadir as data, textio
    if a.slow:
        textio.FAST_COLUMNS = False
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0, c0 = time.perf_counter(), time.process_time()
    g = data.load_gold(a.data_dir)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    h = hashlib.sha1()
    for t in (g.phones, g.words):
        for arr in (t.file, t.onset, t.offset, t.label, t.starts):
            h.update(np.ascontiguousarray(arr).tobytes())
        h.update("\n".join(t.labels).encode())
    print(f"load_gold {a.data_dir}: {wall:.2f} s wall, {cpu:.2f} s cpu, peak RSS {peak / 1024:.0f} MB "
          f"(before {rss0 / 1024:.0f} MB), {len(g.phones.onset)} phones, {len(g.words.onset)} words, "
          f"digest {h.hexdigest()[:16]}", file=sys.stdout)


if __name__ == "__main__":
    main()
